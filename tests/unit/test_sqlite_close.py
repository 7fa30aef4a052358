"""Closing a memory's database while another process writes to it: the housekeeping on
close (statistics, WAL checkpoint) is skipped at once, the close succeeds, and nothing is
lost. Before, such a close waited out the 30 s busy timeout, and with a writer holding on
longer (a worker mid-task beside a test's reader) raised the driver's ``database is locked``."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from eywa.stores.embedded.database import SqliteDatabase


def test_a_close_beside_another_writer_succeeds_and_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite"
    database = SqliteDatabase(path)
    database.ensure_schema(["CREATE TABLE IF NOT EXISTS t (v TEXT)"])
    with database.transaction() as conn:
        conn.execute("INSERT INTO t VALUES ('mine')")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another process holds the database
    other.execute("INSERT INTO t VALUES ('theirs')")
    started = time.monotonic()
    database.close()  # must neither raise nor wait out the busy timeout (30 s) on the writer
    assert time.monotonic() - started < 15, "close waited for the other writer's lock"
    other.execute("COMMIT")
    other.close()
    reopened = SqliteDatabase(path)
    try:
        with reopened.transaction() as conn:
            assert sorted(row[0] for row in conn.execute("SELECT v FROM t")) == ["mine", "theirs"]
    finally:
        reopened.close()
