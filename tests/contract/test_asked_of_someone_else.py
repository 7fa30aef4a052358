""""What does Priya's husband do?" and "Who does Priya work with?" ask about someone else:
Priya's own lines must not answer them.

"What does Ana do?" was read as an idiom of her work that took the whole question, so "What
does Priya's husband do?", with no husband the memory knows by name, claimed her own employer
(or "married"); and "work" made "Who does Priya work with?" a question for her employer, which
"who" may ask for ("Who does Priya work for?"). Through the public ``Memory`` with the default
rule extractor."""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Priya", "I work at Globex, and I'm married."),
    ("Bo", "I'm a nurse. My wife Lena is a dentist."),
]
ASKED_AT = "2024-07-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "someone-else", TURNS, "2024-06-10")


@pytest.mark.parametrize(
    "question",
    [
        "What does Priya's husband do?",
        "What does Priya's husband do for a living?",
        "What does Priya's mom do?",
        "Who does Priya work with?",
        "Who is Priya working with these days?",
    ],
)
def test_a_question_about_someone_else_is_not_answered_by_her_own_line(
    memory: Memory, space: str, question: str
) -> None:
    assert claimed(memory, space, question, ASKED_AT) == ""


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What does Priya do?", "Priya — employer: Globex"),
        ("Who does Priya work for?", "Priya — employer: Globex"),
        ("What does Bo do?", "Bo — occupation: nurse"),
        ("What does Bo's wife do?", "Lena — occupation: dentist"),  # a relation known by name
    ],
)
def test_her_own_work_and_a_named_relations_are_still_answered(
    memory: Memory, space: str, question: str, answer: str
) -> None:
    assert claimed(memory, space, question, ASKED_AT).startswith(answer)
