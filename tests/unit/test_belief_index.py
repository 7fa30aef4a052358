"""The in-memory copy of ``belief_fts`` (``eywa.stores.embedded.belief_index``): while it is of
the version a search reads, it returns exactly FTS5's (id, rank) list for every query shape,
space and limit the read path uses; any write (an add, a supersession, a delete, an erasure)
sends searches to FTS5 until a new copy is read, so an erased belief is never returned."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from eywa.batches import coerce_turns, prepare_batch
from eywa.models import Belief, CheckScore, ValidationReport
from eywa.signals import detect_signals
from eywa.stores.bundle import Stores
from eywa.stores.embedded import belief_index, keyword
from eywa.stores.embedded.belief_index import BeliefBm25
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.factory import open_embedded

AT = datetime(2024, 3, 1, tzinfo=timezone.utc)
SPACES = ["ana", "bo"]
VALUES = ["kayak", "red kayak", "river kayaking", "kayaks", "sunday club", "paddle", "the river"]
QUERIES = ["kayak river", "red kayak club sunday paddle kayaking", "kayaks kayaking kayak", "paddled", "zebra river"]
LIMITS = (5, 30, 200)


@pytest.fixture
def stores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Stores]:
    monkeypatch.setattr(belief_index, "MIN_GAP_S", 0.0)  # a new copy as soon as one is stale
    monkeypatch.setattr(belief_index, "REBUILD_GAP", 0.0)
    bundle = open_embedded(tmp_path / "embedded", 8)
    yield bundle
    bundle.close()


def copy_of(stores: Stores) -> BeliefBm25:
    index = stores.keyword._beliefs  # type: ignore[attr-defined]
    assert isinstance(index, BeliefBm25)
    return index


def db_of(stores: Stores) -> SqliteDatabase:
    db = stores.keyword._db  # type: ignore[attr-defined]
    assert isinstance(db, SqliteDatabase)
    return db


def belief(bid: str, space: str, statement: str, evidence: str) -> Belief:
    return Belief(
        id=bid, space=space, statement=statement, subject="Ana", attribute="hobby",
        value=statement, polarity="positive", modality="asserted", valid_from=AT, valid_to=None,
        recorded_at=AT, status="active", extractor="rules", evidence_ids=(evidence,),
        report=ValidationReport(accepted=True, score=0.9, checks=(CheckScore(name="support", score=0.9, passed=True),)),
    )  # fmt: skip


def turn(stores: Stores, space: str) -> str:
    turns: list[dict[str, Any]] = [{"text": "We went out on the water.", "speaker": "Ana"}]
    batch = prepare_batch(space, coerce_turns(turns), stores.evidence, detect_signals, now=AT)
    stores.evidence.add(batch.new, batch.mentions)
    return batch.ids[0]


def add(stores: Stores, n: int, start: int = 0) -> list[str]:
    """``n`` beliefs over both spaces, statements repeating words (ties, stems, frequencies)."""
    anchors = {space: turn(stores, space) for space in SPACES}
    ids = []
    for i in range(start, start + n):
        space = SPACES[i % len(SPACES)]
        words = " ".join(VALUES[(i * k) % len(VALUES)] for k in (1, 2, 3)[: 1 + i % 3])
        stores.beliefs.add([belief(f"bel_{i}", space, f"Ana likes the {words}.", anchors[space])], [])
        ids.append(f"bel_{i}")
    return ids


def fts5(stores: Stores, space: str, match: str, limit: int) -> list[tuple[str, float]]:
    rows = db_of(stores).query(keyword._FILTERED["belief"], (match, space, limit))
    return [(row["id"], float(row["rank"])) for row in rows]


def assert_same(stores: Stores) -> None:
    """The copy is current and answers every query shape, space and limit as FTS5 does."""
    index = copy_of(stores)
    assert index.wait_ready(30)
    for query in QUERIES:
        match = keyword.fts_query(query)
        assert match is not None
        for space in [*SPACES, "nobody"]:
            for limit in LIMITS:
                assert index.ranked(space, match, limit) == fts5(stores, space, match, limit), (query, space, limit)


def current(stores: Stores) -> None:
    """Search until a new copy has been read (the first search after a write goes to FTS5)."""
    index = copy_of(stores)
    match = keyword.fts_query("kayak")
    assert match is not None
    for _ in range(200):
        if index.ranked("ana", match, 5) is not None:
            return
        index.wait_ready(5)
    raise AssertionError("no current copy")


def test_the_copy_ranks_as_fts5_and_a_write_sends_searches_to_fts5_until_it_is_read_again(stores: Stores) -> None:
    add(stores, 12)
    current(stores)
    assert_same(stores)
    index = copy_of(stores)
    match = keyword.fts_query("kayak river")
    assert match is not None
    answered = index.answered

    add(stores, 9, start=12)  # the copy is now of an older version
    fell_back = index.fell_back
    assert index.ranked("ana", match, 30) is None and index.fell_back == fell_back + 1
    assert stores.keyword.search("ana", "kayak river", 30, ("belief",)) == [
        ("belief", item_id, -rank) for item_id, rank in fts5(stores, "ana", match, 30)
    ]
    current(stores)
    assert_same(stores)
    assert index.answered > answered

    stores.beliefs.supersede("ana", "bel_0", "bel_2")
    current(stores)
    assert_same(stores)


def test_an_erased_belief_is_never_returned(stores: Stores) -> None:
    ids = add(stores, 8)
    current(stores)
    gone = ids[0]  # in space "ana"
    assert gone in [item_id for _, item_id, _ in stores.keyword.search("ana", "kayak", 50, ("belief",))]
    stores.beliefs.delete("ana", [gone], [])
    for _ in range(3):  # right after the erasure (FTS5), and from the copies read after it
        assert gone not in [item_id for _, item_id, _ in stores.keyword.search("ana", "kayak", 50, ("belief",))]
        current(stores)
    assert_same(stores)


def test_a_phrase_or_other_syntax_goes_to_fts5(stores: Stores) -> None:
    add(stores, 4)
    current(stores)
    assert copy_of(stores).ranked("ana", '"red kayak"', 10) is None  # a quoted phrase: two tokens
    assert copy_of(stores).ranked("ana", "kayak NEAR river", 10) is None


def test_close_interrupts_a_running_read_and_none_starts_after_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started, release = threading.Event(), threading.Event()
    real = belief_index.read_copy

    def slow(conn: Any) -> Any:
        started.set()
        release.wait(5)
        return real(conn)

    monkeypatch.setattr(belief_index, "read_copy", slow)
    bundle = open_embedded(tmp_path / "embedded", 8)
    index = copy_of(bundle)
    assert started.wait(5)
    release.set()
    bundle.close()
    assert index._thread is None or not index._thread.is_alive()  # noqa: SLF001
    index._reread()  # noqa: SLF001 - after close: nothing starts
    assert index._thread is None  # noqa: SLF001
