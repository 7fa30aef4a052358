""""Where does Sam live now?" when the change is said with "now" in the same conversation.

"I live in Madrid." and, a minute later, "I live in Leeds now." left the residence split between
the two (p 0.49 each): no change cue was detected in the second, and a change within minutes
is unlikely unless said to be one, so nothing was claimed. The same for "I work at Initech
now", "I'm a store manager now" and "I'm freelancing now". Through the public ``Memory`` with
the default rule extractor; a moment said of now ("I'm so tired now") changes nothing."""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Sam", "I live in Madrid."),
    ("Sam", "I live in Leeds now."),
    ("Ana", "I work at Globex."),
    ("Ana", "I work at Initech now!"),
    ("Raj", "I'm a barista."),
    ("Raj", "I'm a store manager now."),
    ("Mia", "I work at Globex."),
    ("Mia", "I'm freelancing now."),
    ("Eva", "I work at Globex."),
    ("Eva", "I'm so tired now."),
]
ASKED_AT = "2025-04-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "said-now", TURNS, "2025-01-10")


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Where does Sam live now?", "Sam — residence: Leeds"),
        ("Where does Ana work now?", "Ana — employer: Initech"),
        ("What is Raj's job now?", "Raj — occupation: store manager"),
        ("Where does Mia work now?", "Mia — employer: self-employed"),
        ("Where does Eva work now?", "Eva — employer: Globex"),
    ],
)
def test_a_state_said_of_now_is_the_answer(memory: Memory, space: str, question: str, said: str) -> None:
    assert claimed(memory, space, question, ASKED_AT).startswith(said)
