"""Everyday ways of saying that something holds or ended, read by the rule extractor.

A breakup said with "we" and a bare "split" ("We've split."), a breakup of two other people
("Melinda and her boyfriend Tobias broke up"), a person named after someone else's relation
to them ("Melinda's husband Tobias is a dentist"). Each with the near-misses that must stay
nothing: "we split the bill", "we split up the chores".
"""

from __future__ import annotations

import pytest

from tests.unit.rules_support import facts

_SINGLE = ("relationship_status", "single", "positive", "asserted")


@pytest.mark.parametrize(
    "text",
    ["We've split.", "We split last week.", "We split, it was for the best.", "Tobias and I split in March.",
     "We broke up in March."],
)  # fmt: skip
def test_a_bare_split_said_of_we_leaves_the_speaker_single(text: str) -> None:
    assert _SINGLE in facts(text, attribute="relationship_status")


@pytest.mark.parametrize(
    "text",
    ["We split the bill.", "We split up the chores.", "We broke up the fight.", "We split up into teams.",
     "We split it three ways.", "We might split."],
)  # fmt: skip
def test_a_split_with_an_object_or_a_hedge_is_no_breakup(text: str) -> None:
    assert facts(text, attribute="relationship_status") == set()


@pytest.mark.parametrize(
    ("text", "status"),
    [("Melinda and her boyfriend Tobias broke up.", "single"), ("Melinda and Tobias split up last month.", "single"),
     ("Melinda and her husband Tobias separated.", "separated")],
)  # fmt: skip
def test_two_people_who_broke_up_are_no_longer_each_others_partner(text: str, status: str) -> None:
    found = facts(text)
    assert ("partner", "Tobias", "negative", "asserted") in found
    assert ("partner", "Melinda", "negative", "asserted") in found
    assert ("relationship_status", status, "positive", "asserted") in found


@pytest.mark.parametrize(
    "text",
    ["Melinda and Tobias broke up the fight.", "Melinda and Tobias split the bill.",
     "Maybe Melinda and Tobias will split up.", "Melinda and Tobias didn't break up.",
     "Melinda and Tobias split last week."],  # a bare "split" of others: maybe a band or a firm
)  # fmt: skip
def test_two_people_with_an_object_a_hedge_or_a_denial_end_nothing(text: str) -> None:
    assert not [f for f in facts(text) if f[0] == "partner" and f[2] == "negative"]


def test_a_person_named_after_someone_elses_relation_to_them_is_the_subject() -> None:
    found = facts("Melinda's husband Tobias is a dentist.")
    assert ("occupation", "dentist", "positive", "asserted") in found
    assert ("partner", "Tobias", "positive", "asserted") in found
    assert ("employer", "Globex", "positive", "asserted") in facts("Melinda's friend Tobias works at Globex.")
