""""Who is Zoe's husband?" after "Chris is my husband."

The name said before who they are to the speaker, ending the clause ("Chris is my husband.",
"Omar is my boyfriend, he's a chef.", "Lena is my sister.", "Max is my son!") named no one: Level 0 did not take a
sentence's unknown first word for a person, and the rules read only "my husband is Chris" and
"Chris, my husband, …". Through the public ``Memory`` with the default rule extractor; "Here is
my boyfriend!" and "Sunday is my husband's day off." still name no partner."""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Zoe", "Chris is my husband."),
    ("Ana", "Omar is my boyfriend, he's a chef."),
    ("Kim", "Lena is my sister."),
    ("Raj", "Max is my son!"),
    ("Bo", "Here is my boyfriend!"),
    ("Mia", "Sunday is my husband's day off."),
]
ASKED_AT = "2025-04-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "named-by-is", TURNS, "2025-01-10")


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Who is Zoe's husband?", "Zoe — partner: Chris"),
        ("Who is Ana's boyfriend?", "Ana — partner: Omar"),
        ("Who is Kim's sister?", "Kim — siblings: Lena"),
        ("Does Raj have children?", "Raj — children: Max"),
    ],
)
def test_a_person_named_before_who_they_are_is_the_answer(memory: Memory, space: str, question: str, said: str) -> None:
    assert claimed(memory, space, question, ASKED_AT).startswith(said)


@pytest.mark.parametrize("question", ["Who is Bo's boyfriend?", "Who is Mia's husband?"])
def test_a_word_that_points_or_a_clause_that_goes_on_names_no_one(memory: Memory, space: str, question: str) -> None:
    assert claimed(memory, space, question, ASKED_AT) == ""
