"""The in-memory bm25 index of ``evidence_fts`` (``eywa.stores.embedded.bm25_index``): every
search the read path makes returns from it exactly FTS5's (id, rank) list, after any
sequence of adds (which rewrite their neighbours' rows), erasures and rolled-back writes;
a write it did not see (another process) sends searches to FTS5 until it is rebuilt."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eywa.batches import coerce_turns, prepare_batch
from eywa.models import Belief, CheckScore, ValidationReport
from eywa.signals import detect_signals
from eywa.stores.bundle import Stores
from eywa.stores.embedded import bm25_index, keyword
from eywa.stores.embedded.bm25_index import Bm25Index
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.erasure import _erase_chunk
from eywa.stores.embedded.factory import open_embedded

AT = datetime(2024, 3, 1, tzinfo=timezone.utc)
WORDS = ["kayak", "kayaks", "kayaking", "river", "rivers", "red", "club", "sunday", "paddle", "paddled", "the", "a"]
SPACES = ["ana", "bo", "cy"]
# Query shapes the read path builds: the shared search (question words), the feedback
# route's second search (question plus added words), one word, stemmed duplicates, a word
# no turn holds; limits of both routes.
QUERIES = ["kayak river", "red kayak club sunday paddle kayaking", "kayaks kayaking kayak", "paddled", "zebra river"]
LIMITS = (5, 30, 200)


def memory_of(stores: Stores) -> Bm25Index:
    index = stores.keyword._memory  # type: ignore[attr-defined]
    assert isinstance(index, Bm25Index)
    return index


def db_of(stores: Stores) -> SqliteDatabase:
    db = stores.keyword._db  # type: ignore[attr-defined]
    assert isinstance(db, SqliteDatabase)
    return db


def write(stores: Stores, space: str, turns: list[dict[str, Any]]) -> list[str]:
    batch = prepare_batch(space, coerce_turns(turns), stores.evidence, detect_signals, now=AT)
    stores.evidence.add(batch.new, batch.mentions)
    return batch.ids


def assert_same(stores: Stores, *, current: bool = True) -> None:
    """Every query shape, space and limit: the index's list is FTS5's; and, when
    ``current``, the index answered (no fallback to FTS5)."""
    index, fts5 = memory_of(stores), keyword.SqliteKeywordIndex(db_of(stores))
    for space in SPACES:
        for text in QUERIES:
            match = keyword.fts_query(text)
            assert match is not None
            for limit in LIMITS:
                want = fts5._ranked("evidence", space, match, limit)
                got = index.ranked(space, match, limit)
                if current:
                    assert got is not None, (space, match)
                if got is not None:
                    assert got == want, (space, match, limit)
                answered = memory_of(stores).answered
                assert stores.keyword.search(space, text, limit) == fts5.search(space, text, limit)
                if current:  # the store's own keyword search was ranked by the index
                    assert memory_of(stores).answered == answered + 1


@pytest.fixture
def stores(tmp_path: Path) -> Iterator[Stores]:
    bundle = open_embedded(tmp_path / "embedded", 8)
    assert memory_of(bundle).wait_ready(30)
    yield bundle
    bundle.close()


turn = st.fixed_dictionaries(
    {"text": st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map(" ".join), "session": st.sampled_from(["s1", "s2", "s3"]),
     "speaker": st.sampled_from(["Ana", "Bo", "river"])}
)  # fmt: skip
step = st.one_of(
    st.tuples(st.just("add"), st.sampled_from(SPACES), st.lists(turn, min_size=1, max_size=4)),
    st.tuples(st.just("erase"), st.sampled_from(SPACES), st.integers(0, 1000)),
    st.tuples(st.just("rollback"), st.sampled_from(SPACES), st.lists(turn, min_size=1, max_size=3)),
)


class Rollback(Exception):
    pass


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(step, min_size=1, max_size=8), merge_at=st.sampled_from([1, 256]))
def test_index_equals_fts5_after_adds_rewrites_erasures_and_rollbacks(
    tmp_path_factory: pytest.TempPathFactory, steps: list[Any], merge_at: int
) -> None:
    stores = open_embedded(tmp_path_factory.mktemp("bm25") / "embedded", 8)
    # A term's pending changes folded in at once (1) or mostly on its next search (256).
    with patch.object(bm25_index, "_MERGE_AT", merge_at):
        try:
            assert memory_of(stores).wait_ready(30)
            db = db_of(stores)
            for kind, space, arg in steps:
                if kind == "add":  # new rows, and the neighbour-context rewrite of their session
                    write(stores, space, arg)
                elif kind == "erase":  # the erasure's FTS deletes and the survivors' rewrite
                    ids = stores.evidence.ids(space)
                    if ids:
                        with db.transaction() as conn:
                            _erase_chunk(conn, space, [ids[arg % len(ids)]], AT)
                else:  # a write rolled back must not touch the index
                    with pytest.raises(Rollback), db.transaction():
                        write(stores, space, arg)
                        raise Rollback
                assert_same(stores)
        finally:
            stores.close()


def test_a_phrase_or_other_syntax_goes_to_fts5(stores: Stores) -> None:
    write(stores, "ana", [{"text": "e-mail the kayak club", "session": "s"}])
    index = memory_of(stores)
    assert index.ranked("ana", '"kayak"', 10) is not None
    assert index.ranked("ana", '"e mail"', 10) is None  # FTS5 makes two tokens of it: a phrase
    assert index.ranked("ana", "kayak*", 10) is None
    assert index.ranked("ana", '"kayak" AND "club"', 10) is None


def test_another_connection_writing_sends_searches_to_fts5_then_the_rebuilt_index_agrees(stores: Stores) -> None:
    write(stores, "ana", [{"text": "kayak river", "session": "s1"}, {"text": "red kayak", "session": "s1"}])
    index = memory_of(stores)
    assert_same(stores)
    builds = index.builds
    # Another process's writer: a row of its own, and a rewritten one, behind the index's back.
    other = sqlite3.connect(str(db_of(stores).path), isolation_level=None)
    rowid = other.execute("SELECT rowid FROM evidence WHERE space = 'ana' LIMIT 1").fetchone()[0]
    other.execute("BEGIN IMMEDIATE")
    other.execute("UPDATE evidence_fts SET text = 'paddled paddled paddled kayak' WHERE rowid = ?", (rowid,))
    other.execute("COMMIT")
    other.close()
    match = keyword.fts_query("paddled kayak")
    assert match is not None
    assert index.ranked("ana", match, 10) is None  # another version: FTS5 answers
    for _ in range(100):  # the search scheduled a check, which rebuilds
        if index.builds > builds and index.wait_ready(10):
            break
        time.sleep(0.05)
    assert index.builds > builds
    got = index.ranked("ana", match, 10)
    assert got is not None and got[0][1] < 0
    assert_same(stores)


@pytest.mark.parametrize("snapshot", ["before the writes", "after the writes"])
def test_writes_committed_during_a_build_are_applied_once(stores: Stores, monkeypatch: pytest.MonkeyPatch, snapshot: str) -> None:
    # A build reads one snapshot; writes committed meanwhile are queued and applied on top
    # of it, those the snapshot already holds skipped (their version chain tells which).
    write(stores, "ana", [{"text": "kayak river", "session": "s1"}])
    index = memory_of(stores)
    real, release = bm25_index.build, threading.Event()

    def slow(conn: sqlite3.Connection, weights: Any) -> Any:
        if snapshot == "after the writes":
            release.wait(10)
        state = real(conn, weights)
        release.wait(10)
        return state

    monkeypatch.setattr(bm25_index, "build", slow)
    index.rebuild()
    if snapshot == "before the writes":
        time.sleep(0.3)  # the build has read its snapshot and waits
    write(stores, "ana", [{"text": "red kayak club", "session": "s1"}, {"text": "paddled", "session": "s2"}])
    write(stores, "bo", [{"text": "kayaks on the river", "session": "s1"}])
    ids = stores.evidence.ids("ana")
    with db_of(stores).transaction() as conn:
        _erase_chunk(conn, "ana", [ids[0]], AT)
    assert memory_of(stores).ranked("ana", '"kayak"', 10) is None  # building: FTS5 answers
    release.set()
    assert index.wait_ready(10)
    assert_same(stores)


def test_an_erasure_scrub_merging_the_fts5_segments_keeps_the_index_current_without_a_rebuild(stores: Stores) -> None:
    # ``ErasureStore.scrub`` merges evidence_fts into one segment (the erased terms leave its
    # segments): the table's structure record changes, its rows do not. Told of the write with
    # no row, the index follows the new version instead of sending searches to FTS5 while it
    # rebuilds.
    write(stores, "ana", [{"text": "kayak river", "session": "s1"}, {"text": "red kayak club", "session": "s1"}])
    write(stores, "bo", [{"text": "kayaks on the river", "session": "s1"}])
    ids = stores.evidence.ids("ana")
    with db_of(stores).transaction() as conn:
        _erase_chunk(conn, "ana", [ids[0]], AT)
    index = memory_of(stores)
    builds, before = index.builds, bm25_index.read_version_db(db_of(stores))
    assert stores.erasure.scrub()
    assert bm25_index.read_version_db(db_of(stores)) != before  # the merge wrote a new structure
    assert index.builds == builds
    assert_same(stores)


def test_close_waits_for_a_running_build_and_no_build_starts_after_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A build reads the database file from a thread of its own: one still running after the
    # stores closed could recreate SQLite's side files in a directory its owner is removing
    # (a test's TemporaryDirectory failed with "Directory not empty"). Close interrupts it
    # and returns once no thread of the index is left.
    directory = tmp_path / "embedded"
    first = open_embedded(directory, 8)
    write(first, "ana", [{"text": f"kayak river {i}", "session": "s1"} for i in range(50)])
    first.close()
    real, started = bm25_index.build, threading.Event()

    def slow(conn: sqlite3.Connection, weights: Any) -> Any:
        started.set()
        time.sleep(0.5)  # a long read: the build is still running when close is called
        return real(conn, weights)

    monkeypatch.setattr(bm25_index, "build", slow)
    bundle = open_embedded(directory, 8)
    assert started.wait(10)
    index = memory_of(bundle)
    bundle.close()
    assert not [t.name for t in threading.enumerate() if t.name.startswith("eywa-bm25")]
    assert sorted(p.name for p in directory.iterdir() if p.name.endswith(("-wal", "-shm"))) == []
    index.rebuild()  # after close: no build starts
    assert not [t.name for t in threading.enumerate() if t.name.startswith("eywa-bm25")]


def test_an_erasure_scrubbed_while_a_build_reads_leaves_none_of_its_words_once_built(
    stores: Stores, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A build whose snapshot was read before an erasure committed holds the erased turn's
    # words; the erasure's change is queued and applied on top of it when the build ends,
    # which empties the words' postings. The scrub that ran meanwhile found no copy to prune,
    # so the finished build must forget those words itself (before: they stayed as terms
    # without a row until the next build).
    write(stores, "ana", [{"text": "kayak river", "session": "s1"}, {"text": "zanzibar quokka", "session": "s1"}])
    index = memory_of(stores)
    assert {"zanzibar", "quokka"} <= index.terms()
    real, release, read = bm25_index.build, threading.Event(), threading.Event()

    def slow(conn: sqlite3.Connection, weights: Any) -> Any:
        state = real(conn, weights)  # the snapshot before the erasure
        read.set()
        release.wait(10)
        return state

    monkeypatch.setattr(bm25_index, "build", slow)
    index.rebuild()
    assert read.wait(10)
    erased = [i for i in stores.evidence.ids("ana") if "quokka" in stores.evidence.get("ana", [i])[0].text]
    with db_of(stores).transaction() as conn:
        _erase_chunk(conn, "ana", erased, AT)
    stores.erasure.scrub()  # the build still runs: no copy held to prune
    release.set()
    assert index.wait_ready(10)
    assert not {"zanzibar", "quokka"} & index.terms()
    assert_same(stores)


def test_a_search_of_both_kinds_reads_the_ids_of_the_turns_it_keeps_only(
    stores: Stores, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The routes' shared search ranks turns and beliefs and keeps the best of both: a turn's
    # id is a read of its row, made for the turns kept, not for every turn ranked. Every turn
    # says "kayak" and few beliefs do, so the beliefs rank first and take places from turns.
    turns = write(stores, "ana", [{"text": f"A long day on the kayak, trip {i}.", "speaker": "Ana", "session": f"s{i}"} for i in range(8)])
    report = ValidationReport(accepted=True, score=0.9, checks=(CheckScore(name="support", score=0.9, passed=True),))
    stores.beliefs.add([
        Belief(
            id=f"bel_{i}", space="ana", statement="Ana owns a kayak." if i < 3 else f"Ana drinks tea number {i}.",
            subject="Ana", attribute="hobby", value="kayak", polarity="positive", modality="asserted", valid_from=AT,
            valid_to=None, recorded_at=AT, status="active", extractor="rules", evidence_ids=(turns[i % 8],), report=report,
        )
        for i in range(12)
    ], [])  # fmt: skip
    fts5 = keyword.SqliteKeywordIndex(db_of(stores))
    db, named = db_of(stores), []
    for method in ("query", "tuples"):  # named rows or plain tuples (``SqliteDatabase.tuples``)
        read = getattr(db, method)

        def counted(sql: str, params: Any = (), read: Any = read) -> Any:
            if sql.startswith("SELECT rowid, id, space FROM evidence"):
                named.extend(params)
            return read(sql, params)

        monkeypatch.setattr(db, method, counted)
    hits = stores.keyword.search("ana", "kayak", 5, ("evidence", "belief"))
    assert hits == fts5.search("ana", "kayak", 5, ("evidence", "belief"))
    kept = [item_id for kind, item_id, _ in hits if kind == "evidence"]
    assert 0 < len(kept) < len(turns) and len(named) == len(kept)
    assert memory_of(stores).answered >= 1 and memory_of(stores).fell_back == 0
