"""Retrieval routes. Each returns ranked hits with its own scores; fusion combines them."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

import numpy as np
import numpy.typing as npt

from eywa.read.plan import Plan
from eywa.stores.evidence import KeywordIndex
from eywa.stores.vectors import VectorKind, VectorStore


# The shared keyword search reaches this many candidates per route slot: the graph,
# temporal and inference routes filter it down.
KEYWORD_DEPTH = 4


@dataclass(frozen=True)
class RouteHit:
    """One ranked result of a route."""

    kind: str
    id: str
    score: float


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

    def keyword_hits(self, index: KeywordIndex, kind: str) -> list[tuple[str, str, float]]:
        """BM25 hits of one kind, searched once per query and shared by every route."""
        if "keyword" not in self.memo:
            self.memo["keyword"] = index.search(self.space, self.text, self.limit * KEYWORD_DEPTH, ("evidence", "belief"))
        return [hit for hit in self.memo["keyword"] if hit[0] == kind]


class Route(Protocol):
    """A retrieval route."""

    @property
    def name(self) -> str:
        """The route's name, as used in weights and traces."""
        ...

    def run(self, query: Query) -> list[RouteHit]:
        """Ranked hits, best first."""
        ...


class KeywordRoute:
    """BM25 over evidence text (and belief statements where the index has them)."""

    name = "keyword"

    def __init__(self, index: KeywordIndex, kinds: tuple[str, ...] = ("evidence",)) -> None:
        self._index = index
        self._kinds = kinds

    def run(self, query: Query) -> list[RouteHit]:
        hits = [hit for kind in self._kinds for hit in query.keyword_hits(self._index, kind)]
        hits.sort(key=lambda hit: -hit[2])
        return [RouteHit(kind, item_id, score) for kind, item_id, score in hits[: query.limit]]


class VectorRoute:
    """Cosine similarity over embedded items of the given kinds, merged by score."""

    name = "vector"

    def __init__(self, store: VectorStore, kinds: tuple[VectorKind, ...] = ("evidence",)) -> None:
        self._store = store
        self._kinds = kinds

    def run(self, query: Query) -> list[RouteHit]:
        not_after = query.as_of.timestamp() if query.as_of else None
        hits = [
            RouteHit(kind, item_id, score)
            for kind in self._kinds
            for item_id, score in self._store.search(kind, query.space, query.vector, query.limit, not_after)
        ]
        hits.sort(key=lambda h: -h.score)
        return hits[: query.limit]
