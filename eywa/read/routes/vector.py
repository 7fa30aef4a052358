"""The vector route: cosine similarity over embedded turns and beliefs."""

from __future__ import annotations

from typing import Final

from eywa.read.routes.base import Query, RouteHit
from eywa.stores.vectors import VectorKind, VectorStore

__all__ = ["VectorRoute"]


class VectorRoute:
    """Cosine similarity over embedded items of the given kinds, merged by score."""

    name: Final = "vector"

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
