"""The temporal route: turns in or near the asked window; dated turns for "when" questions."""

from __future__ import annotations

from typing import Final

from eywa.models import SignalKind
from eywa.read.overlap import rank_by_overlap
from eywa.read.routes.base import Query, RouteHit
from eywa.stores.bundle import Stores

__all__ = ["TemporalRoute"]


class TemporalRoute:
    """Turns in or near the asked window; for "when" questions, turns carrying dates."""

    name: Final = "temporal"

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


def _rank_turns(stores: Stores, query: Query, ids: list[str]) -> list[RouteHit]:
    turns = stores.evidence.get(query.space, ids)
    ranked = rank_by_overlap(query.text, [("evidence", t.id, f"{t.speaker or ''} {t.text}", 1.0) for t in turns])
    ranked_ids = {i for _, i, _ in ranked}
    rest = [("evidence", t.id, 0.01) for t in turns if t.id not in ranked_ids]
    return [RouteHit("evidence", i, score) for _, i, score in (ranked + rest)[: query.limit]]
