"""``SqliteDatabase.checkpoint`` (an erasure's last SQLite step, README "Erasure", on disk):
the WAL is copied into the file and truncated to zero bytes, deleted rows are zeroed
(``secure_delete``), and a reader on an older snapshot makes it give up after its wait,
saying so, instead of holding the writing connection for the 30 s busy timeout."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from eywa.stores.embedded.database import SqliteDatabase

SECRET = "zq7forensicword"


def test_a_checkpoint_truncates_the_wal_and_leaves_no_deleted_row_in_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = sqlite3.connect

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn: sqlite3.Connection = real(*args, **kwargs)
        conn.execute("PRAGMA secure_delete = OFF")  # as a build without SQLITE_SECURE_DELETE opens it
        return conn

    monkeypatch.setattr(sqlite3, "connect", connect)
    path = tmp_path / "memory.sqlite"
    database = SqliteDatabase(path)
    try:
        database.ensure_schema(["CREATE TABLE IF NOT EXISTS t (v TEXT)"])
        with database.transaction() as conn:
            conn.executemany("INSERT INTO t VALUES (?)", [(f"{SECRET} {i} " + "x" * 200,) for i in range(200)])
        assert database.checkpoint()
        with database.transaction() as conn:
            conn.execute("DELETE FROM t")
        assert Path(f"{path}-wal").stat().st_size > 0
        assert database.checkpoint()
        assert Path(f"{path}-wal").stat().st_size == 0
        assert SECRET.encode() not in path.read_bytes()  # zeroed, free pages included
    finally:
        database.close()


def test_a_reader_on_an_older_snapshot_makes_the_checkpoint_give_up_after_its_wait(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite"
    database = SqliteDatabase(path)
    reader = sqlite3.connect(path, isolation_level=None)
    try:
        database.ensure_schema(["CREATE TABLE IF NOT EXISTS t (v TEXT)"])
        with database.transaction() as conn:
            conn.execute("INSERT INTO t VALUES ('a')")
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM t").fetchone()  # holds this snapshot
        with database.transaction() as conn:
            conn.execute("INSERT INTO t VALUES ('b')")
        started = time.monotonic()
        assert not database.checkpoint(wait_s=0.2)
        assert time.monotonic() - started < 5
        reader.execute("COMMIT")
        assert database.checkpoint()
        assert Path(f"{path}-wal").stat().st_size == 0
        with database.transaction() as conn:  # the busy timeout is the writers' again
            assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 30_000
    finally:
        reader.close()
        database.close()
