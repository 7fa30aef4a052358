"""Endings said the way people say them (``eywa.extraction.rules.endings`` and the cessation
cues it leans on): a partner who left, a relationship, a marriage or an engagement said to be
over, a divorce said beside "I", a diet one is done with, a diet that did not last, a car sold
by its model, a pet or a partner gone by name. Each family with the near-misses that must
stay nothing.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from eywa.cessation import ends_any
from eywa.extraction.rules import RuleExtractor
from eywa.extraction.validator import Validator
from eywa.models import Evidence
from tests.unit.rules_support import SAID, facts, turn

_ENDED_TOBIAS = ("partner", "Tobias", "negative", "asserted")


@pytest.mark.parametrize(
    "text",
    ["Tobias left me.", "Tobias left me last week.", "My boyfriend Tobias dumped me.",
     "Tobias broke up with me.", "Tobias left me for someone else.", "My husband, Tobias, walked out on me.",
     "Things with Tobias are over.", "It's over between Tobias and me.", "Tobias and I are over.",
     "My relationship with Tobias ended.", "Things with Tobias are really over."],
)  # fmt: skip
def test_a_partner_who_left_or_a_relationship_over_ends_the_partner(text: str) -> None:
    assert _ENDED_TOBIAS in facts(text, attribute="partner")


@pytest.mark.parametrize(
    "text",
    ["Tobias left me a note.", "Tobias left me in charge of the shop.", "Tobias left me at the station.",
     "Tobias left me when I was five.", "Tobias didn't leave me.", "Maybe Tobias will leave me.",
     "Things with Tobias are going well.", "Tobias and I are over the moon.", "The party with Tobias is over.",
     "It's over between Lucia and Tobias."],
)  # fmt: skip
def test_what_only_looks_like_a_partner_leaving_ends_no_partner(text: str) -> None:
    assert _ENDED_TOBIAS not in facts(text, attribute="partner")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My husband left me.", {("relationship_status", "separated", "positive", "asserted")}),
        ("My wife walked out on me last year.", {("relationship_status", "separated", "positive", "asserted")}),
        ("My husband left me for someone else.", {("relationship_status", "separated", "positive", "asserted")}),
        # a spouse named in passing says the marriage; leaving says no marriage of now
        ("My husband left me a voicemail.", {("relationship_status", "married", "positive", "asserted")}),
        ("Our engagement is over.", {("relationship_status", "engaged", "negative", "asserted")}),
        ("My marriage is over.", {("relationship_status", "married", "negative", "asserted")}),
        ("Our marriage ended last year.", {("relationship_status", "married", "negative", "asserted")}),
        ("My boyfriend left me.", set()),  # a boyfriend's leaving says no status the rules name
        ("My marriage is over the moon.", set()),
        ("My shift is over.", set()),
    ],
)
def test_a_spouse_who_left_and_a_union_over_say_the_status(text: str, expected: set[tuple[str, str, str, str]]) -> None:
    assert facts(text, attribute="relationship_status") == expected


@pytest.mark.parametrize(
    ("text", "ended"),
    [("Lucia and I are divorced.", True), ("Lucia and I are now divorced.", True), ("Lucia and I are separated.", True),
     # a separation of the past, a status said of oneself, the couple's friends
     ("Lucia and I were separated for a while.", False), ("I am divorced.", False),
     ("Lucia and I have been divorced for years.", False)],
)  # fmt: skip
def test_a_divorce_said_beside_i_ends_that_partner(text: str, ended: bool) -> None:
    assert (("partner", "Lucia", "negative", "asserted") in facts(text, attribute="partner")) is ended


@pytest.mark.parametrize(
    ("text", "label"),
    [("I'm done with keto.", "keto"), ("I'm so done with the keto diet.", "keto"), ("I'm done with being vegan.", "vegan"),
     ("No more keto for me.", "keto"), ("I fell off the keto wagon.", "keto"), ("I've fallen off the vegan wagon.", "vegan"),
     ("The vegetarian thing didn't last.", "vegetarian"), ("Honestly, the keto diet didn't last long.", "keto"),
     ("That vegan phase never lasted.", "vegan"), ("The keto thing didn't last for me.", "keto")],
)  # fmt: skip
def test_a_diet_one_is_done_with_or_that_did_not_last_has_ended(text: str, label: str) -> None:
    assert facts(text, attribute="diet") == {("diet", label, "negative", "asserted")}


@pytest.mark.parametrize(
    "text",
    ["I'm done with keto for the week.", "No more keto for me this week.", "I fell off the wagon.",
     "She said the keto thing didn't last.", "The keto diet didn't last a week for my sister.",
     "My sister's keto diet didn't last.", "Her vegan phase didn't last.", "I'm done with work.",
     "The vegan cake didn't last long."],
)  # fmt: skip
def test_what_only_looks_like_a_diet_ended_ends_no_diet_of_the_speaker(text: str) -> None:
    assert facts(text, attribute="diet") == set()


@pytest.mark.parametrize(
    ("text", "words", "ended"),
    [("Tobias left me.", ["Tobias"], True), ("She left me the house.", ["house"], False),
     ("Our engagement is over.", ["engaged"], True), ("I'm over the flu now.", ["flu"], True),
     ("Biscuit passed last week.", ["Biscuit"], True), ("I passed the exam.", ["exam"], False),
     ("Biscuit is no longer with us.", ["Biscuit"], True), ("Tobias broke up with me.", ["Tobias"], True),
     ("I broke up with Tobias.", ["Tobias"], True), ("Tobias split up with me.", ["Tobias"], True)],
)  # fmt: skip
def test_the_cessation_cues_read_these_endings(text: str, words: list[str], ended: bool) -> None:
    assert ends_any(text, words) is ended


def _read(*texts: str) -> set[tuple[str, str | None, str, str]]:
    """What the validator accepts of each turn, Cecilia saying them a day apart in one batch."""
    turns = [turn(text).model_copy(update={"id": f"e{i}", "seq": i, "observed_at": SAID.replace(day=1 + i)})
             for i, text in enumerate(texts)]  # fmt: skip
    by_id: dict[str, Evidence] = {t.id: t for t in turns}
    return {
        (f.attribute or "", (f.value or "").casefold() if f.attribute == "possessions" else f.value, f.polarity,
         f.evidence_ids[0])
        for f in RuleExtractor().propose("home", turns)
        if Validator().validate("home", f, by_id).accepted
    }


@pytest.mark.parametrize(
    ("first", "then", "ended"),
    [("I drive a Honda Civic.", "I sold my Civic.", "honda civic"),
     ("We bought a Ford F-150 in May.", "We sold the F-150 last week.", "ford f-150"),
     ("I have a Tesla Model 3.", "I got rid of my Model 3.", "tesla model 3")],
)  # fmt: skip
def test_a_car_sold_by_its_model_ends_the_car_held_by_make_and_model(first: str, then: str, ended: str) -> None:
    assert ("possessions", ended, "negative", "e1") in _read(first, then)


@pytest.mark.parametrize(
    ("first", "then"),
    [("I drive a Honda.", "I sold my Civic."),  # the car held names no model: nothing it could end
     ("I drive a Honda Civic.", "I sold my Corolla."), ("I drive a Honda Civic.", "Tobias sold his Civic.")],
)  # fmt: skip
def test_a_model_sold_that_no_car_held_names_ends_no_car(first: str, then: str) -> None:
    assert not [f for f in _read(first, then) if f[0] == "possessions" and f[2] == "negative"]


def test_a_car_said_with_its_model_is_the_make_and_the_model() -> None:
    assert facts("I drive a Honda Civic.", attribute="possessions") == {
        ("possessions", "Honda Civic", "positive", "asserted")}  # the registry writes it "honda civic"
    assert facts("I bought a Tesla in May.", attribute="possessions") == {
        ("possessions", "Tesla", "positive", "asserted")}


@pytest.mark.parametrize(
    ("first", "then", "ended"),
    [("I'm married to Tobias.", "Tobias passed away in March.", True),
     ("My husband is Tobias.", "Tobias is no longer with us.", True),
     ("I'm dating Tobias.", "Tobias died last year.", True),
     ("My friend Tobias lives in Leeds.", "Tobias passed away in March.", False),  # no partner of hers
     ("I'm married to Tobias.", "Tobias passed the test.", False)],
)  # fmt: skip
def test_a_partner_gone_by_name_is_no_longer_the_partner(first: str, then: str, ended: bool) -> None:
    assert (("partner", "Tobias", "negative", "e1") in _read(first, then)) is ended


@pytest.mark.parametrize(
    ("then", "ended"),
    [("Biscuit passed.", True), ("Biscuit passed last week.", True), ("Biscuit is no longer with us.", True),
     ("Biscuit passed the vet check.", False), ("Biscuit is no longer with us at the flat, she lives with Mom.", False)],
)  # fmt: skip
def test_a_pet_passed_or_no_longer_with_us_is_gone(then: str, ended: bool) -> None:
    assert (("pets", "Biscuit", "negative", "e1") in _read("We have a cat named Biscuit.", then)) is ended


def test_an_ending_is_dated_when_said() -> None:
    said = datetime(2023, 5, 9, 13, 0, tzinfo=timezone.utc)
    found = [f for f in RuleExtractor().propose("home", [turn("Tobias left me last week.", said=said)])
             if f.attribute == "partner"]  # fmt: skip
    assert found and found[0].valid_from is not None and found[0].valid_from < said


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Tobias and I called it quits.", {("partner", "Tobias", "negative", "asserted")}),
        ("Tobias and I called it off last month.", {("partner", "Tobias", "negative", "asserted")}),
        ("I called off my engagement to Tobias.", {("relationship_status", "engaged", "negative", "asserted")}),
        ("We called off the engagement.", {("relationship_status", "engaged", "negative", "asserted")}),
        # near-misses: a game called off, the engagement party, a call
        ("We called off the game.", set()),
        ("We called off the engagement party.", set()),
        ("Tobias called me this morning.", set()),
        ("I didn't call off the engagement.", set()),
    ],
)  # fmt: skip
def test_a_relationship_called_off_or_quits_has_ended(text: str, expected: set[tuple[str, str, str, str]]) -> None:
    assert facts(text, attribute="partner") | facts(text, attribute="relationship_status") == expected


@pytest.mark.parametrize(
    ("text", "ended"),
    [("Lucia and I divorced last year.", True), ("I divorced Lucia.", True),
     ("I never divorced Lucia.", False)],
)  # fmt: skip
def test_the_verb_divorced_ends_the_one_beside_i_or_after_it(text: str, ended: bool) -> None:
    assert ends_any(text, ["Lucia"]) is ended
