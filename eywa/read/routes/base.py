"""What every retrieval route shares: the query it reads, the hit it returns, its protocol.

Each route returns ranked hits with its own scores; fusion combines them by rank.
"""

from __future__ import annotations

import functools
import threading
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol, cast, runtime_checkable

import numpy as np
import numpy.typing as npt

from eywa.errors import StoreError
from eywa.models import ItemKind, RouteName
from eywa.read.items import Hydrated
from eywa.read.plan import Plan
from eywa.stores.evidence import KeywordIndex
from eywa.stores.vectors import VectorBatchSearch, VectorKind, VectorStore

__all__ = [
    "KEYWORD_DEPTH",
    "KeywordHits",
    "Query",
    "Route",
    "RouteHit",
    "SearchesVectors",
    "VectorSearch",
    "keyword_search",
]

# The shared keyword search reaches this many candidates per route slot: the graph,
# temporal and inference routes filter it down.
KEYWORD_DEPTH = 4
# The shared search's hits: (kind, id, score), best first.
KeywordHits = list[tuple[str, str, float]]
# A vector search a route will make (``SearchesVectors``): which kind, how many hits.
VectorSearch = tuple[VectorKind, int]
# A search of a recall's batch (``Query.searches``): kind, the query vector itself, hits.
_Planned = tuple[VectorKind, npt.NDArray[np.float32], int]


def keyword_search(index: KeywordIndex, space: str, text: str, limit: int) -> KeywordHits:
    """The one keyword search a query's routes share (``Query.keyword_hits``): both kinds,
    ``limit * KEYWORD_DEPTH`` hits. The reader may start it before the plan is made (it
    needs only the question), so it is spelled out once here."""
    return index.search(space, text, limit * KEYWORD_DEPTH, ("evidence", "belief"))


@dataclass(frozen=True)
class RouteHit:
    """One ranked result of a route.

    ``claim``: the route holds this item to be the answer (a confident dimension for a
    current-state question); the reader ranks the first claimed item first. ``item``: the
    item already built by the route (as of the query's time, worded for its question), so
    it is neither read twice nor worded differently.
    """

    kind: ItemKind
    id: str
    score: float
    claim: bool = False
    item: Hydrated | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Query:
    """Everything a route may use: the question, its plan, its embedding, the time limit."""

    space: str
    text: str
    plan: Plan
    vector: npt.NDArray[np.float32]
    as_of: datetime | None
    limit: int
    memo: dict[str, list[tuple[str, str, float]]] = field(default_factory=dict, compare=False)
    _memo_lock: threading.Lock = field(default_factory=threading.Lock, compare=False, repr=False)
    searched: Future[KeywordHits] | None = field(default=None, compare=False)
    """The shared keyword search (``keyword_search``) already started by the reader, if it
    was: the routes wait for it instead of searching."""
    searches: tuple[_Planned, ...] = field(default=(), compare=False)
    """The vector searches the recall's embedding routes will make (``SearchesVectors``),
    each with the very array it searches with: ``vector_hits`` runs those of one kind as
    one batch when the store can (``VectorBatchSearch``)."""
    _found: dict[int, list[tuple[str, float]] | StoreError] = field(default_factory=dict, compare=False, repr=False)
    # Its own lock: a route waiting for the keyword hits does not wait behind a vector batch.
    _found_lock: threading.Lock = field(default_factory=threading.Lock, compare=False, repr=False)

    def keyword_hits(self, index: KeywordIndex, kind: ItemKind) -> list[tuple[ItemKind, str, float]]:
        """BM25 hits of one kind, searched once per query and shared by every route.

        Routes may run in threads: the first to ask searches (or waits for the search the
        reader started), the others wait for its hits. A failed search raises its
        ``StoreError`` in every route that asks.
        """
        with self._memo_lock:
            if "keyword" not in self.memo:
                if self.searched is not None:
                    self.memo["keyword"] = self.searched.result()
                else:
                    self.memo["keyword"] = keyword_search(index, self.space, self.text, self.limit)
        return [(kind, item_id, score) for found, item_id, score in self.memo["keyword"] if found == kind]

    def vector_hits(self, store: VectorStore, kind: VectorKind, limit: int) -> list[tuple[str, float]]:
        """``store.search`` of ``kind`` with this query's vector, ``limit`` hits, as of its time.

        When ``searches`` plans this search (the same kind and limit, with this very
        vector) beside another of the same kind and ``store`` searches batches, the first
        route to ask runs all of that kind's planned searches as one batch and the others
        take their hits from it: the same hits as searching alone, one pass over the
        shard (``QdrantEdgeVectorStore.search_batch``). A failed batch raises its
        ``StoreError`` in every route that asks, as their own searches would have.
        """
        not_after = self.as_of.timestamp() if self.as_of else None
        mine = next(
            (n for n, (k, v, lim) in enumerate(self.searches) if k == kind and v is self.vector and lim == limit),
            None,
        )
        batch = [n for n, planned in enumerate(self.searches) if planned[0] == kind]
        if mine is None or len(batch) < 2 or not _batches(type(store)):
            return store.search(kind, self.space, self.vector, limit, not_after)
        with self._found_lock:
            if mine not in self._found:
                try:
                    found = cast(VectorBatchSearch, store).search_batch(  # ``_batches``: it does
                        kind, self.space, [(self.searches[n][1], self.searches[n][2]) for n in batch], not_after
                    )
                    self._found.update(zip(batch, found, strict=True))
                except StoreError as exc:
                    self._found.update(dict.fromkeys(batch, exc))
        hits = self._found[mine]
        if isinstance(hits, StoreError):
            raise hits
        return hits


@functools.cache
def _batches(store: type) -> bool:
    """Whether a vector store of this class searches batches (``VectorBatchSearch``), asked
    once per class: an ``isinstance`` of a runtime-checkable protocol walks its members
    (~6 us, twice a recall)."""
    return issubclass(store, VectorBatchSearch)


@runtime_checkable
class SearchesVectors(Protocol):
    """A route that searches with the query embedding says which searches it will make,
    before it runs, so that the reader can plan them as one batch (``Query.searches``)."""

    def vector_searches(self, query: Query) -> list[VectorSearch]:
        """The searches ``run(query)`` will make through ``Query.vector_hits``."""
        ...


class Route(Protocol):
    """A retrieval route."""

    @property
    def name(self) -> RouteName:
        """The route's name, as used in weights and traces."""
        ...

    def run(self, query: Query) -> list[RouteHit]:
        """Ranked hits, best first."""
        ...
