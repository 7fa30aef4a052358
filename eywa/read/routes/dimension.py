"""The dimension route: fact lines of the named entities' dimensions (Nous)."""

from __future__ import annotations

from typing import Final

from eywa.nous import ledger as nous
from eywa.read.overlap import rank_by_overlap
from eywa.read.routes.base import Query, RouteHit
from eywa.stores.bundle import Stores

__all__ = ["DimensionRoute", "dimension_id"]


class DimensionRoute:
    """Dimension fact lines ("Caroline — relationship_status: single (0.93)") for named
    entities; list questions get the whole set of a multi-valued dimension."""

    name: Final = "dimension"

    def __init__(self, stores: Stores) -> None:
        self._stores = stores

    def run(self, query: Query) -> list[RouteHit]:
        candidates = []
        # Ranking needs only which attributes and values exist: read the materialised state
        # (no decay, no replay); decay matters only for ``as_of`` reads.
        for subject in query.plan.entities:
            for dim in nous.list_dimensions(self._stores.dimensions, query.space, subject, query.as_of):
                line = f"{dim.attribute.replace('_', ' ')} {' '.join(dim.distribution)}"
                candidates.append(("dimension", dimension_id(subject, dim.attribute), line, 1.0))
        ranked = rank_by_overlap(query.text, candidates)
        return [RouteHit("dimension", i, score) for _, i, score in ranked[: query.limit]]


def dimension_id(entity: str, attribute: str) -> str:
    """The item id of a dimension fact line."""
    return f"dim:{entity}:{attribute}"
