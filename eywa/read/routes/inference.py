"""The inference route: trait, preference and plan beliefs for "would X…" questions."""

from __future__ import annotations

from typing import Final

from eywa.ids import entity_key
from eywa.read.routes.base import Query, RouteHit
from eywa.stores.bundle import Stores

__all__ = ["TRAIT_ATTRIBUTES", "InferenceRoute"]

# Attributes that say what someone is like or wants: the evidence for "would X…" questions.
TRAIT_ATTRIBUTES = frozenset(
    {"likes", "dislikes", "hobbies", "plans", "occupation", "pets", "values", "traits", "goals"}
)


class InferenceRoute:
    """Trait, preference and plan beliefs of the named people, for "would X…" questions."""

    name: Final = "inference"

    def __init__(self, stores: Stores) -> None:
        self._stores = stores

    def run(self, query: Query) -> list[RouteHit]:
        named = {entity_key(n) for n in query.plan.entities}
        if not named:
            return []
        hits = query.keyword_hits(self._stores.keyword, "belief")
        scores = {i: score for _, i, score in hits}
        # Only the active trait beliefs among the hits, and only what says whose they are:
        # the whole beliefs (support spans, reports) were a tenth of a recall's bytes.
        found = self._stores.beliefs.belief_lines(query.space, list(scores), sorted(TRAIT_ATTRIBUTES))
        traits = [RouteHit("belief", b.id, scores[b.id]) for b in found if entity_key(b.subject) in named]
        traits.sort(key=lambda h: -h.score)
        return traits[: query.limit]
