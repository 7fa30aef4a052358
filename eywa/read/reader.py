"""The read path's orchestration: plan → routes → fusion → adjustments → packing.

No LLM is called here. Every stage is timed and traced.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt

from eywa.errors import InvalidInputError
from eywa.models import Entity, RecallItem, RecallResult
from eywa.read.fusion import ItemKey, weighted_rrf
from eywa.read.items import Hydrated, ItemSource
from eywa.read.packing import pack
from eywa.read.plan import Plan, make_plan
from eywa.read.policies import answer_instructions
from eywa.read.routes import Query, Route

# Items spoken by, or mentioning, a person the question names get this multiplier.
NAMED_ENTITY_BOOST = 1.3
# Each route retrieves this many candidates per requested item.
CANDIDATES_PER_ITEM = 5


class Reader:
    """Runs recall for one Memory. Dependencies are passed in; nothing is global."""

    def __init__(
        self,
        routes: Sequence[Route],
        sources: Sequence[ItemSource],
        embed_query: Callable[[str], npt.NDArray[np.float32]],
        entities: Callable[[str], list[Entity]],
        rrf_k: int,
        max_k: int,
    ) -> None:
        self._routes = list(routes)
        self._sources = {s.kind: s for s in sources}
        self._embed_query = embed_query
        self._entities = entities
        self._rrf_k = rrf_k
        self._max_k = max_k

    def recall(
        self,
        space: str,
        question: str,
        *,
        k: int,
        budget_tokens: int | None,
        policy: str,
        as_of: datetime | None,
    ) -> RecallResult:
        """See ``Memory.recall``."""
        self._check(question, k, budget_tokens)
        instructions = answer_instructions(policy)
        timings: dict[str, float] = {}
        clock = time.perf_counter()

        entities = self._entities(space)
        plan = make_plan(question, entities)
        timings["plan"] = _ms(clock)

        clock = time.perf_counter()
        vector = self._embed_query(question)
        timings["embed"] = _ms(clock)

        query = Query(space, question, plan, vector, as_of, max(k * CANDIDATES_PER_ITEM, 30))
        rankings: dict[str, list[ItemKey]] = {}
        route_trace: dict[str, list[dict[str, Any]]] = {}
        for route in self._routes:
            if plan.weights.get(route.name, 0.0) <= 0.0:
                continue
            clock = time.perf_counter()
            hits = route.run(query)
            timings[f"route.{route.name}"] = _ms(clock)
            rankings[route.name] = [(h.kind, h.id) for h in hits]
            route_trace[route.name] = [{"kind": h.kind, "id": h.id, "score": round(h.score, 5)} for h in hits]

        clock = time.perf_counter()
        fused = weighted_rrf(rankings, plan.weights, self._rrf_k)
        ranks = _route_ranks(rankings)
        hydrated = self._hydrate(space, [key for key, _ in fused])
        timings["fuse"] = _ms(clock)

        clock = time.perf_counter()
        named_ids = {e.id for e in entities if e.name in plan.entities}
        scored = []
        for key, score in fused:
            item = hydrated.get(key)
            if item is None or (as_of is not None and item.observed_at and item.observed_at > as_of):
                continue
            if named_ids and named_ids.intersection(item.about):
                score *= NAMED_ENTITY_BOOST
            scored.append((item, score))
        scored.sort(key=lambda pair: -pair[1])
        items = [_to_item(h, s, ranks.get((h.kind, h.id), {})) for h, s in scored[:k]]
        kept, context, tokens = pack(items, budget_tokens)
        timings["pack"] = _ms(clock)
        timings["total"] = round(sum(timings.values()), 3)

        trace: dict[str, Any] = {
            "plan": plan.as_trace(),
            "routes": route_trace,
            "fused": [{"kind": key[0], "id": key[1], "score": round(s, 6)} for key, s in fused[: k * 3]],
            "tokens": tokens,
            "timings_ms": timings,
        }
        return RecallResult(
            query=question,
            items=tuple(kept),
            context=context,
            answer_instructions=instructions,
            trace=trace,
            tokens=tokens,
        )

    def _hydrate(self, space: str, keys: Sequence[ItemKey]) -> dict[ItemKey, Hydrated]:
        by_kind: dict[str, list[str]] = {}
        for kind, item_id in keys:
            by_kind.setdefault(kind, []).append(item_id)
        found: dict[ItemKey, Hydrated] = {}
        for kind, ids in by_kind.items():
            source = self._sources.get(kind)
            if source is None:
                continue
            for item_id, item in source.hydrate(space, ids).items():
                found[(kind, item_id)] = item
        return found

    def _check(self, question: str, k: int, budget_tokens: int | None) -> None:
        if not isinstance(question, str) or not question.strip():
            raise InvalidInputError("query must be a non-empty string")
        if not isinstance(k, int) or not 1 <= k <= self._max_k:
            raise InvalidInputError(f"k must be an integer between 1 and {self._max_k}")
        if budget_tokens is not None and (not isinstance(budget_tokens, int) or budget_tokens < 1):
            raise InvalidInputError("budget_tokens must be a positive integer")


def _route_ranks(rankings: Mapping[str, Sequence[ItemKey]]) -> dict[ItemKey, dict[str, int]]:
    ranks: dict[ItemKey, dict[str, int]] = {}
    for route, ranked in rankings.items():
        for rank, key in enumerate(ranked, start=1):
            ranks.setdefault(key, {}).setdefault(route, rank)
    return ranks


def _to_item(h: Hydrated, score: float, routes: dict[str, int]) -> RecallItem:
    return RecallItem(
        kind=h.kind,  # type: ignore[arg-type]
        id=h.id,
        text=h.text,
        score=round(score, 6),
        routes=routes,
        provenance=h.provenance,
        session=h.session,
        observed_at=h.observed_at,
    )


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000.0, 3)


__all__ = ["Plan", "Reader"]
