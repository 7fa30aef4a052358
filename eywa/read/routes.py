"""Retrieval routes. Each returns ranked hits with its own scores; fusion combines them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

import numpy as np
import numpy.typing as npt

from eywa.read.plan import Plan
from eywa.stores.evidence import KeywordIndex
from eywa.stores.vectors import VectorKind, VectorStore


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
        return [
            RouteHit(kind, item_id, score)
            for kind, item_id, score in self._index.search(query.space, query.text, query.limit, self._kinds)
        ]


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
