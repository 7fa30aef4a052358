""""Where did Priya grow up?" after "I grew up in a small village in Kerala." claimed nothing:
the origin was read only from a place right after "grew up in" ("I grew up in Kerala"). The
kind of place before it ("a small village in", "a farm outside", "a tiny town near") now
leads to the place named, as "I live in a small town in Ohio" does for a home. Through the
public ``Memory`` with the default rule extractor; "a house in the woods" names no place."""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Priya", "I grew up in a small village in Kerala."),
    ("Bo", "I grew up on a farm outside Austin."),
    ("Nadia", "I was born in a tiny town near Lyon."),
    ("Tom", "I grew up in a house in the woods."),
]
ASKED_AT = "2025-04-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "grown-up-in", TURNS, "2025-01-10")


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Where did Priya grow up?", "Priya — origin: Kerala"),
        ("Where is Bo from?", "Bo — origin: Austin"),
        ("Where is Nadia from?", "Nadia — origin: Lyon"),
    ],
)
def test_the_place_after_the_kind_of_place_is_the_origin(memory: Memory, space: str, question: str, said: str) -> None:
    assert claimed(memory, space, question, ASKED_AT).startswith(said)


def test_a_house_in_the_woods_names_no_origin(memory: Memory, space: str) -> None:
    assert claimed(memory, space, "Where did Tom grow up?", ASKED_AT) == ""
