"""Points that score the same come back in one order whatever order they were written in.

A belief stated alike from several turns has the same vector each time; both vector engines
returned such points in their own order, which follows the order of writing, so the same
memory built from batches of other sizes answered in another order. Both stores now order
ties by ``at``, then id, and cut after ordering (``vector_points.scored_ids``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from qdrant_client import QdrantClient

from eywa.stores.embedded.vectors import QdrantEdgeVectorStore
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
