""""Where does Priya live?" after "Greetings from our new flat in Lisbon!", and "Who is Bo
dating?" after "I met someone! His name is Sam and we're dating."

A new home said in passing, with no verb of moving ("We love our new house in Leeds"), left the
old residence the answer, and a date named in the sentence before "we're dating" was no
partner: only "in a relationship" was known. Through the public ``Memory`` with the default
rule extractor, a month apart; a holiday home, a home for sale, a sister's flat and someone
met by another ("My brother met a girl named Ana, and we're dating other people") change
nothing."""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

EARLIER = [
    ("Priya", "I live in Madrid."),
    ("Nadia", "I live in Madrid."),
    ("Kim", "I live in Madrid."),
    ("Lena", "I live in Madrid."),
]
LATER = [
    ("Priya", "Greetings from our new flat in Lisbon!"),
    ("Nadia", "We love our new house in Leeds."),
    ("Bo", "I met someone! His name is Sam and we're dating."),
    ("Omar", "I met a girl named Ana at the party. We've been dating for a month."),
    ("Kim", "We bought a new holiday home in Spain."),
    ("Lena", "Our new house in Lisbon is for sale. My sister's new flat in Oslo is huge."),
    ("Tom", "My brother met a girl named Ana, and we're dating other people."),
]
ASKED_AT = "2025-04-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    remember_said(memory, "in-passing", EARLIER, "2025-01-10")
    return remember_said(memory, "in-passing", LATER, "2025-02-10")


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Where does Priya live?", "Priya — residence: Lisbon"),
        ("Where does Nadia live?", "Nadia — residence: Leeds"),
        ("Who is Bo dating?", "Bo — partner: Sam"),
        ("Who is Omar dating?", "Omar — partner: Ana"),
        ("Where does Kim live?", "Kim — residence: Madrid"),
        ("Where does Lena live?", "Lena — residence: Madrid"),
    ],
)
def test_a_new_home_or_a_date_said_in_passing_is_the_answer(
    memory: Memory, space: str, question: str, said: str
) -> None:
    assert claimed(memory, space, question, ASKED_AT).startswith(said)


def test_someone_met_by_another_is_no_partner(memory: Memory, space: str) -> None:
    assert "partner" not in claimed(memory, space, "Who is Tom dating?", ASKED_AT)
