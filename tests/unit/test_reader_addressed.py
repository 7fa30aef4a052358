"""The reader lowers the turns that talk of their listener more than of their speaker
(``adjust.addressed_demotion``), after the rescue, except for "when" questions."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone

import pytest

from eywa.models import ItemKind, RouteName, Stage
from eywa.read import adjust
from eywa.read.items import Hydrated
from eywa.read.routes import Query, RouteHit
from tests.unit.reader_stubs import stub_reader

AT = datetime(2023, 5, 9, tzinfo=timezone.utc)
TEXTS = {
    "praise": "That's wonderful, you must be so proud of your garden!",  # ranked first by the route
    "told": "I planted tomatoes and basil this spring.",
}


# The stages that would move the two turns for other reasons are switched off.
ISOLATED: frozenset[Stage] = frozenset({"vector", "person", "boost", "demotion", "sessions", "rescue"})


class Keyword:
    name: RouteName = "keyword"

    def run(self, query: Query) -> list[RouteHit]:
        return [RouteHit("evidence", "praise", 2.0), RouteHit("evidence", "told", 1.0)]


class Turns:
    kind: ItemKind = "evidence"

    def hydrate(self, space: str, ids: Sequence[str], as_of: datetime | None = None) -> dict[str, Hydrated]:
        return {i: Hydrated("evidence", i, TEXTS[i], (), "s1", AT, None, ()) for i in ids}


def _recall(question: str, disabled: frozenset[Stage] = frozenset()) -> tuple[list[str], dict[str, list[str]]]:
    reader = stub_reader([Keyword()], [Turns()], ISOLATED | disabled)
    result = reader.recall("s", question, k=2, budget_tokens=None, policy="balanced", as_of=None)
    return [i.id for i in result.items], result.trace["changes"]


def test_a_turn_addressed_to_the_listener_sinks_below_one_that_tells() -> None:
    order, changes = _recall("What vegetables has the gardener grown?")
    assert order == ["told", "praise"]
    assert changes["addressed"] == ["praise"]
    assert 1 / 22 > adjust.ADDRESSED_FACTOR / 21  # the factor is what turns ranks 1 and 2 round


@pytest.mark.parametrize(
    ("question", "disabled"),
    [
        ("When did the gardener plant tomatoes?", frozenset()),
        ("What vegetables has the gardener grown?", frozenset({"addressed"})),
    ],
)
def test_when_questions_and_the_switched_off_stage_keep_the_fused_order(
    question: str, disabled: frozenset[Stage]
) -> None:
    order, changes = _recall(question, disabled)
    assert order == ["praise", "told"]
    assert "addressed" not in changes
