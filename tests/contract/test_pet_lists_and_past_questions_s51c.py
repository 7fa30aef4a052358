"""Pets said in a list, a named pet whose kind is said to be gone, and past-tense yes/no
questions about a value once held. Through the public ``Memory`` with the default rule
extractor, each case in its own space; the negative cases keep false beliefs and false claims
at zero.
"""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed

ASKED_AT = "2025-12-01T00:00:00"


def _said(memory: Memory, space: str, *said: tuple[str, str, str]) -> str:
    """Remember (day, speaker, text) turns, a minute apart from 10:00 of their day, in order."""
    memory.remember(space, [{"text": text, "speaker": speaker, "session": f"s{day}", "observed_at": f"{day}T10:{i:02d}:00"}
                            for i, (day, speaker, text) in enumerate(said)])  # fmt: skip
    return space


def _values(memory: Memory, space: str, attribute: str) -> set[tuple[str | None, str]]:
    return {(b.value, b.polarity) for b in memory.beliefs(space) if b.attribute == attribute}


# --- a list of what one has: each member read by its own kind ---------------------------------


@pytest.mark.parametrize(
    ("space", "text", "pets", "health"),
    [
        ("pet-then-allergy", "I have a cat named Miso and a dog allergy.", {("Miso", "positive")}, {("dog allergy", "positive")}),
        ("allergy-then-pet", "I have a dog allergy and a cat named Miso.", {("Miso", "positive")}, {("dog allergy", "positive")}),
        ("pet-then-kind-allergy", "I have a dog and a cat allergy.", {("dog", "positive")}, {("cat allergy", "positive")}),
        ("kids-then-pets", "I have two kids, a dog and a parrot.", {("dog", "positive"), ("parrot", "positive")}, set()),
        ("three-pets", "I have a dog, two cats and a parrot.",
         {("dog", "positive"), ("cat", "positive"), ("parrot", "positive")}, set()),
    ],
)  # fmt: skip
def test_each_member_of_a_list_is_read_by_its_kind(
    memory: Memory, space: str, text: str, pets: set[tuple[str, str]], health: set[tuple[str, str]]
) -> None:
    """A kind right before "allergy" is the allergy's wherever it stands in the list, and the
    other members are still pets: "… and a dog allergy" made a pet dog and no condition, "a dog
    allergy and a cat named Miso" lost Miso, and a pet after the first member was not read."""
    _said(memory, space, ("2025-03-04", "Priya", text))
    assert _values(memory, space, "pets") == pets
    assert _values(memory, space, "health") == health


def test_a_list_with_an_allergy_answers_both_questions(memory: Memory) -> None:
    space = _said(memory, "list-answers", ("2025-03-04", "Priya", "I have a cat named Miso and a dog allergy."))
    assert claimed(memory, space, "Is Priya allergic to dogs?", ASKED_AT).startswith("Priya — health: dog allergy ")
    assert claimed(memory, space, "Does Priya have a dog?", ASKED_AT) == ""


@pytest.mark.parametrize(
    ("space", "text"),
    [
        ("dog-walker", "I have a dog walker."),
        ("a-question", "I have a question, a dog walker asked me."),
        ("have-to-say", "I have to say, a dog is great company."),
        ("no-idea", "I have no idea, a cat might suit us."),
    ],
)  # fmt: skip
def test_a_pet_word_that_names_something_else_is_no_pet(memory: Memory, space: str, text: str) -> None:
    """A kind that names something else ("a dog walker"), and what follows "I have to say,"
    or "I have no idea," (no list of things had), make no pet."""
    _said(memory, space, ("2025-03-04", "Priya", text))
    assert not _values(memory, space, "pets")


# --- a named pet whose kind is said to be gone ------------------------------------------------


def test_a_named_pet_whose_kind_is_gone_is_not_claimed_as_held(memory: Memory) -> None:
    """"I have a dog named Rex", then "Do you still have the dog?" — "No." ends "dog" (the reply
    names no Rex), and the pets line said "Rex …; not dog": it was claimed as the answer to
    whether Priya still has Rex, and to what pets she has."""
    space = _said(
        memory, "rex-gone",
        ("2025-03-04", "Priya", "I have a dog named Rex."),
        ("2025-05-02", "Bo", "Do you still have the dog?"),
        ("2025-05-02", "Priya", "No."),
    )  # fmt: skip
    assert ("dog", "negative") in _values(memory, space, "pets")
    assert claimed(memory, space, "Does Priya still have Rex?", ASKED_AT) == ""
    assert claimed(memory, space, "What pets does Priya have?", ASKED_AT) == ""


@pytest.mark.parametrize(
    ("space", "said"),
    [
        ("rex-still", [("2025-03-04", "Priya", "I have a dog named Rex."), ("2025-05-02", "Bo", "Do you still have the dog?"),
                       ("2025-05-02", "Priya", "Yes.")]),
        ("rex-and-no-cat", [("2025-03-04", "Priya", "I have a dog named Rex."),
                            ("2025-05-02", "Priya", "I don't have the cat anymore.")]),
        ("fido-after", [("2025-03-04", "Priya", "I don't have the dog anymore."),
                        ("2025-05-02", "Priya", "I have a dog named Fido.")]),
    ],
)  # fmt: skip
def test_a_named_pet_not_said_gone_is_still_claimed(memory: Memory, space: str, said: list[tuple[str, str, str]]) -> None:
    """A yes, the end of another kind, or an end said before the pet came leave it held."""
    _said(memory, space, *said)
    name = "Fido" if space == "fido-after" else "Rex"
    assert claimed(memory, space, "What pets does Priya have?", ASKED_AT).startswith(f"Priya — pets: {name} ")


# --- a past-tense yes/no question about a value once held -------------------------------------


def test_a_past_question_is_answered_by_a_value_still_held(memory: Memory) -> None:
    """"Did Priya break her wrist?" after "I broke my wrist" claimed nothing: the past tense
    asked no present state, and "break" is no word of "broken wrist"."""
    space = _said(memory, "wrist", ("2025-11-20", "Priya", "I broke my wrist last week."))
    assert claimed(memory, space, "Did Priya break her wrist?", ASKED_AT).startswith("Priya — health: broken wrist since ")
    assert claimed(memory, space, "Did Priya break her arm?", ASKED_AT) == ""
    assert claimed(memory, space, "Did Priya sprain her ankle?", ASKED_AT) == ""


@pytest.mark.parametrize(
    ("space", "said", "question", "line"),
    [
        ("asthma-over", [("2025-03-04", "Priya", "I was diagnosed with asthma."),
                         ("2025-11-02", "Priya", "I have fully recovered from asthma.")],
         "Did Priya have asthma?", "Priya — health: was asthma (p "),
        ("initech-left", [("2025-03-04", "Priya", "I work at Initech."), ("2025-06-02", "Priya", "I left Initech last week.")],
         "Did Priya work at Initech?", "Priya — employer: was Initech (p "),
    ],
)  # fmt: skip
def test_a_past_question_about_a_value_that_ended_is_yes_with_its_history(
    memory: Memory, space: str, said: list[tuple[str, str, str]], question: str, line: str
) -> None:
    """A value that held and ended since did hold: the claim says so, and what holds now."""
    _said(memory, space, *said)
    answer = claimed(memory, space, question, ASKED_AT)
    assert answer.startswith(line)
    assert "; now " in answer


@pytest.mark.parametrize(
    ("space", "said", "question"),
    [
        ("wrist-hedged", [("2025-11-20", "Priya", "I think I might have broken my wrist.")], "Did Priya break her wrist?"),
        ("wrist-never", [("2025-11-20", "Priya", "I never broke my wrist, thankfully.")], "Did Priya break her wrist?"),
        ("asthma-not-diabetes", [("2025-03-04", "Priya", "I was diagnosed with asthma.")], "Did Priya have diabetes?"),
        ("initech-not-globex", [("2025-03-04", "Priya", "I work at Initech.")], "Did Priya work at Globex?"),
    ],
)  # fmt: skip
def test_a_past_question_about_a_value_never_held_claims_nothing(
    memory: Memory, space: str, said: list[tuple[str, str, str]], question: str
) -> None:
    """A value only hedged, denied, or never said: no yes, and never a no from this path."""
    _said(memory, space, *said)
    assert claimed(memory, space, question, ASKED_AT) == ""
