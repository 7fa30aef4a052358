"""The graph route: entities named in the question, up to two hops over the co-mention
graph, then the turns and beliefs about them."""

from __future__ import annotations

import itertools
from typing import Final

import networkx as nx

from eywa.ids import entity_id
from eywa.read.routes.base import Query, RouteHit
from eywa.stores.bundle import Stores

__all__ = ["MAX_HOPS", "GraphRoute"]

MAX_HOPS = 2


class GraphRoute:
    """Named entities → up to two hops over the entity graph → their beliefs and turns."""

    name: Final = "graph"

    def __init__(self, stores: Stores) -> None:
        self._stores = stores
        self._graphs: dict[str, tuple[int, nx.Graph]] = {}

    def entity_graph(self, space: str) -> nx.Graph:
        """Co-mention graph of the space (rebuilt when the space has grown)."""
        size = self._stores.evidence.count(space)
        cached = self._graphs.get(space)
        if cached is not None and cached[0] == size:
            return cached[1]
        graph: nx.Graph = nx.Graph()
        ids = self._stores.evidence.ids(space)
        for entity_ids in self._stores.evidence.mentions(space, ids).values():
            for a, b in itertools.combinations(sorted(set(entity_ids)), 2):
                weight = graph.get_edge_data(a, b, {"weight": 0})["weight"]
                graph.add_edge(a, b, weight=weight + 1)
        self._graphs[space] = (size, graph)
        return graph

    def run(self, query: Query) -> list[RouteHit]:
        if not query.plan.entities:
            return []
        graph = self.entity_graph(query.space)
        hops: dict[str, int] = {}
        for name in query.plan.entities:
            start = entity_id(query.space, name)
            if start not in graph:
                hops.setdefault(start, 0)
                continue
            for node, distance in nx.single_source_shortest_path_length(graph, start, cutoff=MAX_HOPS).items():
                hops[node] = min(hops.get(node, MAX_HOPS), distance)
        # Candidates come from the keyword index (cheap, already relevant); the graph decides
        # which of them are about the named entities or their neighbours.
        candidates = query.keyword_hits(self._stores.keyword, "evidence") + query.keyword_hits(
            self._stores.keyword, "belief"
        )
        turn_ids = [i for kind, i, _ in candidates if kind == "evidence"]
        mentions = self._stores.evidence.mentions(query.space, turn_ids)
        turns = [
            RouteHit("evidence", i, score)
            for kind, i, score in candidates
            if kind == "evidence" and any(hops.get(e, MAX_HOPS + 1) <= 1 for e in mentions.get(i, ()))
        ]
        belief_ids = [i for kind, i, _ in candidates if kind == "belief"]
        scores = {i: score for kind, i, score in candidates if kind == "belief"}
        beliefs = []
        for belief in self._stores.beliefs.get_many(query.space, belief_ids):
            distance = hops.get(entity_id(query.space, belief.subject))
            if distance is not None and belief.status == "active":
                beliefs.append(RouteHit("belief", belief.id, scores[belief.id] / (1 + distance)))
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
