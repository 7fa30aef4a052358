"""The graph route: entities named in the question, up to two hops over the co-mention
graph, then the turns and beliefs about them.

The graph is the store's (``EntityGraph``: co-mention weights kept by every Level 0 write),
walked by one store call per question; nothing is rebuilt or cached here. Candidates come
from the keyword index (cheap, already relevant to the question); the walk decides which of
them are about the named entities or their neighbours.
"""

from __future__ import annotations

from typing import Final

from eywa.ids import entity_id
from eywa.read.routes.base import Query, RouteHit
from eywa.stores.bundle import Stores
from eywa.stores.entity_graph import MAX_HOPS

__all__ = ["FANOUT", "MAX_HOPS", "TURN_HOPS", "GraphRoute"]

# Turns must mention a named entity or a direct neighbour of one; beliefs may be about any
# entity within ``MAX_HOPS``, their score divided by (1 + distance).
TURN_HOPS: Final = 1
# Each entity reached expands to its heaviest co-mention edges only, so a hub (a speaker
# co-mentioned with everything said to them) does not pull in the whole space.
FANOUT: Final = 50


class GraphRoute:
    """Named entities → up to two hops over the entity graph → their beliefs and turns."""

    name: Final = "graph"

    def __init__(self, stores: Stores) -> None:
        self._stores = stores

    def run(self, query: Query) -> list[RouteHit]:
        if not query.plan.people:
            return []
        candidates = query.keyword_hits(self._stores.keyword, "evidence") + query.keyword_hits(
            self._stores.keyword, "belief"
        )
        reach = self._stores.graph.neighbours(
            query.space,
            [entity_id(query.space, name) for name in query.plan.people],
            MAX_HOPS,
            FANOUT,
            evidence_ids=[i for kind, i, _ in candidates if kind == "evidence"],
            belief_ids=[i for kind, i, _ in candidates if kind == "belief"],
        )
        turns = [
            RouteHit("evidence", i, score)
            for kind, i, score in candidates
            if kind == "evidence" and reach.evidence.get(i, MAX_HOPS + 1) <= TURN_HOPS
        ]
        beliefs = [
            RouteHit("belief", i, score / (1 + reach.beliefs[i]))
            for kind, i, score in candidates
            if kind == "belief" and i in reach.beliefs
        ]
        beliefs.sort(key=lambda h: -h.score)
        return _interleave(turns, beliefs)[: query.limit]


def _interleave(first: list[RouteHit], second: list[RouteHit]) -> list[RouteHit]:
    """Alternate two rankings (their scores are not comparable), first one leading."""
    merged: list[RouteHit] = []
    for pair in zip(first, second):
        merged.extend(pair)
    longer = first if len(first) > len(second) else second
    merged.extend(longer[min(len(first), len(second)) :])
    return merged
