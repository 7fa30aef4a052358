"""The temporal route: turns in or near the asked window; dated turns for "when" questions;
the newest turns carrying an amount for "how much … now" questions.

A relative window ("in June", "last year", "the week before August 3") is resolved against
the asker's time first. When the memory holds nothing in that window, the asker means a time
of the conversation, not of the wall clock: the question is then resolved against each
candidate turn's own session date, and a candidate is offered when its date (the session's,
or a date it states) falls in the window so resolved. No weight is involved: a turn either
agrees with the question's time or does not."""

from __future__ import annotations

from datetime import date, datetime
from typing import Final

from eywa.models import Evidence, SignalKind
from eywa.read.overlap import rank_by_overlap, terms
from eywa.read.plan import time_window
from eywa.read.routes.base import Query, RouteHit
from eywa.stores.bundle import Stores

__all__ = ["TemporalRoute"]


_AMOUNTS = (SignalKind.MONEY, SignalKind.NUMBER, SignalKind.QUANTITY)
# In the asked window, a turn that states no date within it (said in it, or dated coarser
# than it) ranks at this share of its overlap with the question.
UNSTATED_SHARE = 0.5


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
            if not ids and query.plan.window_relative:
                return self._anchored_on_candidates(query)
            return _rank_turns(self._stores, query, ids)
        if query.plan.latest_amount:
            return self._latest_amounts(query)
        if query.plan.shape != "temporal":
            return []
        # "When did X…": the keyword candidates that carry a date are the answers (which of
        # them do is read alone, not their turns with every signal: ~1 ms of CPU at 10k).
        hits = query.keyword_hits(self._stores.keyword, "evidence")[: query.limit]
        dated = self._stores.evidence.dated(query.space, [h[1] for h in hits])
        return [RouteHit(kind, i, score) for kind, i, score in hits if i in dated][: query.limit]

    def _anchored_on_candidates(self, query: Query) -> list[RouteHit]:
        """The keyword candidates whose date agrees with the question resolved against
        their own session date, in keyword order."""
        hits = query.keyword_hits(self._stores.keyword, "evidence")[: query.limit]
        turns = {t.id: t for t in self._stores.evidence.get(query.space, [h[1] for h in hits])}
        windows: dict[date, tuple[datetime, datetime] | None] = {}
        found: list[RouteHit] = []
        for kind, item_id, score in hits:
            turn = turns.get(item_id)
            if turn is None or (query.as_of is not None and turn.observed_at > query.as_of):
                continue
            day = turn.observed_at.date()
            if day not in windows:
                windows[day] = time_window(query.text, turn.observed_at)
            window = windows[day]
            if window is not None and _agrees(turn, window):
                found.append(RouteHit(kind, item_id, score))
        return found[: query.limit]

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


def _agrees(turn: Evidence, window: tuple[datetime, datetime]) -> bool:
    """The turn was said in the window, or states a date that overlaps it."""
    start, end = window
    if start <= turn.observed_at < end:
        return True
    return any(
        s.window_start is not None and s.window_end is not None and s.window_start < end and s.window_end > start
        for s in turn.signals_of(SignalKind.DATE)
    )


def _rank_turns(stores: Stores, query: Query, ids: list[str]) -> list[RouteHit]:
    """The turns dated in the window, ordered by their words' overlap with the question,
    those that state a date within the window first ("I start nights next week", said in
    January, for "What did Matteo do in January?"), then those only said in it or whose
    date is coarser than it and overlaps it ("this year"): a turn that names a time in the
    window is about that time, one merely said then may be small talk."""
    assert query.plan.window is not None
    window = query.plan.window
    turns = stores.evidence.get(query.space, ids)
    stating = {t.id for t in turns if _states_date_within(t, window)}
    ranked = rank_by_overlap(
        query.text,
        [("evidence", t.id, f"{t.speaker or ''} {t.text}", 1.0 if t.id in stating else UNSTATED_SHARE) for t in turns],
    )
    ranked_ids = {i for _, i, _ in ranked}
    rest = [("evidence", t.id, 0.01) for t in sorted(turns, key=lambda t: t.id not in stating) if t.id not in ranked_ids]
    return [RouteHit("evidence", i, score) for _, i, score in (ranked + rest)[: query.limit]]


def _states_date_within(turn: Evidence, window: tuple[datetime, datetime]) -> bool:
    """The turn states a date that lies within the window."""
    start, end = window
    return any(
        s.window_start is not None and s.window_end is not None and start <= s.window_start and s.window_end <= end
        for s in turn.signals_of(SignalKind.DATE)
    )
