"""The vector route: cosine similarity over embedded turns and beliefs."""

from __future__ import annotations

from typing import Final

from eywa.read.routes.base import Query, RouteHit, VectorSearch
from eywa.stores.vectors import VectorKind, VectorStore

__all__ = ["VectorRoute"]


class VectorRoute:
    """Cosine similarity over embedded items of the given kinds, merged by score."""

    name: Final = "vector"

    def __init__(self, store: VectorStore, kinds: tuple[VectorKind, ...] = ("evidence",)) -> None:
        self._store = store
        self._kinds = kinds

    def vector_searches(self, query: Query) -> list[VectorSearch]:
        return [(kind, query.limit) for kind in self._kinds]

    def run(self, query: Query) -> list[RouteHit]:
        hits = [
            RouteHit(kind, item_id, score)
            for kind in self._kinds
            for item_id, score in query.vector_hits(self._store, kind, query.limit)
        ]
        hits.sort(key=lambda h: -h.score)
        return hits[: query.limit]
