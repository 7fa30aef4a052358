"""The keyword route: BM25 over turns (with their speaker and neighbours) and beliefs."""

from __future__ import annotations

from typing import Final

from eywa.models import ItemKind
from eywa.read.routes.base import Query, RouteHit
from eywa.stores.evidence import KeywordIndex

__all__ = ["KeywordRoute"]


class KeywordRoute:
    """BM25 over evidence text (and belief statements where the index has them)."""

    name: Final = "keyword"

    def __init__(self, index: KeywordIndex, kinds: tuple[ItemKind, ...] = ("evidence",)) -> None:
        self._index = index
        self._kinds = kinds

    def run(self, query: Query) -> list[RouteHit]:
        hits = [hit for kind in self._kinds for hit in query.keyword_hits(self._index, kind)]
        hits.sort(key=lambda hit: -hit[2])
        return [RouteHit(kind, item_id, score) for kind, item_id, score in hits[: query.limit]]
