""""What languages does Nadia speak?" is answered by the languages she said she speaks.

Languages were no attribute: "I speak Arabic, English and a bit of French" made no belief,
and the question found only the turn. Through the public ``Memory`` with the default rule
extractor: the claimed line lists each language, one said not spoken is "not", and a
language being learned is no language spoken."""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Nadia", "I speak Arabic, English and a bit of French."),
    ("Bo", "My native language is Tagalog, and I'm fluent in Spanish too."),
    ("Bo", "I don't speak German at all."),
    ("Priya", "I'm learning Japanese this year."),
]
ASKED_AT = "2024-07-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "languages", TURNS, "2024-03-01")


def _claimed(memory: Memory, space: str, question: str) -> str:
    return claimed(memory, space, question, ASKED_AT)


@pytest.mark.parametrize(
    ("person", "question", "held", "not_held"),
    [
        ("Nadia", "What languages does Nadia speak?", ("Arabic", "English", "French"), ()),
        ("Nadia", "Does Nadia speak French?", ("French",), ()),
        ("Bo", "Which languages does Bo speak?", ("Tagalog", "Spanish"), ("German",)),
        ("Bo", "Does Bo speak German?", ("Tagalog", "Spanish"), ("German",)),
    ],
)
def test_the_languages_one_speaks_answer(memory: Memory, space: str, person: str, question: str,
                                         held: tuple[str, ...], not_held: tuple[str, ...]) -> None:
    said = _claimed(memory, space, question)
    assert said.startswith(f"{person} — languages:"), said
    for language in held:
        assert language in said
    for language in not_held:
        assert f"not {language}" in said


def test_a_language_being_learned_is_not_one_spoken(memory: Memory, space: str) -> None:
    assert "languages" not in _claimed(memory, space, "Does Priya speak Japanese?")
    assert not [b for b in memory.beliefs(space) if b.subject == "Priya" and b.attribute == "languages"]
