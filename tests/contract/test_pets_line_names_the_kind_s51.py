"""A pets line answers "Does Priya have a cat?" when it shows which pet is the cat.

The pets line names every pet held, not which is which, so it claims no answer to a question
for one kind when a pet is said to be of another (``eywa.read.pet_kinds``). Two cases made
that refusal wrong: a pet no longer had still counted (the dog of "I don't have the dog
anymore" is not in the line), and a pet named only by its kind ("pets: cat, dog") already
says which it is. Through the public ``Memory`` with the default rule extractor, each case in
its own space; the negative cases keep the refusal where the line cannot tell.
"""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

DAY = "2025-03-04"
ASKED_AT = "2025-04-01T00:00:00"


@pytest.mark.parametrize(
    ("space", "said", "question", "answer"),
    [
        ("kinds-only", [("Priya", "I have a cat and a dog.")], "Does Priya have a cat?", "pets: cat "),
        ("kinds-only-dog", [("Priya", "I have a cat and a dog.")], "Does Priya have a dog?", "pets: cat "),
        (
            "dog-ended",
            [("Priya", "I have a cat named Miso."), ("Priya", "I don't have the dog anymore.")],
            "Does Priya have a cat?", "pets: Miso ",
        ),
        (
            "still-dog-no",
            [("Priya", "I have a cat named Miso and a dog."), ("Bo", "Do you still have the dog?"), ("Priya", "No.")],
            "Does Priya have a cat?", "pets: Miso ",
        ),
        (
            "named-dog-died",
            [("Priya", "I have a cat named Miso and a dog named Rex."), ("Priya", "Sadly my dog Rex died last week.")],
            "Does Priya have a cat?", "pets: Miso ",
        ),
    ],
)  # fmt: skip
def test_the_line_answers_when_it_shows_the_kind(
    memory: Memory, space: str, said: list[tuple[str, str]], question: str, answer: str
) -> None:
    """Each of these claimed nothing: a pet of another kind blocked the line, though it was no
    longer had or was shown by its kind."""
    remember_said(memory, space, said, DAY)
    assert claimed(memory, space, question, ASKED_AT).startswith(f"Priya — {answer}")


@pytest.mark.parametrize(
    ("space", "said", "question"),
    [
        # The line "pets: Kiwi, Rex" does not say which is the dog.
        ("named-two-kinds", [("Priya", "I have a parrot named Kiwi and a dog named Rex.")], "What is Priya's dog called?"),
        # "pets: dog" says nothing of a cat.
        ("only-a-dog", [("Priya", "I have a dog.")], "Does Priya have a cat?"),
        # A cat named Miso and a dog shown by its kind: Miso is not said to be the cat by the line.
        ("named-and-kind", [("Priya", "I have a cat named Miso and a dog.")], "What is Priya's dog called?"),
    ],
)  # fmt: skip
def test_the_line_claims_nothing_when_it_cannot_tell(
    memory: Memory, space: str, said: list[tuple[str, str]], question: str
) -> None:
    remember_said(memory, space, said, DAY)
    assert claimed(memory, space, question, ASKED_AT) == ""
