""""Where does Priya live?", "Is Bo still engaged?", "What does Nadia do?" after changes and
states said the everyday way.

"I'm in York these days", "The wedding's off" (once Bo's partner is known), "I got promoted to
captain", "I run my own bakery", "Not anymore, I quit." (to "Still at Globex?"), "I eat meat
now" (after "I'm vegan"), "We have three kids: Sami, Yara and Leila", "My mom … lives in
Tucson" and "The cat passed" (a cat held by no name) made nothing the question could claim, or
a claim split between the old and the new: the turns alone answered. Through the public
``Memory`` with the default rule extractor; the speaker never takes their mother's home."""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Priya", "I'm in York these days."),
    ("Bo", "Tom and I got engaged in March!"),
    ("Bo", "The wedding's off."),
    ("Nadia", "I'm a firefighter."),
    ("Nadia", "I got promoted to captain!"),
    ("Tom", "I run my own bakery."),
    ("Omar", "I work at Globex as an analyst."),
    ("Bo", "Still at Globex?"),
    ("Omar", "Not anymore, I quit."),
    ("Lena", "I'm vegan."),
    ("Lena", "I eat meat now."),
    ("Yusuf", "We have three kids: Sami, Yara and Leila."),
    ("Yusuf", "My mom is a retired teacher and lives in Tucson."),
    ("Sara", "I have a cat."),
    ("Sara", "The cat passed last week."),
]
ASKED_AT = "2025-04-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "everyday", TURNS, "2025-01-10")


def _claimed(memory: Memory, space: str, question: str) -> str:
    return claimed(memory, space, question, ASKED_AT)


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Where does Priya live?", "Priya — residence: York"),
        ("Is Bo engaged?", "not engaged"),
        ("What does Nadia do?", "Nadia — occupation: captain"),
        ("Where does Tom work?", "Tom — employer: self-employed"),
        ("Where does Omar work?", "not Globex"),
        ("Does Lena eat meat?", "Lena — diet: meat"),
        ("What are Yusuf's kids' names?", "Leila"),
        ("Where does Yusuf's mom live?", "residence: Tucson"),
        ("Does Sara have a cat?", "Sara — pets: not cat"),
    ],
)
def test_everyday_changes_and_states_answer(memory: Memory, space: str, question: str, said: str) -> None:
    assert said in _claimed(memory, space, question)


def test_the_speaker_does_not_take_their_mothers_home(memory: Memory, space: str) -> None:
    assert not [b for b in memory.beliefs(space) if b.subject == "Yusuf" and b.attribute == "residence"]
