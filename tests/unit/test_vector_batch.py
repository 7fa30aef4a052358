"""A recall's evidence searches with its two question embeddings run as one batch where the
store can (``VectorBatchSearch``), answering exactly what the searches alone answer."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from eywa.errors import InvalidInputError, StoreError
from eywa.models import Entity, ItemKind
from eywa.read.items import Hydrated
from eywa.read.reader import Reader
from eywa.read.routes import Query
from eywa.read.routes.person import PERSON_DEPTH, PersonRoute
from eywa.read.routes.vector import VectorRoute
from eywa.stores.embedded.vectors import QdrantEdgeVectorStore
from eywa.stores.vectors import VectorKind, VectorPoint, VectorQuery

DIM = 8
AT = datetime(2023, 5, 9, tzinfo=timezone.utc)


def points(n: int, space: str, seed: int) -> list[VectorPoint]:
    rng = np.random.default_rng(seed)
    return [
        VectorPoint(f"ev_{space}_{i}", space, rng.standard_normal(DIM).astype(np.float32), at=float(i % 7))
        for i in range(n)
    ]


class CountingShard:
    """A shard that counts its ``query`` and ``query_batch`` calls and passes them on."""

    def __init__(self, shard: Any) -> None:
        self.shard = shard
        self.calls: list[str] = []

    def query(self, request: Any) -> Any:
        self.calls.append("query")
        return self.shard.query(request)

    def query_batch(self, request: Any) -> Any:
        self.calls.append("query_batch")
        return self.shard.query_batch(request)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.shard, name)


@pytest.mark.parametrize("shared", [False, True], ids=["sole-space", "shared"])
def test_a_batch_answers_what_each_search_answers_in_one_engine_call(tmp_path: Path, shared: bool) -> None:
    store = QdrantEdgeVectorStore(tmp_path / "vectors", DIM)
    try:
        store.upsert("evidence", points(120, "alice", 1))
        # Ties: points with the same vector are ordered by ``at``, then doc id, in both.
        store.upsert("evidence", [VectorPoint(f"ev_tie{i}", "alice", np.ones(DIM, np.float32), at=float(5 - i)) for i in range(5)])
        if shared:
            store.upsert("evidence", points(80, "bob", 2))
        queries: list[VectorQuery] = [(p.vector, limit) for p, limit in zip(points(4, "q", 3), (5, 30, 0, 12), strict=True)]
        queries.append((np.ones(DIM, np.float32), 3))
        for not_after in (None, 3.0):
            alone = [store.search("evidence", "alice", vector, limit, not_after) for vector, limit in queries]
            counting = CountingShard(store._shards["evidence"])  # noqa: SLF001 - count the engine's calls
            store._shards["evidence"] = counting  # type: ignore[assignment]  # noqa: SLF001
            try:
                batched = store.search_batch("evidence", "alice", queries, not_after)
            finally:
                store._shards["evidence"] = counting.shard  # noqa: SLF001
            assert batched == alone
            assert counting.calls == ["query_batch"]
            assert all(doc.startswith(("ev_alice", "ev_tie")) for hits in batched for doc, _ in hits)
        assert store.search_batch("evidence", "alice", []) == []
        with pytest.raises(InvalidInputError):
            store.search_batch("evidence", "alice", [(np.ones(DIM, np.float32), 3), (np.ones(DIM + 1, np.float32), 3)])
    finally:
        store.close()


class Vectors:
    """A vector store whose every vector is ``scores`` away from the query: each search
    and batch is recorded; with ``batches`` False it has no ``search_batch`` at all."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, VectorKind, tuple[int, ...]]] = []
        self.fail = False

    def search(
        self, kind: VectorKind, space: str, vector: npt.NDArray[np.float32], limit: int, not_after: float | None = None
    ) -> list[tuple[str, float]]:
        self.calls.append(("search", kind, (limit,)))
        return self._hits(kind, vector, limit)

    def _hits(self, kind: VectorKind, vector: npt.NDArray[np.float32], limit: int) -> list[tuple[str, float]]:
        if self.fail:
            raise StoreError("qdrant-edge", "search", "down")
        prefix = "ev" if kind == "evidence" else "bf"
        return [(f"{prefix}_{int(vector[0])}_{i}", 1.0 - i / 1000) for i in range(limit)]


class BatchingVectors(Vectors):
    def search_batch(
        self, kind: VectorKind, space: str, queries: Sequence[VectorQuery], not_after: float | None = None
    ) -> list[list[tuple[str, float]]]:
        self.calls.append(("batch", kind, tuple(limit for _, limit in queries)))
        return [self._hits(kind, vector, limit) for vector, limit in queries]


class Speakers:
    """Every even-numbered turn is Ana's, every odd one Ben's."""

    def speakers(self, space: str, ids: Sequence[str]) -> dict[str, str | None]:
        return {i: "Ana" if int(i.rsplit("_", 1)[1]) % 2 == 0 else "Ben" for i in ids}


class Stores:
    def __init__(self, vectors: Vectors) -> None:
        self.vectors = vectors
        self.evidence = Speakers()


class Turns:
    kind: ItemKind = "evidence"

    def hydrate(self, space: str, ids: Sequence[str], as_of: datetime | None = None) -> dict[str, Hydrated]:
        return {i: Hydrated("evidence", i, f"turn {i}", (), "s1", AT, None, ()) for i in ids}


class Beliefs(Turns):
    kind: ItemKind = "belief"


def recall(vectors: Any, question: str, named: bool = True) -> Any:
    def embed(texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return np.array([[float(len(t))] * 4 for t in texts], np.float32)  # a row tells its text

    ana = Entity(id="ent_ana", space="s", name="Ana", kind="person")
    no_neighbours: Any = lambda space, ids: {}  # noqa: E731
    stores: Any = Stores(vectors)
    reader = Reader(
        routes=[VectorRoute(vectors, ("evidence", "belief")), PersonRoute(stores)],
        sources=[Turns(), Beliefs()],
        embed_queries=embed,
        entities_named=lambda space, names: [ana] if named else [],
        neighbours=no_neighbours,
        rrf_k=20,
        max_k=50,
    )
    try:
        return reader.recall("s", question, k=10, budget_tokens=None, policy="balanced", as_of=None)
    finally:
        reader.close()


def test_the_vector_and_person_routes_search_the_turns_in_one_batch_with_the_same_hits() -> None:
    question = "What did Ana paint last summer?"
    batching, alone = BatchingVectors(), Vectors()
    batched, searched = recall(batching, question), recall(alone, question)

    limit = 50  # MIN_CANDIDATES for k=10
    assert sorted(batching.calls) == [("batch", "evidence", (limit, limit * PERSON_DEPTH)), ("search", "belief", (limit,))]
    assert sorted(alone.calls) == [("search", "belief", (limit,)), ("search", "evidence", (limit,)), ("search", "evidence", (limit * PERSON_DEPTH,))]
    assert batched.trace["routes"] == searched.trace["routes"]
    assert batched.trace["routes"]["person"]  # the person route answered, from the batch
    assert [i.id for i in batched.items] == [i.id for i in searched.items]


def test_a_question_naming_no_one_searches_each_kind_once_without_a_batch() -> None:
    batching = BatchingVectors()
    recall(batching, "What did we paint last summer?", named=False)
    assert sorted(batching.calls) == [("search", "belief", (50,)), ("search", "evidence", (50,))]


def test_a_failed_batch_skips_both_routes_that_searched_in_it() -> None:
    batching = BatchingVectors()
    batching.fail = True
    with pytest.raises(StoreError):  # no other route: the failure is the answer
        recall(batching, "What did Ana paint last summer?")


def test_a_search_the_query_did_not_plan_is_made_alone() -> None:
    vectors: Any = BatchingVectors()  # only what the routes call of a ``VectorStore``
    vector = np.ones(4, np.float32)
    plan: Any = None
    query = Query("s", "q", plan, vector, None, 5, searches=(("evidence", vector, 5), ("evidence", np.zeros(4, np.float32), 9)))
    assert query.vector_hits(vectors, "evidence", 7) == vectors.search("evidence", "s", vector, 7)
    assert [c[0] for c in vectors.calls] == ["search", "search"]
    assert query.vector_hits(vectors, "evidence", 5) == vectors.search("evidence", "s", vector, 5)
    assert vectors.calls[2] == ("batch", "evidence", (5, 9))
    assert query.vector_hits(vectors, "evidence", 5) == vectors.search("evidence", "s", vector, 5)
    assert [c[0] for c in vectors.calls].count("batch") == 1  # its hits are kept for the recall
