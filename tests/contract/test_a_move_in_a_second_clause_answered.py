""""I lived in Leeds, then moved to York." answers where Priya lives now.

A second clause with no subject of its own after "then" ("…, then moved to York", "Worked at
Initech for years, then joined Globex") or after "but" with a past verb ("I'm from Leeds but
moved to York in 2020") made no belief the question could claim, or one too weak to claim:
the turns alone answered. Through the public ``Memory`` with the default rule extractor; a
plan after "then" and someone else's move stay no home of the speaker's.
"""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Priya", "I live in Bristol."),
    ("Priya", "I lived in Bristol for years, then moved to York."),
    ("Bo", "I work at Initech."),
    ("Bo", "Worked at Initech for years, then joined Globex."),
    ("Nadia", "I'm from Leeds but moved to Hull in 2020."),
    ("Tom", "I lived in Leeds, then Paris is next."),
    ("Yara", "Omar lived in Leeds, then moved to Oslo."),
    ("Lena", "Originally from Cork, I moved to Leeds last year."),
]
ASKED_AT = "2024-07-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "then-moved", TURNS, "2024-06-10")


@pytest.mark.parametrize(
    ("question", "answer", "was"),
    [
        ("Where does Priya live now?", "Priya — residence: York since", "Bristol"),
        ("Where does Bo work now?", "Bo — employer: Globex since", "Initech"),
        ("Where does Nadia live?", "Nadia — residence: Hull since 1 Jan 2020", None),
        ("Where is Nadia from?", "Nadia — origin: Leeds", None),
        ("Where is Lena from?", "Lena — origin: Cork", None),
        ("Where does Lena live?", "Lena — residence: Leeds since 1 Jan 2023", None),
    ],
)
def test_the_second_clause_of_a_change_answers(
    memory: Memory, space: str, question: str, answer: str, was: str | None
) -> None:
    said = claimed(memory, space, question, ASKED_AT)
    assert said.startswith(answer), said
    if was is not None:
        assert f"was {was}" in said or f"not {was}" in said, said


@pytest.mark.parametrize("speaker", ["Tom", "Yara"])
def test_a_plan_or_someone_elses_move_is_no_home_of_the_speaker(memory: Memory, space: str, speaker: str) -> None:
    assert not [b for b in memory.beliefs(space) if b.subject == speaker and b.attribute == "residence"]
