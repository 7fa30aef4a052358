""""What is Priya's husband's name?" is answered by a name, or by nothing.

A question for a name was claimed by whatever line its words pointed at: "married" for the
husband's name when none was said, "two kids" for the kids' names. Only a line that gives
names answers it now; a named partner or named kids still do. Through the public ``Memory``
with the default rule extractor."""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Priya", "I'm married, and we have two kids."),
    ("Bo", "My wife Lena and I have two kids, Mia and Leo."),
    ("Nadia", "I have a dog named Rex."),
]
ASKED_AT = "2024-07-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "names", TURNS, "2024-06-10")


@pytest.mark.parametrize(
    "question",
    ["What is Priya's husband's name?", "What are Priya's kids' names?", "What are Priya's kids called?"],
)
def test_a_line_without_names_answers_no_question_for_one(memory: Memory, space: str, question: str) -> None:
    assert claimed(memory, space, question, ASKED_AT) == ""


@pytest.mark.parametrize(
    ("question", "answer", "names"),
    [
        ("What is Bo's wife's name?", "Bo — partner: Lena", ()),
        ("What are the names of Bo's kids?", "Bo — children:", ("Mia", "Leo")),
        ("What is Nadia's dog called?", "Nadia — pets: Rex", ()),
        ("Is Priya married?", "Priya — relationship_status: married", ()),  # no name asked
        ("How many kids does Priya have?", "Priya — children: two kids", ()),
    ],
)
def test_a_line_that_gives_names_still_answers(
    memory: Memory, space: str, question: str, answer: str, names: tuple[str, ...]
) -> None:
    said = claimed(memory, space, question, ASKED_AT)
    assert said.startswith(answer), said
    assert all(name in said for name in names)
