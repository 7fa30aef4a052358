"""A pet's kind as a question asks for it and as its beliefs' statements say it."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from eywa.models import Delta, Polarity
from eywa.read.pet_kinds import another_kind, asks_for_kinds, gone_by_kind, kind_asked, names_kind, only_kinds, said_kind


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What is Bo's dog called?", "dog"),
        ("What are Bo's puppies called?", "dog"),
        ("Does Bo have a kitten?", "cat"),
        ("What is Bo's parrot's name?", "parrot"),
        ("Does Bo keep hamsters?", "hamster"),
        ("Does Bo have bunnies?", "rabbit"),  # a plural the registry lists: its singular's kind
        ("Does Bo have a beagle?", "dog"),  # a breed: its kind
        ("Does Bo have beagles?", "dog"),
        ("Is Bo's pet a bunny?", "rabbit"),
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
    assert said_kind(["Bo has a bunny named Clover."], "rabbit") == "kind"
    # A breed is said of its kind.
    assert said_kind(["Bo adopted a beagle named Pepper."], "dog") == "kind"
    assert said_kind(["Bo adopted a beagle named Pepper."], "cat") == "other"
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


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("What kind of dog does Bo have?", True),
        ("What kinds of pets does Bo have?", True),
        ("Which breed is Rex?", True),
        ("What type of pet does Bo have?", True),
        ("What is Bo's dog called?", False),
        ("What kind of music does Bo like?", True),  # a kind, though not of a pet: only the pets line reads it
        ("Is Bo kind to his dog?", False),
    ],
)
def test_a_question_for_the_kind_of_a_pet(question: str, asks: bool) -> None:
    assert asks_for_kinds(question) is asks


def test_only_kinds_is_a_line_of_unnamed_pets() -> None:
    assert only_kinds(["dog", "Cat", "rabbit"])
    assert not only_kinds(["dog", "Rex"])
    assert only_kinds([])


def test_names_kind_is_a_member_shown_by_the_kind_asked() -> None:
    assert names_kind(["cat", "dog"], "cat")
    assert names_kind(["Miso", "puppy"], "dog")  # a young one is said of its kind
    assert not names_kind(["Miso", "dog"], "cat")  # Miso may be the cat; the line does not say
    assert not names_kind([], "cat")


def _delta(value: str, at: str, polarity: Polarity = "positive") -> Delta:
    when = datetime.fromisoformat(at).replace(tzinfo=timezone.utc)
    return Delta(id=f"d-{value}-{at}", space="s", entity="Bo", attribute="pets", observed=value, polarity=polarity,
                 prior={}, posterior={}, surprise_bits=0.0, hazard=0.0, reliability=0.9, at=when, recorded_at=when,
                 belief_id=f"b-{value}-{at}", evidence_ids=("t",))  # fmt: skip


REX = [("Rex", "Bo has a dog named Rex.")]


def test_a_named_pet_is_gone_when_its_kind_ended_after_it() -> None:
    """"I have a dog named Rex", then "No." to "Do you still have the dog?": Rex is gone."""
    deltas = [_delta("Rex", "2024-01-01"), _delta("dog", "2024-02-01", "negative")]
    assert gone_by_kind(["Rex"], [*REX, ("dog", "Bo no longer has a dog.")], deltas) == ["Rex"]


@pytest.mark.parametrize(
    "deltas",
    [
        [_delta("dog", "2024-01-01", "negative"), _delta("Rex", "2024-02-01")],  # the end came first
        [_delta("Rex", "2024-01-01"), _delta("cat", "2024-02-01", "negative")],  # another kind ended
        [_delta("Rex", "2024-01-01"), _delta("dog", "2024-02-01")],  # a dog said had, not gone
    ],
)
def test_a_named_pet_is_not_gone_by_another_end(deltas: list[Delta]) -> None:
    assert gone_by_kind(["Rex"], REX, deltas) == []


def test_a_pet_whose_statement_names_no_kind_is_not_gone_by_a_kind() -> None:
    deltas = [_delta("Rex", "2024-01-01"), _delta("dog", "2024-02-01", "negative")]
    assert gone_by_kind(["Rex"], [("Rex", "Bo loves Rex.")], deltas) == []
