"""Plans and events. A plan is never asserted (planned or hedged modality); an event is a
past action of the speaker, dated by its own part, by "just", or bounded by the turn.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from tests.unit.rules_support import Fact, facts, proposals, statements


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm planning to adopt a cat.", {("plans", "adopt a cat", "positive", "planned")}),
        ("I might move to Paris.", {("plans", "move to Paris", "positive", "hedged")}),
        ("I'm thinking about getting a dog.", {("plans", "getting a dog", "positive", "hedged")}),
        ("We're going on a road trip next month!", {("plans", "go on a road trip next month", "positive", "planned")}),
        (
            "I want to visit my parents next month.",
            {("plans", "visit Cecilia's parents next month", "positive", "planned")},
        ),
        ("I'm not planning to move.", set()),
        ("I might give it a go someday.", set()),  # "it" is not resolved
        ("I want to help their kids.", set()),
        ("I'll call you tomorrow.", set()),
        # A decision that stands.
        ("I've decided to go back to school.", {("plans", "go back to school", "positive", "planned")}),
        ("I decided to bake a cake.", set()),  # often a story of what was done
    ],
)
def test_plan_forms(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="plans") == expected


def test_a_plan_never_becomes_a_state() -> None:
    for text in ("I might move to Berlin next year if the studio offers me a contract.",
                 "I'm thinking about moving to Lisbury in the summer, but I haven't decided."):
        assert not [f for f in proposals(text) if f.modality == "asserted"]


@pytest.mark.parametrize(
    ("text", "statement", "valid_from"),
    [
        (
            "I went to a beekeeping workshop last Sunday, it was great.",
            "Cecilia went to a beekeeping workshop on 7 May 2023.",
            datetime(2023, 5, 7, tzinfo=timezone.utc),
        ),
        (
            "Last week I won my third regatta!",
            "Cecilia won Cecilia's third regatta in the week of 1 May 2023.",
            datetime(2023, 5, 1, tzinfo=timezone.utc),
        ),
        ("I just finished another quilt!", "Cecilia finished another quilt shortly before 9 May 2023.", None),
        ("I won a chess tournament.", "Cecilia won a chess tournament before 9 May 2023.", None),
        (
            "We went fishing with the kids last weekend.",
            "Cecilia and others went fishing with the kids on the weekend of 6 May 2023.",
            datetime(2023, 5, 6, tzinfo=timezone.utc),
        ),
        (
            "Melinda and I went to a craft fair yesterday.",
            "Cecilia and Melinda went to a craft fair on 8 May 2023.",
            datetime(2023, 5, 8, tzinfo=timezone.utc),
        ),
        ("Took a quick trip to Oslo last week.", "Cecilia took a quick trip to Oslo in the week of 1 May 2023.",
         datetime(2023, 5, 1, tzinfo=timezone.utc)),
        # A season Level 0 does not place is said, not read as a thing done ("… a spring").
        ("I ran a marathon this spring.", "Cecilia ran a marathon this spring before 9 May 2023.", None),
    ],
)
def test_events_are_dated_by_their_own_part(text: str, statement: str, valid_from: datetime | None) -> None:
    events = [f for f in proposals(text) if f.attribute == "events"]
    assert [(f.statement, f.valid_from) for f in events] == [(statement, valid_from)]


def test_a_season_is_no_part_of_the_event_value() -> None:
    assert {f.value for f in proposals("I moved to Lisbon last summer.") if f.attribute == "events"} == {
        "moved to Lisbon"
    }


def test_a_date_in_another_clause_does_not_date_the_event() -> None:
    assert statements("Ran a half marathon, my phone broke last Fri.") == {"Cecilia ran a half marathon before 9 May 2023."}


@pytest.mark.parametrize(
    "text",
    [
        "I thought about you yesterday.",  # a state of mind
        "I told her about it last week.",  # speech, and "her"/"it"
        "I filmed it at the lake last month.",  # "it" is not resolved
        "I didn't go to the party last week.",  # negated
        "I might have gone to the party last week.",  # hedged
        "I had a great time yesterday.",  # says nothing that happened
        "When I was a kid I went to camp every summer.",  # a past habit
        "Practise daily and try out different scales!",  # an imperative, not an elided "I"
    ],
)
def test_what_is_not_an_event(text: str) -> None:
    assert not [f for f in proposals(text) if f.attribute == "events"]
