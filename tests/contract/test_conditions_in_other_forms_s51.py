"""A condition asked about in another form of its words than it was said in: probed from
outside through the public ``Memory`` with the default rule extractor. Each test says what the
memory did before the fix it pins."""

from __future__ import annotations

import hashlib

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

ASKED_AT = "2025-06-01T00:00:00"
DAY = "2025-03-01"


def _said(memory: Memory, *texts: str) -> str:
    """Priya's ``texts``, in order, in a space of their own."""
    space = "s51-" + hashlib.sha256("|".join(texts).encode()).hexdigest()[:10]
    return remember_said(memory, space, [("Priya", text) for text in texts], DAY)


def _answer(memory: Memory, space: str, question: str) -> str:
    """The text of the claimed answer, or "" when nothing is claimed."""
    return claimed(memory, space, question, ASKED_AT)


@pytest.mark.parametrize(
    ("said", "question", "value"),
    [
        ("I'm allergic to peanuts.", "Is Priya allergic to peanuts?", "peanuts allergy"),
        ("I'm lactose intolerant.", "Is Priya lactose intolerant?", "lactose intolerance"),
        ("I'm gluten intolerant.", "Is Priya intolerant to gluten?", "gluten intolerance"),
        ("I have asthma.", "Is Priya asthmatic?", "asthma"),
        ("I have epilepsy.", "Is Priya epileptic?", "epilepsy"),
        ("I'm asthmatic.", "Does Priya have asthma?", "asthma"),
        ("I'm diabetic.", "Is Priya diabetic?", "diabetes"),
        ("I'm a type 1 diabetic, so I check my sugar.", "Does Priya have diabetes?", "diabetes"),
    ],
)  # fmt: skip
def test_a_condition_is_asked_about_in_another_form_of_its_words(
    memory: Memory, said: str, question: str, value: str
) -> None:
    """The yes/no question claimed nothing: "Is Priya allergic to peanuts?" did not name the
    value "peanuts allergy" (a value was named only by its words as stored), and "I'm diabetic",
    "I'm asthmatic" made no belief at all."""
    space = _said(memory, said)
    assert _answer(memory, space, question).startswith(f"Priya — health: {value} "), memory.beliefs(space)


@pytest.mark.parametrize(
    ("said", "question"),
    [
        ("I'm allergic to peanuts.", "Is Priya allergic to shellfish?"),
        ("I'm allergic to peanuts.", "Is Priya allergic to cats?"),
        ("I'm allergic to peanuts.", "Is Priya lactose intolerant?"),
        ("I'm lactose intolerant.", "Is Priya gluten intolerant?"),
        ("I have asthma.", "Is Priya diabetic?"),
        ("I'm diabetic.", "Is Priya asthmatic?"),
    ],
)  # fmt: skip
def test_a_condition_never_said_claims_nothing(memory: Memory, said: str, question: str) -> None:
    space = _said(memory, said)
    assert _answer(memory, space, question) == ""


@pytest.mark.parametrize(
    "said", ["I'm not diabetic.", "I'm a diabetic nurse at the clinic.", "I'm so ecstatic about the trip!",
             "I think I'm asthmatic."],
)  # fmt: skip
def test_an_adjective_makes_a_condition_only_when_it_is_said_of_the_speaker(memory: Memory, said: str) -> None:
    space = _said(memory, said)
    assert not [b for b in memory.beliefs(space) if b.attribute == "health"]
    assert _answer(memory, space, "Is Priya diabetic?") == ""
    assert _answer(memory, space, "Is Priya asthmatic?") == ""
