"""The temporal route: turns in or near the asked window; dated turns for "when" questions;
the newest turns carrying an amount for "how much … now" questions."""

from __future__ import annotations

from typing import Final

from eywa.models import Evidence, SignalKind
from eywa.read.overlap import rank_by_overlap, terms
from eywa.read.routes.base import Query, RouteHit
from eywa.stores.bundle import Stores

__all__ = ["TemporalRoute"]


_AMOUNTS = (SignalKind.MONEY, SignalKind.NUMBER, SignalKind.QUANTITY)


class TemporalRoute:
    """Turns in or near the asked window; for "when" questions, turns carrying dates; for a
    present-tense "how much" question, turns carrying an amount, newest first (an amount
    said later replaces one said before: "the rent went up again, it's £1,240 now")."""

    name: Final = "temporal"

    def __init__(self, stores: Stores) -> None:
        self._stores = stores

    def run(self, query: Query) -> list[RouteHit]:
        if query.plan.window is not None:
            start, end = query.plan.window
            ids = self._stores.evidence.with_dates_between(query.space, start, end, query.limit * 4)
            return _rank_turns(self._stores, query, ids)
        if query.plan.latest_amount:
            return self._latest_amounts(query)
        if query.plan.shape != "temporal":
            return []
        # "When did X…": the keyword candidates that carry a resolved date are the answers.
        hits = query.keyword_hits(self._stores.keyword, "evidence")[: query.limit]
        turns = self._stores.evidence.get(query.space, [h[1] for h in hits])
        dated = {t.id for t in turns if t.signals_of(SignalKind.DATE)}
        return [RouteHit(kind, i, score) for kind, i, score in hits if i in dated][: query.limit]

    def _latest_amounts(self, query: Query) -> list[RouteHit]:
        """Per speaker, the last turn (said by ``as_of``) that states an amount of what the
        question asks about (its topic words, ``Plan.other_words``), newest first. An earlier
        amount the same person gave for the same thing is not offered: the later one
        replaced it."""
        topic = terms(" ".join(query.plan.other_words))
        hits = query.keyword_hits(self._stores.keyword, "evidence")[: query.limit]
        turns = [
            t for t in self._stores.evidence.get(query.space, [h[1] for h in hits])
            if t.signals_of(*_AMOUNTS) and topic & terms(t.text)
            and (query.as_of is None or t.observed_at <= query.as_of)
        ]  # fmt: skip
        latest: dict[str, Evidence] = {}
        for turn in sorted(turns, key=lambda t: (t.observed_at, t.id)):
            latest[turn.speaker or ""] = turn
        newest = sorted(latest.values(), key=lambda t: (t.observed_at, t.id), reverse=True)
        return [RouteHit("evidence", t.id, 1.0 / rank) for rank, t in enumerate(newest, start=1)]


def _rank_turns(stores: Stores, query: Query, ids: list[str]) -> list[RouteHit]:
    turns = stores.evidence.get(query.space, ids)
    ranked = rank_by_overlap(query.text, [("evidence", t.id, f"{t.speaker or ''} {t.text}", 1.0) for t in turns])
    ranked_ids = {i for _, i, _ in ranked}
    rest = [("evidence", t.id, 0.01) for t in turns if t.id not in ranked_ids]
    return [RouteHit("evidence", i, score) for _, i, score in (ranked + rest)[: query.limit]]
