""""Does Priya have children?" after "We just adopted a little boy named Theo." claimed nothing:
a child was read from a baby, a son or a daughter, not from a boy or a girl adopted or welcomed.
They are now a child, named when the sentence names them. Through the public ``Memory`` with
the default rule extractor; "I had a girl named Eva in my class" and "We adopted a girl's cat"
are no child."""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Priya", "We just adopted a little boy named Theo."),
    ("Bo", "We welcomed a girl, Mia, on Sunday."),
    ("Nadia", "I had a girl named Eva in my class."),
    ("Tom", "We adopted a girl's cat when she moved away."),
]
ASKED_AT = "2025-04-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "adopted-child", TURNS, "2025-01-10")


@pytest.mark.parametrize(
    ("question", "said"),
    [("Does Priya have children?", "Priya — children: Theo"), ("Does Bo have kids?", "Bo — children: Mia")],
)
def test_a_boy_or_girl_adopted_or_welcomed_is_a_child(memory: Memory, space: str, question: str, said: str) -> None:
    assert claimed(memory, space, question, ASKED_AT).startswith(said)


@pytest.mark.parametrize("question", ["Does Nadia have children?", "Does Tom have kids?"])
def test_a_girl_in_a_class_or_a_girls_cat_is_no_child(memory: Memory, space: str, question: str) -> None:
    assert claimed(memory, space, question, ASKED_AT) == ""
