"""The structural routes: temporal, graph, inference support and dimension fact lines."""

from __future__ import annotations

import itertools

import networkx as nx

from eywa.models import SignalKind
from eywa.nous import service as nous
from eywa.read.overlap import rank_by_overlap
from eywa.read.routes import Query, RouteHit
from eywa.stores.bundle import Stores
from eywa.write import entity_id

# Attributes that say what someone is like or wants: the evidence for "would X…" questions.
TRAIT_ATTRIBUTES = frozenset(
    {"likes", "dislikes", "hobbies", "plans", "occupation", "pets", "values", "traits", "goals"}
)
MAX_HOPS = 2


class TemporalRoute:
    """Turns in or near the asked window; for "when" questions, turns carrying dates."""

    name = "temporal"

    def __init__(self, stores: Stores) -> None:
        self._stores = stores

    def run(self, query: Query) -> list[RouteHit]:
        if query.plan.window is not None:
            start, end = query.plan.window
            ids = self._stores.evidence.with_dates_between(query.space, start, end, query.limit * 4)
            return _rank_turns(self._stores, query, ids)
        if query.plan.shape != "temporal":
            return []
        # "When did X…": the keyword candidates that carry a resolved date are the answers.
        hits = query.keyword_hits(self._stores.keyword, "evidence")[: query.limit]
        turns = self._stores.evidence.get(query.space, [h[1] for h in hits])
        dated = {t.id for t in turns if t.signals_of(SignalKind.DATE)}
        return [RouteHit(kind, i, score) for kind, i, score in hits if i in dated][: query.limit]


class GraphRoute:
    """Named entities → up to two hops over the entity graph → their beliefs and turns."""

    name = "graph"

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


class InferenceRoute:
    """Trait, preference and plan beliefs of the named people, for "would X…" questions."""

    name = "inference"

    def __init__(self, stores: Stores) -> None:
        self._stores = stores

    def run(self, query: Query) -> list[RouteHit]:
        named = {n.casefold() for n in query.plan.entities}
        if not named:
            return []
        hits = query.keyword_hits(self._stores.keyword, "belief")
        scores = {i: score for _, i, score in hits}
        found = self._stores.beliefs.get_many(query.space, list(scores))
        traits = [
            RouteHit("belief", b.id, scores[b.id])
            for b in found
            if b.status == "active" and b.subject.casefold() in named and b.attribute in TRAIT_ATTRIBUTES
        ]
        traits.sort(key=lambda h: -h.score)
        return traits[: query.limit]


class DimensionRoute:
    """Dimension fact lines ("Caroline — relationship_status: single (0.93)") for named
    entities; list questions get the whole set of a multi-valued dimension."""

    name = "dimension"

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
        return [RouteHit(kind, i, score) for kind, i, score in ranked[: query.limit]]


def dimension_id(entity: str, attribute: str) -> str:
    """The item id of a dimension fact line."""
    return f"dim:{entity}:{attribute}"


def _interleave(first: list[RouteHit], second: list[RouteHit]) -> list[RouteHit]:
    """Alternate two rankings (their scores are not comparable), first one leading."""
    merged: list[RouteHit] = []
    for pair in zip(first, second):
        merged.extend(pair)
    longer = first if len(first) > len(second) else second
    merged.extend(longer[min(len(first), len(second)) :])
    return merged


def _rank_turns(stores: Stores, query: Query, ids: list[str]) -> list[RouteHit]:
    turns = stores.evidence.get(query.space, ids)
    ranked = rank_by_overlap(query.text, [("evidence", t.id, f"{t.speaker or ''} {t.text}", 1.0) for t in turns])
    ranked_ids = {i for _, i, _ in ranked}
    rest = [("evidence", t.id, 0.01) for t in turns if t.id not in ranked_ids]
    return [RouteHit(kind, i, score) for kind, i, score in (ranked + rest)[: query.limit]]
