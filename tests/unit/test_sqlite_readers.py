"""Reads beside the writer: a thread that does not hold the embedded database's writing
connection reads through a read-only connection of its own, on the last committed state,
without waiting for a write transaction (a Level 0 batch, a Level 1 pass, an erasure). The
writer's own thread still reads its uncommitted rows, and a read never writes."""

from __future__ import annotations

import gc
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from eywa.errors import ClosedError, StoreError
from eywa.stores.embedded.database import SqliteDatabase


@pytest.fixture
def database(tmp_path: Path) -> SqliteDatabase:
    db = SqliteDatabase(tmp_path / "eywa.sqlite3")
    db.ensure_schema(["CREATE TABLE IF NOT EXISTS t (v TEXT)"])
    with db.transaction() as conn:
        conn.execute("INSERT INTO t VALUES ('committed')")
    return db


def _values(db: SqliteDatabase) -> list[str]:
    return sorted(row["v"] for row in db.query("SELECT v FROM t"))


def test_a_read_does_not_wait_for_a_write_transaction_and_sees_what_is_committed(database: SqliteDatabase) -> None:
    writing, release = threading.Event(), threading.Event()

    def write() -> None:
        with database.transaction() as conn:
            conn.execute("INSERT INTO t VALUES ('uncommitted')")
            assert _values(database) == ["committed", "uncommitted"]  # the writer reads its own rows
            writing.set()
            release.wait(30)

    with ThreadPoolExecutor(2) as pool:
        writer = pool.submit(write)
        assert writing.wait(10)
        # Before, this read queued on the writer's lock until the transaction ended.
        reader = pool.submit(_values, database)
        assert reader.result(timeout=5) == ["committed"]
        release.set()
        writer.result(timeout=10)
        assert pool.submit(_values, database).result(timeout=5) == ["committed", "uncommitted"]
    database.close()


def test_a_read_never_writes(database: SqliteDatabase) -> None:
    with pytest.raises(StoreError):
        database.query("INSERT INTO t VALUES ('sneaked') RETURNING v")
    assert _values(database) == ["committed"]
    database.close()


def test_readers_end_with_their_thread_and_with_the_database(database: SqliteDatabase) -> None:
    threads = [threading.Thread(target=_values, args=(database,)) for _ in range(3)]
    for thread in threads:
        thread.start()
        thread.join()
    gc.collect()
    assert len(database._readers) == 0  # each thread's connection went with its thread
    _values(database)
    assert len(database._readers) == 1
    database.close()
    assert len(database._readers) == 0
    with pytest.raises(ClosedError):
        database.query("SELECT v FROM t")


def test_a_snapshot_reads_one_committed_state_without_waiting_for_the_writer(database: SqliteDatabase) -> None:
    writing, release = threading.Event(), threading.Event()

    def write(value: str, hold: bool) -> None:
        with database.transaction() as conn:
            conn.execute("INSERT INTO t VALUES (?)", (value,))
            if hold:
                writing.set()
                release.wait(30)

    with ThreadPoolExecutor(2) as pool:
        held = pool.submit(write, "uncommitted", True)
        assert writing.wait(10)

        def two_reads() -> tuple[list[str], list[str]]:
            with database.snapshot():  # before, ``prior`` held the writer's lock for its reads
                first = _values(database)
                return first, _values(database)

        assert pool.submit(two_reads).result(timeout=5) == (["committed"], ["committed"])
        release.set()
        held.result(timeout=10)

    # A commit by another thread between two reads of one snapshot is not seen by the second.
    with database.snapshot():
        before = _values(database)
        with ThreadPoolExecutor(1) as other:
            other.submit(write, "meanwhile", False).result(timeout=10)
        assert _values(database) == before == ["committed", "uncommitted"]
    assert _values(database) == ["committed", "meanwhile", "uncommitted"]
    database.close()
