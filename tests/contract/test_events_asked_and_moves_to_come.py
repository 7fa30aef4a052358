""""Is Priya pregnant?" is answered by the event she told; "Where is Nadia moving?" is not
answered by where she lives.

An event (``life_events``) answered no question: its membership says how sure the memory is
that it happened, not what holds now, so "Is Priya pregnant?" after "I'm pregnant" found only
the turn. A yes/no question that names the event asks exactly that. And "Where is Nadia
moving?" read "moving" as her residence and claimed the city she is leaving. Through the
public ``Memory`` with the default rule extractor."""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Priya", "I'm pregnant with our second child!"),
    ("Bo", "Congratulations, that's wonderful news."),
    ("Nadia", "I live in Leeds, near the university."),
    ("Nadia", "We're moving to Denver in the autumn for Tom's new job."),
]
ASKED_AT = "2024-07-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "events", TURNS, "2024-06-10")


def test_a_yes_no_question_naming_an_event_is_answered_by_it(memory: Memory, space: str) -> None:
    said = claimed(memory, space, "Is Priya pregnant?", ASKED_AT)
    assert said.startswith("Priya — life_events: pregnant"), said


@pytest.mark.parametrize(
    "question",
    [
        "Is Bo pregnant?",  # not his event
        "Was Priya pregnant last year?",  # asks of a time: the date answers, not the membership
        "What happened to Priya?",  # asks for an event, not whether one happened
    ],
)
def test_an_event_answers_nothing_else(memory: Memory, space: str, question: str) -> None:
    assert claimed(memory, space, question, ASKED_AT) == ""


@pytest.mark.parametrize(
    "question", ["Where is Nadia moving?", "Where is Nadia moving to?", "Where will Nadia live?", "Where does Nadia plan to move?"]
)
def test_a_move_to_come_is_not_answered_by_the_home_being_left(memory: Memory, space: str, question: str) -> None:
    assert "Leeds" not in claimed(memory, space, question, ASKED_AT)
    found = memory.recall(space, question, k=3, as_of=ASKED_AT)
    assert "Denver" in found.items[0].text


@pytest.mark.parametrize("question", ["Where does Nadia live?", "Where is Nadia living now?", "Where is Nadia based?"])
def test_where_one_lives_is_still_asked_of_the_home(memory: Memory, space: str, question: str) -> None:
    assert claimed(memory, space, question, ASKED_AT).startswith("Nadia — residence: Leeds")
