"""A retirement from a trade ("I retired from teaching"): probed from outside through the
public ``Memory`` with the default rule extractor. Each test says what the memory did before
the fix it pins."""

from __future__ import annotations

import hashlib

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

ASKED_AT = "2025-06-01T00:00:00"
DAY = "2025-03-01"


def _said(memory: Memory, *texts: str) -> str:
    """Priya's ``texts``, in order, in a space of their own."""
    space = "s51r-" + hashlib.sha256("|".join(texts).encode()).hexdigest()[:10]
    return remember_said(memory, space, [("Priya", text) for text in texts], DAY)


def _answer(memory: Memory, space: str, question: str) -> str:
    """The text of the claimed answer, or "" when nothing is claimed."""
    return claimed(memory, space, question, ASKED_AT)


@pytest.mark.parametrize("said", ["I retired from teaching last year.", "I'm retired from teaching now."])
def test_a_retirement_from_a_trade_ends_the_job(memory: Memory, said: str) -> None:
    """"I retired from teaching last year" made only a life event: "Is Priya retired?" and
    "Is Priya a teacher?" claimed nothing, and "What does Priya do?" nothing either."""
    space = _said(memory, said)
    assert _answer(memory, space, "Is Priya retired?").startswith("Priya — employer: retired since")
    assert "not teacher" in _answer(memory, space, "Is Priya a teacher?")
    assert _answer(memory, space, "What does Priya do?").startswith("Priya — employer: retired since")


def test_a_retirement_ends_the_trade_said_before(memory: Memory) -> None:
    """After "I'm a teacher at the high school." and later "I retired from teaching last
    month.", "Is Priya a teacher?" still answered teacher (the retirement ended nothing)."""
    space = _said(memory, "I'm a teacher at the high school.", "I retired from teaching last month.")
    answer = _answer(memory, space, "Is Priya a teacher?")
    assert "not teacher" in answer and "teacher p 0.0" in answer, answer
    assert _answer(memory, space, "Is Priya retired?").startswith("Priya — employer: retired since")


@pytest.mark.parametrize(
    "said",
    ["I retired from teaching the choir.", "I never retired from teaching.", "If I retired from teaching, I'd travel."],
)
def test_teaching_that_goes_on_is_no_retirement(memory: Memory, said: str) -> None:
    space = _said(memory, said)
    assert _answer(memory, space, "Is Priya retired?") == ""
    assert not [b for b in memory.beliefs(space) if b.attribute in {"employer", "occupation"}]
