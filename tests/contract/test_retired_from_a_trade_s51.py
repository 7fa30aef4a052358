"""A retirement from a trade ("I retired from teaching"): probed from outside through the
public ``Memory`` with the default rule extractor. Each test says what the memory did before
the fix it pins."""

from __future__ import annotations

import hashlib

import pytest

from eywa.memory import Memory

ASKED_AT = "2025-06-01T00:00:00"

Said = tuple[str, str, str]
"""(speaker, text, observed_at)."""


def _space(*parts: str) -> str:
    return "s51r-" + hashlib.sha256("|".join(parts).encode()).hexdigest()[:10]


def _send(memory: Memory, space: str, said: list[Said]) -> None:
    memory.remember(
        space, [{"text": text, "speaker": who, "session": at[:10], "observed_at": at} for who, text, at in said]
    )


def _answer(memory: Memory, space: str, question: str) -> str:
    """The text of the claimed answer, or "" when nothing is claimed."""
    result = memory.recall(space, question, k=5, as_of=ASKED_AT)
    top = result.items[0]
    return top.text if top.kind == "dimension" and result.trace.get("answer") else ""


def _said(memory: Memory, *texts: str) -> str:
    space = _space(*texts)
    _send(memory, space, [("Priya", text, f"2025-03-0{i + 1}T10:00:00") for i, text in enumerate(texts)])
    return space


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
