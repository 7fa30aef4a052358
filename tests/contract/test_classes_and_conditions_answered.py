""""What are Priya's hobbies?" after "I started taking piano lessons.", and "What health
conditions does Kim have?" after "I have type 1 diabetes."

A pastime's lessons or class taken the everyday way ("I started taking piano lessons", "I'm
doing a pottery class on Tuesdays") was no hobby, "I'm lactose intolerant" no condition, and a
condition with a number in its name ("type 1 diabetes", "diagnosed with type 2 diabetes") was
not read at all. Through the public ``Memory`` with the default rule extractor; one evening's
class ("I'm going to a pottery class tonight") and a denial ("I'm not lactose intolerant")
claim nothing. "What health issues does Nadia have?" claimed nothing either ("issues" read as a
topic the health dimension could not answer), where "health conditions" did."""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Priya", "I started taking piano lessons."),
    ("Bo", "I'm doing a pottery class on Tuesdays."),
    ("Nadia", "I'm lactose intolerant."),
    ("Kim", "I have type 1 diabetes."),
    ("Lena", "I was diagnosed with type 2 diabetes last year."),
    ("Omar", "I'm going to a pottery class tonight."),
    ("Tom", "I'm not lactose intolerant."),
]
ASKED_AT = "2025-04-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "classes-conditions", TURNS, "2025-01-10")


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("What are Priya's hobbies?", "Priya — hobbies: piano"),
        ("What hobbies does Bo have?", "Bo — hobbies: pottery"),
        ("What health conditions does Nadia have?", "Nadia — health: lactose intolerance"),
        ("What health conditions does Kim have?", "Kim — health: type 1 diabetes"),
        ("What health conditions does Lena have?", "Lena — health: type 2 diabetes"),
        # asked as people ask it: "issues" or "problems" is no topic the health cannot answer
        ("What health issues does Nadia have?", "Nadia — health: lactose intolerance"),
        ("What medical problems does Kim have?", "Kim — health: type 1 diabetes"),
    ],
)
def test_a_class_taken_or_a_condition_is_the_answer(memory: Memory, space: str, question: str, said: str) -> None:
    assert claimed(memory, space, question, ASKED_AT).startswith(said)


@pytest.mark.parametrize("question", ["What are Omar's hobbies?", "What health conditions does Tom have?"])
def test_one_evenings_class_or_a_denial_claims_nothing(memory: Memory, space: str, question: str) -> None:
    assert claimed(memory, space, question, ASKED_AT) == ""
