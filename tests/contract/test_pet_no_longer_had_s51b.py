""""Do you still have the dog?" — "No.", "I don't have the dog anymore": a pet no longer had
ends; "I have a cat allergy" is a condition, not a cat. Through the public ``Memory`` with the
default rule extractor, each case in its own space; the negative cases keep false claims at zero.
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


# --- "I have a cat allergy": a condition, not a cat ----------------------------------------


def test_a_pet_word_before_an_allergy_is_the_allergy(memory: Memory) -> None:
    """"I have a cat allergy" made a pet cat (a false "yes" to "Does Priya have a cat?") and
    no condition."""
    space = _said(memory, "cat-allergy-said", ("Priya", "I have a cat allergy."))
    assert claimed(memory, space, "Is Priya allergic to cats?", ASKED_AT).startswith("Priya — health: cat allergy ")
    assert claimed(memory, space, "Does Priya have a cat?", ASKED_AT) == ""
    assert not _values(memory, space, "pets")


# --- "Do you still have the dog?" — "No." ----------------------------------------------------


@pytest.mark.parametrize(
    ("space", "said"),
    [
        ("still-dog-no", [("Priya", "I have a dog."), ("Bo", "Do you still have the dog?"), ("Priya", "No.")]),
        ("dog-not-anymore", [("Priya", "I have a dog."), ("Priya", "I don't have the dog anymore.")]),
        ("cat-no-longer", [("Priya", "We got a kitten."), ("Priya", "We no longer have our cat.")]),
    ],
)  # fmt: skip
def test_a_pet_no_longer_had_ends(memory: Memory, space: str, said: list[tuple[str, str]]) -> None:
    """Neither the bare no (read as "I don't have the dog anymore") nor that sentence itself
    made any belief: the pet stayed claimed as held."""
    _said(memory, space, *said)
    kind = "cat" if "cat" in said[-1][1] else "dog"
    assert (kind, "negative") in _values(memory, space, "pets")
    assert claimed(memory, space, f"Does Priya have a {kind}?", ASKED_AT).startswith(f"Priya — pets: not {kind} ")


@pytest.mark.parametrize(
    ("space", "said"),
    [
        ("dog-plain-no", [("Priya", "I have a dog."), ("Bo", "Do you have the dog?"), ("Priya", "No.")]),
        ("dog-still-yes", [("Priya", "I have a dog."), ("Bo", "Do you still have the dog?"), ("Priya", "Yes.")]),
        ("dog-walker", [("Priya", "I have a dog."), ("Priya", "I don't have the dog walker anymore.")]),
        ("dog-maybe", [("Priya", "I have a dog."), ("Priya", "I might not have the dog anymore.")]),
    ],
)  # fmt: skip
def test_a_pet_not_said_ended_is_not_ended(memory: Memory, space: str, said: list[tuple[str, str]]) -> None:
    """A no to a question that does not ask about now is a denial, not an end; a yes, a dog
    walker, a hedge end nothing."""
    _said(memory, space, *said)
    assert not claimed(memory, space, "Does Priya have a dog?", ASKED_AT).startswith("Priya — pets: not dog ")
