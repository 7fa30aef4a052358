"""A recall's reads of the embedded store in one snapshot.

``SqliteDatabase.read_snapshot`` holds one read transaction for a sequence of reads (a
recall's): they see one committed state, and what is the same for every read of that state
is read once (``SqliteDatabase.once``).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from eywa import Memory
from eywa.settings import EywaSettings
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.evidence import SqliteEvidenceStore
from eywa.stores.embedded.keyword import SqliteKeywordIndex
from tests.reliability.support import HashEmbedder

T0 = datetime(2024, 3, 2, 9, 30, tzinfo=timezone.utc)


@pytest.fixture
def database(tmp_path: Path) -> Iterator[SqliteDatabase]:
    db = SqliteDatabase(tmp_path / "eywa.sqlite3")
    db.ensure_schema(["CREATE TABLE IF NOT EXISTS t (v TEXT)"])
    with db.transaction() as conn:
        conn.execute("INSERT INTO t VALUES ('first')")
    yield db
    db.close()


def _count(db: SqliteDatabase) -> int:
    return int(db.tuples("SELECT COUNT(*) FROM t")[0][0])


def _write_elsewhere(db: SqliteDatabase, value: str) -> None:
    """A write committed by another thread (the writing connection, not this thread's reader)."""

    def write() -> None:
        with db.transaction() as conn:
            conn.execute("INSERT INTO t VALUES (?)", (value,))

    thread = threading.Thread(target=write)
    thread.start()
    thread.join(10)


def test_reads_in_a_read_snapshot_see_one_committed_state(database: SqliteDatabase) -> None:
    with database.read_snapshot():
        assert _count(database) == 1
        _write_elsewhere(database, "second")  # committed meanwhile: not seen inside
        assert _count(database) == 1
    assert _count(database) == 2  # the next reads see it


def test_once_reads_once_per_snapshot_and_each_time_outside_one(database: SqliteDatabase) -> None:
    reads: list[int] = []

    def read() -> int:
        reads.append(1)
        return _count(database)

    with database.read_snapshot():
        assert [database.once("rows", read) for _ in range(3)] == [1, 1, 1]
        with database.transaction() as conn:  # through the writer, whose own writes may come between
            conn.execute("INSERT INTO t VALUES ('mine')")
            assert database.once("rows", read) == 2
    assert len(reads) == 2
    assert [database.once("rows", read) for _ in range(2)] == [2, 2] and len(reads) == 4
    with database.read_snapshot():  # a new snapshot reads anew
        assert database.once("rows", read) == 2 and len(reads) == 5


def test_a_read_snapshot_through_the_writer_takes_no_lock(database: SqliteDatabase) -> None:
    """On an in-memory database (tests) the reads go through the writing connection: the
    block holds no lock that another thread's write would wait for."""
    memory = SqliteDatabase(Path(":memory:"))
    memory.ensure_schema(["CREATE TABLE IF NOT EXISTS t (v TEXT)"])
    with memory.read_snapshot():
        _write_elsewhere(memory, "beside")
        assert _count(memory) == 1
    memory.close()


def test_a_recall_reads_the_store_in_one_read_transaction(tmp_path: Path) -> None:
    settings = EywaSettings(data_dir=tmp_path / "m", extractor="none")
    with Memory.open(tmp_path / "m", embedder=HashEmbedder(), settings=settings) as mem:
        mem.remember(
            "home",
            [
                {"speaker": "Priya", "text": "I adopted a grey cat called Miso last week.", "observed_at": T0},
                {"speaker": "Bo", "text": "Miso is a lovely name for a cat!", "observed_at": T0 + timedelta(minutes=1)},
            ],
        )
        mem.wait()
        mem.recall("home", "What is the name of Priya's cat?")  # the recalling thread's reader is open
        evidence = mem._stores.evidence  # noqa: SLF001 - the statements its reader runs
        assert isinstance(evidence, SqliteEvidenceStore)
        reader = evidence._db._reader()  # noqa: SLF001
        statements: list[str] = []
        reader.set_trace_callback(statements.append)
        try:
            result = mem.recall("home", "What is the name of Priya's cat?")
        finally:
            reader.set_trace_callback(None)
    assert any("Miso" in item.text for item in result.items)
    # Before: each statement began and ended its own read transaction (no BEGIN traced), and
    # the keyword table's version was read by each search and by the speakers' read.
    assert statements[0] == "BEGIN" and statements.count("BEGIN") == 1 and statements.count("COMMIT") == 1
    # ``Memory.recall``'s own read of what is not yet embedded (the trace's "pending") is in it
    # too: its counts are of the state the recall read, and nothing is read after it.
    assert statements[-1] == "COMMIT"
    assert any("FROM space_backlog" in statement for statement in statements)
    # Nothing was written since the first recall: the keyword table's version is not read again.
    assert sum("evidence_fts_data" in statement for statement in statements) == 0


def test_kept_reads_once_per_committed_state(database: SqliteDatabase, tmp_path: Path) -> None:
    reads: list[int] = []

    def read() -> int:
        reads.append(1)
        return _count(database)

    with database.read_snapshot():
        assert [database.kept("rows", read) for _ in range(2)] == [1, 1]
    with database.read_snapshot():  # nothing committed since: what was read is kept
        assert database.kept("rows", read) == 1
    assert len(reads) == 1
    _write_elsewhere(database, "second")  # through this process's writing connection
    with database.read_snapshot():
        assert database.kept("rows", read) == 2
    assert len(reads) == 2
    with sqlite3.connect(tmp_path / "eywa.sqlite3") as other:  # another connection altogether
        other.execute("INSERT INTO t VALUES ('third')")
    with database.read_snapshot():
        assert database.kept("rows", read) == 3
    assert len(reads) == 3
    # Outside a snapshot: read each time.
    assert [database.kept("rows", read) for _ in range(2)] == [3, 3] and len(reads) == 5


def test_a_turn_written_after_a_recall_is_searched_by_the_next_from_the_keyword_index(tmp_path: Path) -> None:
    """The keyword index answers a search only at the version of the table the search's
    snapshot reads, and that version is kept between recalls while nothing is written: a
    write between two recalls must be read anew, or the next recall would find the index
    (already brought up to the write) at another version and ask FTS5 instead."""
    settings = EywaSettings(data_dir=tmp_path / "m", extractor="none")
    with Memory.open(tmp_path / "m", embedder=HashEmbedder(), settings=settings) as mem:
        first_turn = {"speaker": "Priya", "text": "I repaired my bicycle at Globex on Monday.", "observed_at": T0}
        mem.remember("home", [first_turn])
        mem.wait()
        keyword = mem._stores.keyword  # noqa: SLF001 - the embedded index's counts
        assert isinstance(keyword, SqliteKeywordIndex) and keyword.wait_ready(30)
        first = mem.recall("home", "Where did Priya repair her bicycle?")
        assert any("Globex" in item.text for item in first.items)
        said = T0 + timedelta(hours=2)
        mem.remember("home", [{"speaker": "Nadia", "text": "My kayak got a new rudder at Initech.", "observed_at": said}])
        mem.wait()
        second = mem.recall("home", "Where did Nadia's kayak get its rudder?")
        counts = keyword.memory_counts()
    assert any("Initech" in item.text for item in second.items)
    assert counts["fts5"] == 0 and counts["memory"] >= 2
