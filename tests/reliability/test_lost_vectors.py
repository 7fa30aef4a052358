"""Vectors the embedded store lost behind the ledger's back are noticed at open and embedded
again (``eywa.stores.embedded.lost_vectors``).

The vector shards (``vectors/``) are derived from the turns and beliefs in SQLite. Before,
deleting ``vectors/`` or one shard's directory reopened the memory with an empty vector
store without a word: the ledger still counted every turn as embedded, nothing embedded them
again, and the vector route found nothing for ever. Now the open marks what the shards lack,
logs one warning, the recall trace's ``pending.embed`` counts it, and once reconciled the
vector route finds the same items as before the loss.

Each damaged memory is first reopened with ``embed_writes=False`` (a memory that leaves its
embedding to another process), so the backlog the open found stays there to be looked at;
a normal reopen then embeds it.
"""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from eywa import Memory
from eywa.embedding import Embedder
from eywa.embedding.minilm import MiniLMEmbedder
from eywa.stores.embedded.vectors import QdrantEdgeVectorStore
from tests.conformance.test_read_contract import CONVERSATION
from tests.suite_threads import SUITE_EMBED_THREADS

QUERIES = ("Which pet did she get?", "Who is coming to visit?", "What race is Tom running?", "home decoration")
Hits = list[list[tuple[str, str]]]


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return MiniLMEmbedder(threads=SUITE_EMBED_THREADS)


@pytest.fixture
def stored(tmp_path: Path, embedder: Embedder) -> Iterator[tuple[Path, list[str], Hits]]:
    """A closed memory holding ``CONVERSATION`` (and the beliefs the rule extractor drew from
    it): its directory, the turns' ids, and what the vector route found for ``QUERIES``."""
    directory = tmp_path / "mem"
    with Memory.open(directory, embedder=embedder) as mem:
        ids = mem.remember("home", CONVERSATION)
        before = _vector_hits(mem)
    assert all(before) and any(kind == "belief" for hits in before for kind, _ in hits)
    yield directory, list(ids), before


def _vector_hits(mem: Memory) -> Hits:
    """What the vector route found (kind, id) for each of ``QUERIES``, best first."""
    return [[(hit["kind"], hit["id"]) for hit in mem.recall("home", q, k=5).trace["routes"]["vector"]] for q in QUERIES]


def _reopen_damaged(
    directory: Path, embedder: Embedder, caplog: pytest.LogCaptureFixture
) -> tuple[dict[str, int], int, Hits, list[str]]:
    """Reopen without embedding: the backlog, the recall trace's ``pending.embed``, the
    vector route's hits and the warnings logged."""
    caplog.clear()
    with caplog.at_level(logging.WARNING), Memory.open(directory, embedder=embedder, embed_writes=False) as mem:
        backlog = mem.backlog()
        traced = mem.recall("home", QUERIES[0]).trace["pending"]["embed"]
        hits = _vector_hits(mem)
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    return backlog, traced, hits, warnings


def _healed(directory: Path, embedder: Embedder) -> tuple[dict[str, int], Hits]:
    """Reopen and reconcile: the backlog left and the vector route's hits."""
    with Memory.open(directory, embedder=embedder) as mem:
        mem.reconcile()
        return mem.backlog(), _vector_hits(mem)


def test_a_deleted_vectors_directory_is_rebuilt_from_the_turns(
    stored: tuple[Path, list[str], Hits], embedder: Embedder, caplog: pytest.LogCaptureFixture
) -> None:
    directory, ids, before = stored
    shutil.rmtree(directory / "vectors")
    backlog, traced, hits, warnings = _reopen_damaged(directory, embedder, caplog)
    assert backlog["embed_evidence"] == traced == len(ids)
    assert backlog["embed_belief"] > 0
    assert hits == [[] for _ in QUERIES]  # nothing to find until they are embedded again
    assert len(warnings) == 1
    assert str(directory / "vectors") in warnings[0] and f"evidence: 0 points of {len(ids)}" in warnings[0]
    # the marks persist: the second damaged open warns no more (its shards are as short, but
    # the ledger now says so itself)
    assert _reopen_damaged(directory, embedder, caplog)[3] == []
    left, after = _healed(directory, embedder)
    assert left["embed_evidence"] == left["embed_belief"] == 0
    assert after == before


def test_one_lost_shard_is_rebuilt_and_the_other_left_alone(
    stored: tuple[Path, list[str], Hits], embedder: Embedder, caplog: pytest.LogCaptureFixture
) -> None:
    directory, ids, before = stored
    shutil.rmtree(directory / "vectors" / "evidence")
    backlog, traced, hits, warnings = _reopen_damaged(directory, embedder, caplog)
    assert backlog["embed_evidence"] == traced == len(ids)
    assert backlog["embed_belief"] == 0  # the belief shard is whole
    assert all(kind == "belief" for found in hits for kind, _ in found)
    assert len(warnings) == 1 and "belief" not in warnings[0]
    left, after = _healed(directory, embedder)
    assert left["embed_evidence"] == 0
    assert after == before


def test_a_shard_short_of_some_points_marks_only_those(
    stored: tuple[Path, list[str], Hits], embedder: Embedder, caplog: pytest.LogCaptureFixture
) -> None:
    directory, ids, before = stored
    lost = ids[:2]
    shard = QdrantEdgeVectorStore(directory / "vectors", embedder.dim)  # the damage: two points gone
    shard.delete("evidence", lost)
    shard.close()
    backlog, traced, hits, warnings = _reopen_damaged(directory, embedder, caplog)
    assert backlog["embed_evidence"] == traced == len(lost)
    assert not {hit_id for found in hits for _, hit_id in found} & set(lost)
    assert len(warnings) == 1 and f"evidence: {len(ids) - len(lost)} points of {len(ids)}, 2 marked" in warnings[0]
    left, after = _healed(directory, embedder)
    assert left["embed_evidence"] == 0
    assert after == before


def test_a_lost_segment_opens_with_what_the_shard_still_has(
    stored: tuple[Path, list[str], Hits], embedder: Embedder
) -> None:
    """A segment deleted by hand: Qdrant Edge replays its write-ahead log into a new segment
    without payload indexes; the open used to fail on them ("No appropriate index for
    faceting"), it now recreates them and opens."""
    directory, _, before = stored
    for segment in (directory / "vectors" / "evidence" / "segments").iterdir():
        shutil.rmtree(segment)
    left, after = _healed(directory, embedder)
    assert left["embed_evidence"] == 0
    assert after == before


def test_an_intact_store_opens_without_a_warning_or_a_mark(
    stored: tuple[Path, list[str], Hits], embedder: Embedder, caplog: pytest.LogCaptureFixture
) -> None:
    directory, _, before = stored
    backlog, traced, hits, warnings = _reopen_damaged(directory, embedder, caplog)
    assert warnings == [] and traced == 0 and backlog["embed_evidence"] == backlog["embed_belief"] == 0
    assert hits == before


@pytest.mark.parametrize(
    "damaged",
    [
        "vector_storage/vectors/chunk_0.mmap",  # the open went through; every search failed
        "payload_storage/page_0.dat",  # likewise, on the hits' payload
        "vector_storage/vectors/status.dat",  # the load panicked (pyo3 PanicException)
        "segment.json",  # the load refused: the memory did not open
    ],
)
def test_a_corrupt_shard_is_moved_aside_and_rebuilt_from_the_turns(
    stored: tuple[Path, list[str], Hits], embedder: Embedder, caplog: pytest.LogCaptureFixture, damaged: str
) -> None:
    """A truncated segment file of one shard: the shard is moved to ``evidence.corrupt-<time>``
    (kept, named in a warning), created empty, and its items are embedded again."""
    directory, ids, before = stored
    (target,) = (directory / "vectors" / "evidence" / "segments").glob(f"*/{damaged}")
    with target.open("r+b") as f:
        f.truncate(0)
    backlog, traced, hits, warnings = _reopen_damaged(directory, embedder, caplog)
    (moved,) = (directory / "vectors").glob("evidence.corrupt-*")
    assert (moved / "segments").is_dir()  # set aside whole, not deleted
    assert backlog["embed_evidence"] == traced == len(ids) and backlog["embed_belief"] == 0
    assert all(kind == "belief" for found in hits for kind, _ in found)  # the belief shard still answers
    assert len(warnings) == 2 and str(moved) in warnings[0] and f"evidence: 0 points of {len(ids)}" in warnings[1]
    left, after = _healed(directory, embedder)
    assert left["embed_evidence"] == 0
    assert after == before
    assert list((directory / "vectors").glob("evidence.corrupt-*")) == [moved]  # the next open finds it whole
