""""What is Priya studying?" after "I'm in my second year of law school", and "Where does Bo
live?" after "We just moved in together in Leeds".

Studies said by the school's kind ("I'm in law school", "I'm still in med school") gave no
education at all, and a move said with "together" ("we moved in together in Leeds") was an
event only: neither question was answered. Through the public ``Memory`` with the default rule
extractor; a visit ("I was in law school for the open day") claims no studies, and a plan to
move in together claims no home."""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Priya", "I'm in my second year of law school."),
    ("Nadia", "I'm still in med school, two more years to go."),
    ("Bo", "We just moved in together in Leeds!"),
    ("Kim", "Tom and I moved in together to Bristol last spring."),
    ("Omar", "I was in law school for the open day."),
    ("Lena", "We're moving in together in Leeds next year."),
]
ASKED_AT = "2025-04-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "studies-moves", TURNS, "2025-01-10")


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("What is Priya studying?", "Priya — education: law school"),
        ("What is Nadia studying?", "Nadia — education: med school"),
        ("Where does Bo live?", "Bo — residence: Leeds"),
        ("Where does Kim live?", "Kim — residence: Bristol"),
    ],
)
def test_studies_by_the_schools_kind_and_a_move_in_together_are_the_answer(
    memory: Memory, space: str, question: str, said: str
) -> None:
    assert claimed(memory, space, question, ASKED_AT).startswith(said)


@pytest.mark.parametrize("question", ["What is Omar studying?", "Where does Lena live?"])
def test_a_visit_or_a_plan_claims_nothing(memory: Memory, space: str, question: str) -> None:
    assert claimed(memory, space, question, ASKED_AT) == ""
