"""Pastimes said as a list after "my hobbies are", and a pet whose breed comes before its kind.

"My hobbies are pottery and swimming" made pottery alone; "We got a golden retriever puppy
called Biscuit" made an unnamed dog (the breed was read as the pet, and "puppy" stood between
it and the name)."""

from __future__ import annotations

import pytest

from tests.unit.rules_support import Fact, facts


def _hobbies(*values: str) -> set[Fact]:
    return {("hobbies", value, "positive", "asserted") for value in values}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My hobbies are pottery and swimming.", _hobbies("pottery", "swimming")),
        ("My hobbies are pottery, swimming and chess.", _hobbies("pottery", "swimming", "chess")),
        ("My hobbies include hiking and baking.", _hobbies("hiking", "baking")),
        ("My passions are painting and cycling.", _hobbies("painting", "cycling")),
        ("My favourite hobby is pottery.", _hobbies("pottery")),
        ("My hobby is pottery, and I love it.", _hobbies("pottery")),
    ],
)
def test_each_pastime_of_a_list_is_a_hobby(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="hobbies") == expected


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("We got a golden retriever puppy called Biscuit.", "Biscuit"),
        ("We adopted a beagle puppy named Pepper.", "Pepper"),
        ("I have a tabby cat called Miso.", "Miso"),
        ("I have a lab puppy, Max.", "Max"),
    ],
)
def test_a_pet_named_after_its_breed_and_kind_is_named(text: str, name: str) -> None:
    assert facts(text, attribute="pets") == {("pets", name, "positive", "asserted")}


def test_a_breed_alone_is_still_its_kind() -> None:
    assert facts("We got a golden retriever.", attribute="pets") == {("pets", "dog", "positive", "asserted")}
