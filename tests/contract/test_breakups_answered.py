""""Is Priya single?", "Who is Sam's partner?", "What does Raj do?" after breakups and
relations said the everyday way.

"We've split." (a bare "split" said of the speaker), "Sam and his girlfriend Lily broke up"
(two other people) and "Kim's husband Raj is a dentist" (a person named after someone else's
relation to them) made nothing the question could claim, and "My wife and I are separating"
answered "Is Lena married?" with married: the turns alone answered. Through the
public ``Memory`` with the default rule extractor; "we split the bill" stays no breakup."""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Priya", "My boyfriend Tom and I have been together two years."),
    ("Priya", "We've split."),
    ("Sam", "My girlfriend Lily is a nurse."),
    ("Nadia", "Sam and his girlfriend Lily broke up last week."),
    ("Kim", "Hi, I'm Kim."),
    ("Nadia", "Kim's husband Raj is a dentist."),
    ("Bo", "My girlfriend Eva and I went out for dinner and we split the bill."),
    ("Yara", "My boyfriend Omar is a chef."),
    ("Yara", "Omar's my ex now."),
    ("Lena", "My wife and I are separating."),
]
ASKED_AT = "2025-04-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "breakups", TURNS, "2025-01-10")


def _claimed(memory: Memory, space: str, question: str) -> str:
    return claimed(memory, space, question, ASKED_AT)


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Is Priya single?", "Priya — relationship_status: single"),
        ("Is Sam single?", "Sam — relationship_status: single"),
        ("Who is Sam's partner?", "not Lily"),
        ("What does Raj do?", "Raj — occupation: dentist"),
        ("Who is Kim married to?", "Kim — partner: Raj"),
        ("Who is Yara's partner?", "not Omar"),
        ("Is Lena married?", "Lena — relationship_status: separated"),
    ],
)
def test_breakups_and_relations_said_the_everyday_way_answer(memory: Memory, space: str, question: str,
                                                             said: str) -> None:
    assert said in _claimed(memory, space, question)


def test_a_split_bill_is_no_breakup(memory: Memory, space: str) -> None:
    assert not [b for b in memory.beliefs(space) if b.subject == "Bo" and b.attribute == "relationship_status"]
