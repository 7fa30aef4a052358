""""What language is Priya learning?" after "I'm learning Korean on Duolingo." claimed nothing,
or the wrong thing: the extractor keeps a language being learned as education (until one is
said to speak it), while the question was read as one about the languages spoken, with
"learning" a topic they could not answer; for Bo, who speaks French and is learning Spanish,
it answered French. A language asked as being learned is now asked of the education. Through
the public ``Memory`` with the default rule extractor; "Which language does Bo want to learn?"
(a wish) claims nothing."""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Priya", "I'm learning Korean on Duolingo."),
    ("Bo", "I speak French."),
    ("Bo", "I've been learning Spanish."),
]
ASKED_AT = "2025-04-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "language-learned", TURNS, "2025-01-10")


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("What language is Priya learning?", "Priya — education: Korean"),
        ("What language is Bo learning?", "Bo — education: Spanish"),
        ("What languages does Bo speak?", "Bo — languages: French"),
    ],
)
def test_a_language_being_learned_is_the_answer(memory: Memory, space: str, question: str, said: str) -> None:
    assert claimed(memory, space, question, ASKED_AT).startswith(said)


def test_a_language_wished_for_claims_nothing(memory: Memory, space: str) -> None:
    assert claimed(memory, space, "Which language does Bo want to learn?", ASKED_AT) == ""
