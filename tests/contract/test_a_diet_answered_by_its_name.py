""""What diet does Priya follow?" after "I'm vegan." answered "not meat, not fish, not animal
products" and never said "vegan": the registry reads a vegan as one who eats none of those,
and the answer showed what the diet leaves out, not its name. A diet the registry has one word
for is now named before its values; a single food left out ("I don't eat meat.") has no other
word and reads as before. Through the public ``Memory`` with the default rule extractor."""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Priya", "I've been vegan for three years."),
    ("Bo", "I'm vegetarian."),
    ("Nadia", "I'm pescatarian these days."),
    ("Tom", "I don't eat meat."),
]
ASKED_AT = "2025-04-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "diet-named", TURNS, "2025-01-10")


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("What diet does Priya follow?", "Priya — diet: vegan: not "),
        ("What diet does Bo follow?", "Bo — diet: vegetarian: not "),
        ("What is Nadia's diet?", "Nadia — diet: pescatarian: fish"),
        ("What diet does Tom follow?", "Tom — diet: not meat (p "),
    ],
)
def test_a_diet_is_answered_by_its_name(memory: Memory, space: str, question: str, said: str) -> None:
    assert claimed(memory, space, question, ASKED_AT).startswith(said)
