""""I worked at Initech until last year. Now I'm at Globex." answers where Priya works now.

A past tense with its end ("I worked at Initech until last year", "I lived in Leeds until
2023") made only a life event, so the job and the home it ended were never ended; and a "now"
put first ("Now I'm at Globex") was not read as "I'm at Globex now". Through the public
``Memory`` with the default rule extractor."""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Priya", "I work at Initech."),
    ("Bo", "I live in Leeds."),
    ("Priya", "Update: I worked at Initech until last year. Now I'm at Globex."),
    ("Bo", "Well, I lived in Leeds until 2023, and I love York now that we moved here."),
    ("Nadia", "I work at Hooli, I worked late at Hooli until midnight yesterday."),
]
ASKED_AT = "2024-07-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "held-until", TURNS, "2024-06-10")


@pytest.mark.parametrize(
    ("question", "answer", "ended"),
    [
        ("Where does Priya work now?", "Priya — employer: Globex", "Initech"),
        ("Does Bo still live in Leeds?", "Bo — residence:", "Leeds"),
    ],
)
def test_what_was_held_until_a_date_is_held_no_longer(
    memory: Memory, space: str, question: str, answer: str, ended: str
) -> None:
    said = claimed(memory, space, question, ASKED_AT)
    assert said.startswith(answer), said
    assert f"was {ended}" in said or f"not {ended}" in said


def test_until_an_hour_ends_no_job(memory: Memory, space: str) -> None:
    assert claimed(memory, space, "Where does Nadia work?", ASKED_AT).startswith("Nadia — employer: Hooli since")
