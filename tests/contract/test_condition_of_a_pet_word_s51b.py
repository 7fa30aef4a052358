""""Is Priya allergic to cats?": what a condition is of is a word of its value, not a topic of
the pets. Through the public ``Memory`` with the default rule extractor, each case in its own
space, asked after the turns; the negative cases keep false claims at zero.
"""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

DAY = "2025-03-04"
ASKED_AT = "2025-04-01T00:00:00"


def _said(memory: Memory, space: str, *said: tuple[str, str]) -> str:
    return remember_said(memory, space, list(said), DAY)


# --- a condition of a thing that is also another attribute's word ("allergic to cats") -----


@pytest.mark.parametrize(
    ("space", "stated", "question", "value"),
    [
        ("allergic-cats", "I'm allergic to cats.", "Is Priya allergic to cats?", "cats allergy"),
        ("allergy-cat", "I'm allergic to cats.", "Does Priya have a cat allergy?", "cats allergy"),
        ("allergic-dogs-now", "I'm allergic to dogs.", "Is Priya still allergic to dogs?", "dogs allergy"),
    ],
)  # fmt: skip
def test_a_condition_of_a_pet_word_is_asked_of_health(
    memory: Memory, space: str, stated: str, question: str, value: str
) -> None:
    """"cats" also points at the pets, so the question asked about two attributes at once and
    no current state answered it: nothing was claimed."""
    _said(memory, space, ("Priya", stated))
    assert claimed(memory, space, question, ASKED_AT).startswith(f"Priya — health: {value} ")


@pytest.mark.parametrize(
    ("space", "stated", "question"),
    [
        ("allergic-other", "I'm allergic to cats.", "Is Priya allergic to dogs?"),
        ("allergy-other", "I'm allergic to cats.", "Does Priya have a dog allergy?"),
        ("owns-cats", "I have two cats.", "Is Priya allergic to cats?"),
        ("allergic-not-owner", "I'm allergic to cats.", "Does Priya have cats?"),
    ],
)  # fmt: skip
def test_a_condition_or_a_pet_never_said_claims_nothing(memory: Memory, space: str, stated: str, question: str) -> None:
    _said(memory, space, ("Priya", stated))
    assert claimed(memory, space, question, ASKED_AT) == ""


def test_a_pet_question_still_asks_about_pets(memory: Memory) -> None:
    space = _said(memory, "pets-kept", ("Priya", "I have two cats."))
    assert claimed(memory, space, "Does Priya have cats?", ASKED_AT).startswith("Priya — pets: cat ")
