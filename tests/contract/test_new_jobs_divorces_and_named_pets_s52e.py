"""A change of job, partner or pet said the way people say it, through the public ``Memory``
with the default rule extractor: each case in its own space, turns said a minute apart, the
question asked the next day. Every new trigger has its negative cases beside it, which keep
false beliefs and false claims at zero.
"""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

DAY = "2026-03-02"
ASKED_AT = "2026-03-03T00:00:00"
AT_GLOBEX = ("Priya", "I work at Globex as an engineer.")


def _values(memory: Memory, space: str, attribute: str) -> set[tuple[str | None, str]]:
    return {(b.value, b.polarity) for b in memory.beliefs(space) if b.attribute == attribute}


# --- a new employer said as a start ------------------------------------------------------------


@pytest.mark.parametrize(
    ("space", "asked", "said"),
    [
        ("hired-me", "How's work?", "Initech hired me last week!"),
        ("joined-last-month", "How's work?", "I joined Initech last month."),
        ("left-and-joined", "Still at Globex?", "No, I left last spring and joined Initech."),
    ],
)  # fmt: skip
def test_a_new_employer_said_as_a_start_replaces_the_one_held(memory: Memory, space: str, asked: str, said: str) -> None:
    """"Initech hired me" made the employer but left Globex the mode (no change said, so two
    equal values); "I joined Initech" made no employer at all, and "No, I left … and joined
    Initech" to "Still at Globex?" ended Globex with no employer after it."""
    remember_said(memory, space, [AT_GLOBEX, ("Bo", asked), ("Priya", said)], DAY)
    assert claimed(memory, space, "Where does Priya work now?", ASKED_AT).startswith("Priya — employer: Initech ")


def test_a_name_joined_is_an_employer_where_it_is_someone_s_employer(memory: Memory) -> None:
    space = remember_said(memory, "joined-tom-s-employer", [
        ("Priya", "I work at Globex."), ("Priya", "My brother Tom works at Initech."), ("Priya", "I joined Initech last week."),
    ], DAY)  # fmt: skip
    assert claimed(memory, space, "Where does Priya work now?", ASKED_AT).startswith("Priya — employer: Initech ")


@pytest.mark.parametrize(
    ("space", "asked", "said"),
    [
        ("joined-a-gym", "How's work?", "I joined a gym."),
        ("joined-a-club-at-work", "How's work?", "I joined the book club at Globex."),
        ("joined-a-newsletter", "How's work?", "I joined Initech's newsletter."),
        ("joined-with-no-work-said", "How was your weekend?", "I joined Rotary last month."),
        ("hired-if", "How's work?", "If Initech hired me I would go."),
        ("not-hired", "How's work?", "Initech didn't hire me."),
        ("might-join", "How's work?", "I might join Initech."),
    ],
)  # fmt: skip
def test_what_is_joined_or_hypothetical_is_no_new_employer(memory: Memory, space: str, asked: str, said: str) -> None:
    remember_said(memory, space, [AT_GLOBEX, ("Bo", asked), ("Priya", said)], DAY)
    assert _values(memory, space, "employer") == {("Globex", "positive")}
    assert claimed(memory, space, "Where does Priya work now?", ASKED_AT).startswith("Priya — employer: Globex ")


def test_a_name_joined_alone_is_no_employer(memory: Memory) -> None:
    space = remember_said(memory, "joined-alone", [("Priya", "I joined Initech last month.")], DAY)
    assert not _values(memory, space, "employer")


# --- a divorce from a partner named -------------------------------------------------------------


def test_a_divorce_from_the_partner_named_ends_the_partner(memory: Memory) -> None:
    space = remember_said(memory, "divorce-finalised", [
        ("Nadia", "I married Tom in 2019."), ("Bo", "Congrats!"), ("Nadia", "My divorce from Tom was finalised in March."),
    ], DAY)  # fmt: skip
    assert ("Tom", "negative") in _values(memory, space, "partner")
    assert not claimed(memory, space, "Who is Nadia's partner?", ASKED_AT).startswith("Nadia — partner: Tom ")


def test_a_divorce_from_no_one_named_makes_no_partner(memory: Memory) -> None:
    space = remember_said(memory, "divorce-unnamed", [("Nadia", "Our divorce is final.")], DAY)
    assert not _values(memory, space, "partner")
    assert _values(memory, space, "relationship_status") == {("divorced", "positive")}


# --- pets: names between commas in a list, and a pet asked about by name ------------------------


@pytest.mark.parametrize(
    ("space", "text", "pets"),
    [
        ("names-then-a-dog", "I have two cats, Luna and Sol, and a dog.",
         {("Luna", "positive"), ("Sol", "positive"), ("dog", "positive")}),
        ("one-name-then-a-dog", "I have a cat, Miso, and a dog named Rex.", {("Miso", "positive"), ("Rex", "positive")}),
        ("a-sister-then-a-dog", "I have a sister, Ana, and a dog.", {("dog", "positive")}),
        ("names-then-an-allergy", "I have two cats, Luna and Sol, and a dog allergy.",
         {("Luna", "positive"), ("Sol", "positive")}),
    ],
)  # fmt: skip
def test_names_between_commas_do_not_close_the_list(memory: Memory, space: str, text: str, pets: set[tuple[str, str]]) -> None:
    """"two cats, Luna and Sol, and a dog" read the cats and lost the dog: the names between
    commas closed the list; a sister's name did too."""
    remember_said(memory, space, [("Priya", text)], DAY)
    assert _values(memory, space, "pets") == pets


def test_a_no_to_a_pet_asked_by_name_ends_it(memory: Memory) -> None:
    """"Do you still have Rex?" — "No.": Level 0 reads Rex as a person, so the question seemed
    put about someone else and the no said nothing; Rex is a pet the speaker named, and the no
    ends it, citing the question that names it."""
    space = remember_said(memory, "rex-asked", [
        ("Priya", "I have a dog named Rex."), ("Bo", "Do you still have Rex?"), ("Priya", "No."),
    ], DAY)  # fmt: skip
    ended = [b for b in memory.beliefs(space) if b.attribute == "pets" and b.polarity == "negative"]
    assert [b.value for b in ended] == ["Rex"] and len(ended[0].evidence_ids) == 2
    assert claimed(memory, space, "What pets does Priya have?", ASKED_AT).startswith("Priya — pets: not Rex ")


def test_a_pet_named_said_no_longer_had_ends_it(memory: Memory) -> None:
    space = remember_said(memory, "rex-said", [("Priya", "I have a dog named Rex."), ("Priya", "I don't have Rex anymore.")], DAY)
    assert ("Rex", "negative") in _values(memory, space, "pets")


@pytest.mark.parametrize(
    ("space", "said"),
    [
        ("rex-yes", [("Priya", "I have a dog named Rex."), ("Bo", "Do you still have Rex?"), ("Priya", "Yes.")]),
        ("rex-not-still", [("Priya", "I have a dog named Rex."), ("Bo", "Do you have Rex?"), ("Priya", "No.")]),
        ("tom-no-pet", [("Priya", "My brother is Tom."), ("Priya", "I don't have Tom anymore.")]),
        ("tom-asked", [("Priya", "I have a dog named Rex."), ("Bo", "Do you still have Tom?"), ("Priya", "No.")]),
    ],
)  # fmt: skip
def test_a_yes_a_plain_no_or_a_name_held_as_no_pet_ends_no_pet(memory: Memory, space: str, said: list[tuple[str, str]]) -> None:
    remember_said(memory, space, said, DAY)
    assert all(polarity == "positive" for _, polarity in _values(memory, space, "pets"))
