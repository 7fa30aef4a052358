"""An aggregate question's places go to turns that tell an occasion: a turn of a few content
words (a greeting, a thanks, an exclamation) sinks below every other candidate
(``adjust.sink_terse``), and only for an aggregate question."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eywa.models import EvidenceRef, ItemKind, RouteName, Stage
from eywa.read import adjust
from eywa.read.adjust import TERSE_TERMS, Scored
from eywa.read.items import Hydrated
from eywa.read.overlap import terms
from eywa.read.routes import Query, RouteHit
from tests.unit.reader_stubs import stub_reader

AT = datetime(2023, 5, 9, tzinfo=timezone.utc)


def _turn(i: str, text: str, speaker: str = "Priya") -> Hydrated:
    ref = EvidenceRef(id=i, session="s1", speaker=speaker, observed_at=AT)
    return Hydrated("evidence", i, text, (ref,), "s1", AT, speaker, (), subject=speaker)


def test_a_turn_of_few_content_words_sinks_and_a_telling_one_keeps_its_score() -> None:
    items = [
        Scored(_turn("bye", "Bye Priya, talk soon!"), 0.9),
        Scored(_turn("wow", "Wow, that's so cool!!"), 0.8),
        Scored(_turn("told", "I signed up for a rowing club down by the river yesterday."), 0.5),
    ]
    assert adjust.sink_terse(items, ["Priya"]) == ["bye", "wow"]
    assert {s.item.id: s.score for s in items} == {"bye": 0.0, "wow": 0.0, "told": 0.5}


def test_the_names_the_question_names_do_not_count_as_content() -> None:
    # Six content words with the names, four without ("and" is a function word).
    text = "Thanks Priya and Nadia, lovely evening together!"
    assert adjust.sink_terse([Scored(_turn("t", text), 1.0)], []) == []
    assert adjust.sink_terse([Scored(_turn("t", text), 1.0)], ["Priya", "Nadia"]) == ["t"]


def test_a_shared_photo_is_part_of_what_the_turn_says() -> None:
    shared = "Look at this! [shares a photo: a clay bowl with a blue glaze on a wooden table]"
    assert adjust.sink_terse([Scored(_turn("p", shared), 1.0)], ["Priya"]) == []
    assert adjust.sink_terse([Scored(_turn("p", "Look at this!"), 1.0)], ["Priya"]) == ["p"]


def test_a_claimed_answer_a_belief_and_a_dimension_are_never_lowered() -> None:
    ref = EvidenceRef(id="t0", session="s1", speaker="Priya", observed_at=AT)
    belief = Hydrated("belief", "b", "Priya bakes.", (ref,), "s1", AT, None, (), subject="Priya")
    dimension = Hydrated("dimension", "d", "Priya — hobbies: baking", (ref,), None, AT, None, (), subject="Priya")
    items = [Scored(_turn("a", "Baking!"), 1.0, answer=True), Scored(belief, 0.5), Scored(dimension, 0.4)]
    assert adjust.sink_terse(items, ["Priya"]) == []
    assert [s.score for s in items] == [1.0, 0.5, 0.4]


@given(st.lists(st.text("ab cdefgh!", max_size=40), min_size=1, max_size=10), st.integers(min_value=0, max_value=8))
def test_only_turns_of_at_most_the_given_content_words_are_lowered_and_to_zero(texts: list[str], most: int) -> None:
    items = [Scored(_turn(f"t{i}", text), 1.0 + i) for i, text in enumerate(texts)]
    lowered = set(adjust.sink_terse(items, ["Priya"], most))
    for s in items:
        assert (s.score == 0.0) == (s.item.id in lowered)
        assert (s.item.id in lowered) == (len(terms(s.item.text) - terms("Priya")) <= most)
    assert TERSE_TERMS == 5


class Ranked:
    """Ranks fixed turns, whatever the question: a farewell first."""

    name: RouteName = "keyword"

    def run(self, query: Query) -> list[RouteHit]:
        return [RouteHit("evidence", i, 1.0 / n) for n, i in enumerate(["bye", "class", "hike", "choir"], start=1)]


class Turns:
    kind: ItemKind = "evidence"
    TEXTS = {
        "bye": "Bye Priya, see you!",
        "class": "I joined a rowing club down by the river last week.",
        "hike": "We hiked the whole coastal trail with my brother on Sunday.",
        "choir": "I started singing in the church choir every Thursday evening.",
    }

    def hydrate(self, space: str, ids: Sequence[str], as_of: datetime | None = None) -> dict[str, Hydrated]:
        return {i: Hydrated("evidence", i, self.TEXTS[i], (), f"s{i}", AT, None, ()) for i in ids}


@pytest.mark.parametrize(
    ("question", "aggregate", "kept"),
    [
        ("What hobbies has Priya taken up?", True, ["class", "hike", "choir"]),
        ("What hobby did Priya take up in May 2023?", False, ["bye", "class", "hike"]),
    ],
)
def test_the_reader_sinks_terse_turns_for_an_aggregate_question_only(question: str, aggregate: bool, kept: list[str]) -> None:
    quiet: frozenset[Stage] = frozenset({"vector", "person", "boost", "specific", "demotion", "rescue", "addressed", "floor"})
    result = stub_reader([Ranked()], [Turns()], quiet).recall("s", question, k=3, budget_tokens=None, policy="balanced", as_of=None)
    assert result.trace["plan"]["aggregate"] is aggregate
    assert [item.id for item in result.items] == kept
    assert ("terse" in result.trace["changes"]) is aggregate
