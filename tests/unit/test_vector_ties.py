"""Points that score the same come back in one order whatever order they were written in.

A belief stated alike from several turns has the same vector each time; both vector engines
returned such points in their own order, which follows the order of writing, so the same
memory built from batches of other sizes answered in another order. Both stores now order
ties by ``at``, then id, and cut after ordering (``vector_points.scored_ids``).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from qdrant_client import QdrantClient

import eywa.stores.embedded.vectors as vectors_module
from eywa.stores.embedded.vectors import QdrantEdgeVectorStore
from eywa.stores.vector_points import best_rows
from eywa.stores.qdrant import QdrantServerVectorStore
from eywa.stores.vectors import VectorPoint, VectorStore

DIM = 4
SAME = np.asarray([1.0, 0.0, 0.0, 0.0], dtype=np.float32)
NEAR = np.asarray([0.9, 0.1, 0.0, 0.0], dtype=np.float32)

# Ten points alike (the same statement from ten turns, at three times) and two others.
POINTS = [VectorPoint(f"bl_{n:02d}", "s", SAME, at=float(n % 3)) for n in range(10)] + [
    VectorPoint("bl_near", "s", NEAR, at=0.0), VectorPoint("bl_far", "s", np.asarray([0, 1, 0, 0], np.float32)),
]
EXPECTED = sorted((p for p in POINTS if p.id.startswith("bl_0")), key=lambda p: (p.at, p.id))


def _edge(directory: Path) -> VectorStore:
    return QdrantEdgeVectorStore(directory, DIM)


def _server(directory: Path) -> VectorStore:
    return QdrantServerVectorStore(QdrantClient(path=str(directory)), DIM)


@pytest.mark.parametrize("opened", [_edge, _server], ids=["edge", "qdrant"])
@settings(max_examples=5, deadline=None)
@given(order=st.permutations(range(len(POINTS))), batch=st.integers(1, 5), limit=st.integers(1, 12))
def test_tied_points_come_back_in_one_order_whatever_the_writing(
    opened: Callable[[Path], VectorStore], order: list[int], batch: int, limit: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    store = opened(tmp_path_factory.mktemp("vectors"))
    try:
        written = [POINTS[i] for i in order]
        for start in range(0, len(written), batch):
            store.upsert("belief", written[start : start + batch])
        found = store.search("belief", "s", SAME, limit)
    finally:
        store.close()
    ranked = [p.id for p in EXPECTED] + ["bl_near", "bl_far"]
    assert [doc_id for doc_id, _ in found] == ranked[:limit]


class _Hit:
    """A point-id-only search hit that counts how often its id is read (each read builds a
    ``uuid.UUID`` in the engine's binding)."""

    reads = 0

    def __init__(self, n: int, score: float) -> None:
        self.score = score
        self._id = uuid.UUID(int=n + 1)

    @property
    def id(self) -> uuid.UUID:
        _Hit.reads += 1
        return self._id


class _NoShard:
    """A shard from which every point is gone (``retrieve`` finds none)."""

    def retrieve(self, ids: list[str], with_payload: bool, with_vector: bool) -> list[object]:
        return []


def _hits(scores: list[float]) -> list[_Hit]:
    return [_Hit(n, score) for n, score in enumerate(scores)]


def _docs(hits: list[_Hit], gone: frozenset[int] = frozenset()) -> dict[int, tuple[str, float]]:
    return {hit._id.int: (f"ev_{n:02d}", float(-n)) for n, hit in enumerate(hits) if n not in gone}


def test_hits_past_the_cut_are_not_looked_up_unless_one_within_it_is_gone() -> None:
    """The embedded store reads the ids of only the hits that can make the cut (the first
    ``limit`` and those tied with the last of them), and answers what reading them all
    answers; a hit within the cut gone from the shard brings the next one in (fails before:
    every hit's id was read)."""
    scores = [0.9, 0.8, 0.7, 0.7, 0.7, 0.6, 0.5, 0.4]
    hits = _hits(scores)
    _Hit.reads = 0
    found = vectors_module._ranked(_NoShard(), hits, _docs(hits), 3)  # type: ignore[arg-type]
    assert _Hit.reads == 5  # 0.9, 0.8 and the three tied at 0.7
    assert found == [("ev_00", 0.9), ("ev_01", 0.8), ("ev_04", 0.7)]
    everything = best_rows([(f"ev_{n:02d}", s, float(-n)) for n, s in enumerate(scores)], 3)
    assert found == everything
    _Hit.reads = 0
    gone = vectors_module._ranked(_NoShard(), hits, _docs(hits, frozenset({1})), 5)  # type: ignore[arg-type]
    rest = [(f"ev_{n:02d}", s, float(-n)) for n, s in enumerate(scores) if n != 1]
    assert gone == best_rows(rest, 5) == [
        ("ev_00", 0.9), ("ev_04", 0.7), ("ev_03", 0.7), ("ev_02", 0.7), ("ev_05", 0.6),
    ]  # fmt: skip
    assert _Hit.reads == len(hits) + 2  # every hit's, the gone one's twice more (read back, not found)
