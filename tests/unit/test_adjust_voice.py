"""A one-answer question's session that the routes agree on is read in the asked person's own
words: a turn of that session just below the k best, which the person route ranks among its
best k, challenges the last places (``adjust.session_voice``), and only for a question with
one answer."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eywa.models import EvidenceRef, ItemKind, RouteName, Stage
from eywa.read import adjust
from eywa.read.adjust import SESSION_VOICE_BOOST, Scored
from eywa.read.items import Hydrated
from eywa.read.routes import Query, RouteHit
from tests.unit.reader_stubs import stub_reader

AT = datetime(2024, 3, 2, tzinfo=timezone.utc)


def _turn(i: str, session: str, speaker: str = "Priya", kind: ItemKind = "evidence") -> Hydrated:
    ref = EvidenceRef(id=i, session=session, speaker=speaker, observed_at=AT)
    return Hydrated(kind, i, f"turn {i}", (ref,), session, AT, speaker, (), subject=speaker)


def _scored(i: str, session: str, score: float, person: int | None = None) -> Scored:
    return Scored(_turn(i, session), score, {"keyword": 1} | ({"person": person} if person else {}))


def test_the_persons_turn_of_an_agreed_session_below_the_k_best_rises() -> None:
    items = [
        _scored("walk", "s4", 0.9),
        _scored("park", "s4", 0.8),
        _scored("lunch", "s2", 0.7),
        _scored("camera", "s4", 0.5, person=2),
    ]
    assert adjust.session_voice(items, k=3) == ["camera"]
    assert items[3].score == pytest.approx(0.5 * SESSION_VOICE_BOOST)
    assert [s.score for s in items[:3]] == [0.9, 0.8, 0.7]  # the k best are left as fused


def test_nothing_rises_without_two_of_the_k_best_in_its_session() -> None:
    items = [_scored("walk", "s4", 0.9), _scored("lunch", "s2", 0.8), _scored("film", "s7", 0.7)]
    items.append(_scored("camera", "s4", 0.5, person=1))
    assert adjust.session_voice(items, k=3) == []


def test_a_turn_the_person_route_ranks_below_k_or_not_at_all_stays() -> None:
    items = [_scored("walk", "s4", 0.9), _scored("park", "s4", 0.8), _scored("lunch", "s2", 0.7)]
    items += [_scored("far", "s4", 0.5, person=4), _scored("unseen", "s4", 0.4)]
    assert adjust.session_voice(items, k=3) == []
    assert [s.score for s in items[3:]] == [0.5, 0.4]


def test_a_claimed_answer_a_belief_and_a_dimension_are_never_raised() -> None:
    items = [_scored("walk", "s4", 0.9), _scored("park", "s4", 0.8), _scored("lunch", "s2", 0.7)]
    belief = Scored(_turn("b", "s4", kind="belief"), 0.5, {"person": 1})
    dimension = Scored(_turn("d", "s4", kind="dimension"), 0.4, {"person": 2})
    answer = Scored(_turn("a", "s4"), 0.3, {"person": 3}, answer=True)
    assert adjust.session_voice([*items, belief, dimension, answer], k=3) == []


@given(
    st.lists(
        st.tuples(st.sampled_from(["s1", "s2", "s3"]), st.floats(0.01, 1.0), st.one_of(st.none(), st.integers(1, 20))),
        min_size=1,
        max_size=25,
    ),
    st.integers(1, 10),
)
def test_only_turns_outside_the_k_best_rise_and_each_by_the_factor(
    rows: list[tuple[str, float, int | None]], k: int
) -> None:
    items = [_scored(f"t{n}", session, score, person) for n, (session, score, person) in enumerate(rows)]
    before = {s.item.id: s.score for s in items}
    best = {s.item.id for s in sorted(items, key=lambda s: -s.score)[:k]}
    raised = set(adjust.session_voice(items, k))
    assert not raised & best
    for s in items:
        expected = before[s.item.id] * SESSION_VOICE_BOOST if s.item.id in raised else before[s.item.id]
        assert s.score == pytest.approx(expected)
        if s.item.id in raised:
            assert s.routes["person"] <= k


class Ranked:
    """A route ranking fixed turns, whatever the question."""

    def __init__(self, name: RouteName, ranked: Sequence[str]) -> None:
        self.name = name
        self._ranked = ranked

    def run(self, query: Query) -> list[RouteHit]:
        return [RouteHit("evidence", i, 1.0 / n) for n, i in enumerate(self._ranked, start=1)]


class Turns:
    """Session 4 holds the photo walk, the park and the camera; session 2 a lunch, session 7
    a film."""

    kind: ItemKind = "evidence"
    SESSIONS = {"walk": "s4", "park": "s4", "lunch": "s2", "camera": "s4", "film": "s7"}

    def hydrate(self, space: str, ids: Sequence[str], as_of: datetime | None = None) -> dict[str, Hydrated]:
        return {i: _turn(i, self.SESSIONS[i]) for i in ids}


@pytest.mark.parametrize(
    ("question", "voiced", "kept"),
    [
        ("Which camera does Priya use?", True, ["walk", "park", "camera"]),
        ("What kinds of cameras does Priya like?", False, ["walk", "park", "lunch"]),
    ],
)
def test_the_reader_gives_a_one_answer_question_the_persons_turn_of_the_agreed_session(
    question: str, voiced: bool, kept: list[str]
) -> None:
    # The keyword route ranks the walk and the park of session 4 first, then the lunch and the
    # film; it does not find the camera, which the person route ranks third, after the walk
    # and the park. A list question ("kinds of") keeps its places for other sessions.
    routes = [Ranked("keyword", ["walk", "park", "lunch", "film"]), Ranked("person", ["walk", "park", "camera"])]
    quiet: frozenset[Stage] = frozenset({"vector", "boost", "specific", "demotion", "rescue", "addressed", "floor"})
    result = stub_reader(routes, [Turns()], quiet).recall("s", question, k=3, budget_tokens=None, policy="balanced", as_of=None)
    assert [item.id for item in result.items] == kept
    assert ("voice" in result.trace["changes"]) is voiced
