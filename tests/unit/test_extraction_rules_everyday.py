"""Everyday ways of saying that something holds or ended, read by the rule extractor.

A breakup said with "we" and a bare "split" ("We've split."), a breakup of two other people
("Melinda and her boyfriend Tobias broke up"), a person named after someone else's relation
to them ("Melinda's husband Tobias is a dentist"), a wedding called off, a rank one is promoted
to, one's own bakery run, where one is these days, a relative's second verb phrase ("My mom is
a retired teacher and lives in Tucson"), children named after a colon, a food eaten now, a car
one has no longer. Each with the near-misses that must stay nothing: "we split the bill", "we
split up the chores", "I'm in York now", "I'm eating fish now".
"""

from __future__ import annotations

import pytest

from eywa.extraction.rules import RuleExtractor
from eywa.extraction.validator import Validator
from tests.unit.rules_support import facts, turn

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


@pytest.mark.parametrize(
    ("text", "expected"),
    [("Our wedding is off.", {("relationship_status", "engaged", "negative", "asserted")}),
     ("My wedding was cancelled last week.", {("relationship_status", "engaged", "negative", "asserted")}),
     ("Our wedding has been called off.", {("relationship_status", "engaged", "negative", "asserted")}),
     ("The wedding's off.", set()),  # whose: no partner of the speaker is known
     ("The wedding is off the coast.", set()), ("Melinda's wedding is off.", set()), ("Our wedding isn't off.", set())],
)  # fmt: skip
def test_a_wedding_called_off_ends_the_engagement(text: str, expected: set[tuple[str, str, str, str]]) -> None:
    assert facts(text, attribute="relationship_status") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("I got promoted to captain.", "captain"), ("I was promoted to sergeant last month.", "sergeant"),
     ("I'm a principal engineer.", "principal engineer")],
)  # fmt: skip
def test_ranks_one_is_promoted_to_are_occupations(text: str, expected: str) -> None:
    assert facts(text, attribute="occupation") == {("occupation", expected, "positive", "asserted")}


@pytest.mark.parametrize(
    ("text", "expected"),
    [("I run my own bakery.", {("employer", "self-employed", "positive", "asserted")}),
     ("I'm running my own salon.", {("employer", "self-employed", "positive", "asserted")}),
     ("I own my own studio.", set()), ("I own my own shop.", set()), ("I'm starting my own bakery.", set()),
     ("I don't run my own bakery.", set())],
)  # fmt: skip
def test_a_trade_one_runs_as_ones_own_is_working_for_oneself(text: str, expected: set[tuple[str, str, str, str]]) -> None:
    assert facts(text, attribute="employer") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("I'm in York these days.", {("residence", "York", "positive", "asserted")}),
     ("We're in Lisbon nowadays.", {("residence", "Lisbon", "positive", "asserted")}),
     ("I'm in York now.", set()),  # maybe only today
     ("I'm in York these days for a conference.", set()), ("I'm in York these days, visiting my aunt.", set())],
)  # fmt: skip
def test_where_one_is_these_days_is_home(text: str, expected: set[tuple[str, str, str, str]]) -> None:
    assert facts(text, attribute="residence") == expected


def test_a_relative_or_a_person_shares_their_subject_with_a_second_verb_phrase() -> None:
    mom = proposals_of("My mom is a retired teacher and lives in Tucson.")
    assert ("Cecilia's mother", "residence", "Tucson") in mom
    assert not [f for f in mom if f[0] == "Cecilia" and f[1] == "residence"]
    assert ("Tobias", "residence", "York") in proposals_of("Tobias is a nurse and lives in York.")
    assert ("Cecilia", "residence", "Leeds") in proposals_of("I'm a teacher and live in Leeds.")


def proposals_of(text: str) -> set[tuple[str, str, str | None]]:
    """(subject, attribute, value) of what the validator accepts of one turn."""
    ev = turn(text)
    return {(f.subject, f.attribute or "", f.value) for f in RuleExtractor().propose("home", [ev])
            if Validator().validate("home", f, {ev.id: ev}).accepted and f.attribute not in {"events", "life_events"}}


@pytest.mark.parametrize(
    ("text", "names"),
    [("We have three kids: Sami, Yara and Omar.", {"Sami", "Yara", "Omar"}),
     ("I have two daughters: Mia and Zoe!", {"Mia", "Zoe"})],
)  # fmt: skip
def test_children_named_after_a_colon_are_each_a_child(text: str, names: set[str]) -> None:
    assert {f[1] for f in facts(text, attribute="children")} == names


def test_a_colon_that_names_no_children_keeps_the_count() -> None:
    assert facts("I have two kids: one is at school.", attribute="children") == {
        ("children", "two kids", "positive", "asserted")}


@pytest.mark.parametrize(
    ("text", "expected"),
    [("I eat meat now.", {("diet", "meat", "positive", "asserted")}),
     ("I eat fish these days.", {("diet", "fish", "positive", "asserted")}),
     ("I've gone pescatarian, no more red meat.", {("diet", "pescatarian", "positive", "asserted"),
                                                   ("diet", "fish", "positive", "asserted")}),
     ("I'm eating fish now.", set()),  # maybe this meal
     ("I eat meat now and then.", set()), ("I don't eat meat now.", {("diet", "meat", "negative", "asserted")})],
)  # fmt: skip
def test_a_food_eaten_now_and_a_diet_gone_to_are_the_diet(text: str, expected: set[tuple[str, str, str, str]]) -> None:
    assert facts(text, attribute="diet") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("I don't have a car anymore.", {("possessions", "car", "negative", "asserted")}),
     ("I no longer have a car.", {("possessions", "car", "negative", "asserted")}),
     ("We don't own a boat anymore.", {("possessions", "boat", "negative", "asserted")}),
     ("We don't own a boat.", set()),  # never had: nothing ended
     ("I don't have my car with me.", set()), ("I don't have a car yet.", set()),
     ("I might not have a car next year.", set())],
)  # fmt: skip
def test_a_thing_one_has_no_longer_is_no_possession(text: str, expected: set[tuple[str, str, str, str]]) -> None:
    assert facts(text, attribute="possessions") == expected


def _after(first: str, then: str) -> set[tuple[str, str | None, str]]:
    """(attribute, value, polarity) the validator accepts of ``then``, said after ``first``."""
    a, b = turn(first), turn(then).model_copy(update={"id": "e2", "seq": 1})
    return {(f.attribute or "", f.value, f.polarity) for f in RuleExtractor().propose("home", [a, b])
            if f.evidence_ids == ("e2",) and Validator().validate("home", f, {b.id: b}).accepted}


@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [("I have a cat.", "The cat passed last week.", {("pets", "cat", "negative")}),
     ("We got a puppy.", "The dog ran away.", {("pets", "dog", "negative")}),
     ("I have a dog.", "The cat passed.", set()),  # no cat of the speaker's
     ("I have a cat.", "The cat passed the vet check.", set()),
     ("I have a cat named Miso.", "The cat died.", set())],  # a named pet: by its name
)  # fmt: skip
def test_a_pet_held_by_its_kind_is_ended_by_its_kind(first: str, then: str, expected: set[tuple[str, str, str]]) -> None:
    assert {f for f in _after(first, then) if f[0] == "pets"} == expected


@pytest.mark.parametrize(
    ("first", "then", "expected"),
    [("Tobias and I got engaged!", "The wedding's off.", {("relationship_status", "engaged", "negative")}),
     ("I'm vegan.", "The wedding's off.", set())],  # no partner known: whose wedding?
)  # fmt: skip
def test_the_wedding_off_is_the_speakers_once_their_partner_is_known(
        first: str, then: str, expected: set[tuple[str, str, str]]) -> None:
    assert {f for f in _after(first, then) if f[0] == "relationship_status"} == expected


@pytest.mark.parametrize(
    "text",
    ["Tom's my ex now.", "Tom is my ex-boyfriend.", "Tom's officially my ex!",
     "Tom is my ex, and Sam is my boyfriend now."],
)  # fmt: skip
def test_a_partner_named_as_ones_ex_is_no_longer_the_partner(text: str) -> None:
    assert ("partner", "Tom", "negative", "asserted") in facts(text, attribute="partner")


@pytest.mark.parametrize(
    "text", ["Tom's my ex's brother.", "Tom is my ex-wife's lawyer.", "Tom isn't my ex.", "That's my exam."]
)
def test_an_ex_said_of_someone_else_or_denied_ends_no_one(text: str) -> None:
    assert not [f for f in facts(text, attribute="partner") if f[1] == "Tom" and f[2] == "negative"]


@pytest.mark.parametrize(
    ("text", "title"),
    [("I'm not a teacher anymore.", "teacher"), ("I'm no longer a nurse.", "nurse"),
     ("Melinda isn't a nurse anymore.", "nurse"), ("I'm not a teacher any more, I'm a nurse now.", "teacher")],
)  # fmt: skip
def test_an_occupation_held_no_longer_is_negative(text: str, title: str) -> None:
    assert ("occupation", title, "negative", "asserted") in facts(text, attribute="occupation")


@pytest.mark.parametrize(
    "text",
    ["I'm not a teacher.", "I'm not a morning person anymore.", "If I'm not a teacher anymore, I'll travel.",
     "I might not be a nurse anymore."],
)  # fmt: skip
def test_an_occupation_denied_without_an_end_or_in_a_condition_is_not_ended(text: str) -> None:
    assert not [f for f in facts(text, attribute="occupation") if f[2] == "negative"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("I'm diabetic, so no cake for me.", {("health", "diabetes", "positive", "asserted")}),
     ("I'm diabetic so no cake for me.", {("health", "diabetes", "positive", "asserted")}),
     ("I have asthma, no running for me.", {("health", "asthma", "positive", "asserted")}),
     ("I'm not diabetic, so no worries.", set()),  # the clause's own "not"
     ("I'm diabetic, no?", set()),  # a tag asks: nothing after "no" is negated
     ("I might be diabetic, so no cake.", set())],  # the hedge stays the clause's
)  # fmt: skip
def test_a_no_after_a_finished_clause_is_what_follows_it(text: str, expected: set[tuple[str, str, str, str]]) -> None:
    # The "no" negated the whole clause: the validator refused the condition as a flip.
    assert facts(text, attribute="health") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("I have a dog, no cats though.", {("pets", "dog", "positive", "asserted")}),
     ("I work at Initech, no joke.", {("employer", "Initech", "positive", "asserted")})],
)  # fmt: skip
def test_a_no_after_a_comma_leaves_the_clause_before_it(text: str, expected: set[tuple[str, str, str, str]]) -> None:
    attribute = next(iter(expected))[0]
    assert facts(text, attribute=attribute) == expected
