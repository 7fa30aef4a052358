"""The events route: both ends of an interval question, each retrieved on its own.

"How many weeks passed between Ana adopting Rex and Fido?" needs two turns said weeks
apart; searched as one text, the turns about the better-worded event fill the candidates and
the other event is lost. The planner splits such a question into its two event phrases
(``Plan.events``); this route searches the keyword index for each (with the named people's
names, which the phrase may have left in the other half) and interleaves the two rankings,
so that each event's best turns stand side by side.
"""

from __future__ import annotations

from itertools import zip_longest
from typing import Final

from eywa.read.routes.base import Query, RouteHit
from eywa.stores.evidence import KeywordIndex

__all__ = ["EventsRoute"]


class EventsRoute:
    """Keyword hits of each event phrase of an interval question, interleaved."""

    name: Final = "events"

    def __init__(self, index: KeywordIndex) -> None:
        self._index = index

    def run(self, query: Query) -> list[RouteHit]:
        events = query.plan.events
        if not events:
            return []
        names = " ".join(n for n in query.plan.entities if n.casefold() not in " ".join(events).casefold())
        per_event = max(1, query.limit // len(events))
        rankings = [
            self._index.search(query.space, f"{names} {event}".strip(), per_event, ("evidence",)) for event in events
        ]
        hits: list[RouteHit] = []
        seen: set[str] = set()
        for rank, row in enumerate(zip_longest(*rankings), start=1):
            for hit in row:
                if hit is not None and hit[1] not in seen:
                    seen.add(hit[1])
                    hits.append(RouteHit("evidence", hit[1], 1.0 / rank))
        return hits[: query.limit]
