"""The reader rescues the neighbours of its best turns at the share the question's shape
asks for (``adjust.rescue_share``): more for a question with one answer, which often sits in
the turn after the one whose words matched."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone

import pytest

from eywa.models import Entity, ItemKind, RouteName
from eywa.read import adjust
from eywa.read.items import Hydrated
from eywa.read.plan import question_shape
from eywa.read.reader import Reader
from eywa.read.routes import Query, RouteHit
from tests.unit.reader_stubs import stub_reader

AT = datetime(2023, 5, 9, tzinfo=timezone.utc)


class OneTurn:
    name: RouteName = "keyword"

    def run(self, query: Query) -> list[RouteHit]:
        return [RouteHit("evidence", "t0", 1.0)]


class Turns:
    kind: ItemKind = "evidence"

    def hydrate(self, space: str, ids: Sequence[str], as_of: datetime | None = None) -> dict[str, Hydrated]:
        return {i: Hydrated("evidence", i, f"turn {i}", (), "s1", AT, None, ()) for i in ids}


def reader() -> Reader:
    return stub_reader(
        [OneTurn()],
        [Turns()],
        frozenset({"vector", "person", "boost", "demotion", "sessions"}),
        lambda space, ids: {i: [Hydrated("evidence", f"{i}-next", f"after {i}", (), "s1", AT, None, ())] for i in ids},
    )


@pytest.mark.parametrize(
    ("question", "shape"),
    [("Where does the team meet on Fridays?", "fact"), ("What hobbies does the team share?", "list")],
)
def test_the_rescued_turn_enters_at_the_share_of_the_question_shape(question: str, shape: str) -> None:
    assert question_shape(question) == shape
    result = reader().recall("s", question, k=4, budget_tokens=None, policy="balanced", as_of=None)
    scores = {i.id: i.score for i in result.items}
    assert result.trace["changes"]["rescue"] == ["t0-next"]
    assert scores["t0-next"] == pytest.approx(scores["t0"] * adjust.rescue_share(question_shape(question)), rel=1e-4)
    assert adjust.rescue_share("fact") > adjust.rescue_share("list")


class SessionTurns:
    """Five turns of Ana's in session s1, then one in s2, best first."""

    name: RouteName = "keyword"

    def run(self, query: Query) -> list[RouteHit]:
        return [RouteHit("evidence", f"a{i}", 1.0) for i in range(5)] + [RouteHit("evidence", "b0", 1.0)]


class SpokenTurns:
    kind: ItemKind = "evidence"

    def hydrate(self, space: str, ids: Sequence[str], as_of: datetime | None = None) -> dict[str, Hydrated]:
        return {i: _spoken(i, "Ana", "s2" if i.startswith("b") else "s1") for i in ids}


def _spoken(i: str, speaker: str, session: str = "s1") -> Hydrated:
    return Hydrated("evidence", i, f"turn {i}", (), session, AT, speaker, (), subject=speaker)


def aggregate_reader() -> Reader:
    ana = Entity(id="ent_ana", space="s", name="Ana", kind="person")
    ben = Entity(id="ent_ben", space="s", name="Ben", kind="person")
    return stub_reader(
        [SessionTurns()],
        [SpokenTurns()],
        frozenset({"vector", "person", "boost", "demotion", "floor"}),
        lambda space, ids: {i: [_spoken(f"{i}-ben", "Ben"), _spoken(f"{i}-ana", "Ana")] for i in ids},
        [ana, ben],
    )


def test_an_aggregate_question_spreads_sessions_and_rescues_only_the_named_persons_turns() -> None:
    aggregate = aggregate_reader().recall("s", "What novels has Ana read?", k=6, budget_tokens=None, policy="balanced", as_of=None)
    assert aggregate.trace["plan"]["aggregate"] is True
    assert set(aggregate.trace["changes"]["rescue"]) == {"a0-ana", "a1-ana", "a2-ana"}
    assert aggregate.trace["changes"]["spread"] == ["a3", "a4"]
    assert "b0" in [i.id for i in aggregate.items]  # the other session's turn gets a place
    one = aggregate_reader().recall("s", "What novel did Ana read?", k=6, budget_tokens=None, policy="balanced", as_of=None)
    assert one.trace["plan"]["aggregate"] is False and "spread" not in one.trace["changes"]
    assert {"a0-ben", "a0-ana"} <= set(one.trace["changes"]["rescue"])
