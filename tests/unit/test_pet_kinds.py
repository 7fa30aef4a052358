"""A pet's kind as a question asks for it and as its beliefs' statements say it."""

from __future__ import annotations

import pytest

from eywa.read.pet_kinds import another_kind, kind_asked, said_kind


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What is Bo's dog called?", "dog"),
        ("What are Bo's puppies called?", "dog"),
        ("Does Bo have a kitten?", "cat"),
        ("What is Bo's parrot's name?", "parrot"),
        ("Does Bo keep hamsters?", "hamster"),
        ("Does Bo have bunnies?", "bunny"),  # a plural the registry lists: its singular's kind
        ("What is Bo's pet called?", None),  # no kind
        ("Does Bo's dog chase the cat?", None),  # two kinds
        ("Where does Bo live?", None),
    ],
)
def test_the_kind_a_question_asks_for(question: str, kind: str | None) -> None:
    assert kind_asked(question) == kind


def test_a_statement_says_the_kind_another_or_none() -> None:
    assert said_kind(["Bo has a puppy named Rex."], "dog") == "kind"
    assert said_kind(["Bo got a parrot named Kiwi."], "dog") == "other"
    assert said_kind(["Bo has a pet named Kiwi."], "dog") == "unsaid"
    assert said_kind(["Bo has a bunny named Clover."], "bunny") == "kind"
    # Said to be both (a later statement corrects the kind): the asked one is said.
    assert said_kind(["Bo got a parrot named Kiwi.", "Kiwi is Bo's dog."], "dog") == "kind"


def test_another_kind_among_the_pets() -> None:
    parrot_and_dog = [("Kiwi", "Bo got a parrot named Kiwi."), ("Rex", "Bo has a dog named Rex.")]
    assert another_kind(parrot_and_dog, "dog")
    assert another_kind(parrot_and_dog, "parrot")
    # A pet of no kind said is no other kind.
    assert not another_kind([("Rex", "Bo has a dog named Rex."), ("Pip", "Bo has a pet named Pip.")], "dog")
    # Values are one pet whatever their case.
    assert not another_kind([("Rex", "Bo has a dog named Rex."), ("rex", "Bo walks Rex the dog daily.")], "dog")
