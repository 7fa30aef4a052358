"""Pastimes said as a list after "my hobbies are", a pet whose breed comes before its kind,
martial arts, and what shows a pastime.

"My hobbies are pottery and swimming" made pottery alone; "We got a golden retriever puppy
called Biscuit" made an unnamed dog (the breed was read as the pet, and "puppy" stood between
it and the name); "I've been doing jiu-jitsu" made nothing; "I love cooking shows" made
cooking a hobby (a taste for the shows)."""

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


@pytest.mark.parametrize(
    ("text", "hobby"),
    [
        ("I've been doing jiu-jitsu twice a week.", "jiu-jitsu"),
        ("I practice tai chi every morning.", "tai chi"),
        ("I took up muay thai last year.", "muay thai"),
    ],
)
def test_martial_arts_are_pastimes(text: str, hobby: str) -> None:
    assert facts(text, attribute="hobbies") == _hobbies(hobby)


@pytest.mark.parametrize(
    ("text", "liked"),
    [
        ("I love cooking shows.", "cooking shows"),
        ("I love kung fu movies.", "kung fu movies"),
        ("I love boxing matches on TV.", "boxing matches"),
    ],
)
def test_loving_what_shows_a_pastime_is_a_taste_not_the_pastime(text: str, liked: str) -> None:
    assert facts(text, attribute="hobbies") == set()
    assert facts(text, attribute="likes") == {("likes", liked, "positive", "asserted")}


@pytest.mark.parametrize("text", ["I love cooking.", "I love cooking for my family.", "I love board games."])
def test_loving_the_pastime_itself_is_still_a_hobby(text: str) -> None:
    assert len(facts(text, attribute="hobbies")) == 1
