""""I'm diabetic, so no cake for me": a "no" after a finished clause negates what follows it,
not the clause. Through the public ``Memory`` with the default rule extractor, each case in
its own space; a clause that negated itself stays negated.
"""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

DAY = "2025-03-04"
ASKED_AT = "2025-04-01T00:00:00"


def _said(memory: Memory, space: str, *said: tuple[str, str]) -> str:
    return remember_said(memory, space, list(said), DAY)


def _values(memory: Memory, space: str, attribute: str) -> set[tuple[str | None, str]]:
    return {(b.value, b.polarity) for b in memory.beliefs(space) if b.attribute == attribute}


# --- "so no X": the "no" is X's, not the finished clause's -----------------------------------


@pytest.mark.parametrize(
    ("space", "stated", "question", "value"),
    [
        ("diabetic-so-no", "I'm diabetic, so no cake for me.", "Is Priya diabetic?", "diabetes"),
        ("diabetic-so-no-bare", "I'm diabetic so no cake for me.", "Does Priya have diabetes?", "diabetes"),
        ("asthma-no", "I have asthma, no running for me.", "Is Priya asthmatic?", "asthma"),
    ],
)  # fmt: skip
def test_a_no_after_a_finished_clause_negates_what_follows_it(
    memory: Memory, space: str, stated: str, question: str, value: str
) -> None:
    """The "no" negated the whole clause: the validator refused the condition as a polarity
    flip, and nothing was believed."""
    _said(memory, space, ("Priya", stated))
    assert claimed(memory, space, question, ASKED_AT).startswith(f"Priya — health: {value} ")


@pytest.mark.parametrize(
    ("space", "stated"),
    [
        ("not-diabetic-so-no", "I'm not diabetic, so no worries."),
        ("never-diabetic-no", "I was never diabetic, no matter what they say."),
    ],
)  # fmt: skip
def test_a_clause_negated_itself_stays_negated(memory: Memory, space: str, stated: str) -> None:
    _said(memory, space, ("Priya", stated))
    assert ("diabetes", "positive") not in _values(memory, space, "health")
    assert claimed(memory, space, "Is Priya diabetic?", ASKED_AT) == ""
