""""Sam and I divorced" ends the partner; "I've been seeing Omar for a few months" names one.

Only "got divorced" was read: the verb alone ("Sam and I divorced last month", "I divorced Sam
in March", "we divorced") made no belief, so "Is Priya still married to Sam?" was answered
yes. And "seeing" someone was read only with "someone" ("I'm seeing someone, his name is …"),
not with the name said right after it and how long ("I've been seeing Omar for a few months",
"I started seeing Omar in March"). Through the public ``Memory`` with the default rule
extractor."""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Priya", "I'm married to Sam, we live in Leeds."),
    ("Nadia", "I'm married to Karim."),
    ("Priya", "Sam and I divorced last month."),
    ("Nadia", "Actually, I divorced Karim in March."),
    ("Bo", "I've been seeing Omar for a few months now."),
    ("Lena", "I started seeing Jonas in March."),
    ("Kim", "I've been seeing Dr. Patel for my back."),
    ("Ivy", "I've been seeing Theo a lot lately, we play tennis."),
]
ASKED_AT = "2024-07-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "divorced-seeing", TURNS, "2024-06-10")


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # "divorced" is itself the end of "married" (``change_values``): the status answers.
        ("Is Priya still married to Sam?", "Priya — relationship_status: divorced since 1 May 2024 (was married)"),
        ("Who is Priya's partner?", "Priya — partner: unknown since 10 Jun 2024 (was Sam)"),
        ("Who is Nadia's partner?", "Nadia — partner: unknown since 10 Jun 2024 (was Karim)"),
        ("Is Nadia still married to Karim?", "Nadia — relationship_status: divorced since 1 Mar 2024 (was married)"),
    ],
)
def test_a_divorce_said_with_the_verb_ends_the_partner(memory: Memory, space: str, question: str, answer: str) -> None:
    assert claimed(memory, space, question, ASKED_AT).startswith(answer)


@pytest.mark.parametrize(
    ("question", "partner"),
    [("Who is Bo dating?", "Bo — partner: Omar"), ("Who is Lena's partner?", "Lena — partner: Jonas")],
)
def test_someone_seen_for_a_while_is_the_partner(memory: Memory, space: str, question: str, partner: str) -> None:
    assert claimed(memory, space, question, ASKED_AT).startswith(partner)


@pytest.mark.parametrize("person", ["Kim", "Ivy"])
def test_seeing_a_doctor_or_a_friend_often_is_no_partner(memory: Memory, space: str, person: str) -> None:
    assert claimed(memory, space, f"Who is {person}'s partner?", ASKED_AT) == ""
    assert not [b for b in memory.beliefs(space) if b.subject == person and b.attribute == "partner"]
