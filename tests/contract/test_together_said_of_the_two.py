""""Who is Kai's partner?" after "Tom and I are together on this project." or "Tom and I are
dating other people now."

"Together" and "dating" were read as a couple wherever the clause went on: the project
colleague became the partner, and so did the one the speaker had just said they no longer
date only. Through the public ``Memory`` with the default rule extractor: the two said to be
together where the clause ends or says how long are still the partners."""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Kai", "Tom and I are together on this project."),
    ("Zoe", "Tom and I are dating other people now."),
    ("Ines", "We're dating other people."),
    ("Priya", "Tom and I have been together for five years."),
    ("Bo", "Sam and I are a couple now!"),
]
ASKED_AT = "2025-04-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "together", TURNS, "2025-01-10")


@pytest.mark.parametrize("question", ["Who is Kai's partner?", "Who is Zoe's partner?", "Is Ines in a relationship?"])
def test_together_or_dating_said_of_something_else_claims_no_couple(memory: Memory, space: str, question: str) -> None:
    said = claimed(memory, space, question, ASKED_AT)
    assert "partner: Tom" not in said and "in a relationship" not in said


@pytest.mark.parametrize(
    ("question", "said"),
    [("Who is Priya's partner?", "Priya — partner: Tom"), ("Who is Bo's partner?", "Bo — partner: Sam")],
)
def test_two_said_to_be_together_are_partners(memory: Memory, space: str, question: str, said: str) -> None:
    assert claimed(memory, space, question, ASKED_AT).startswith(said)
