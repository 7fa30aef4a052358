"""How people say that something changed, read by the rule extractor.

A second clause that shares the first one's subject ("I lived in Leeds, then moved to York",
"Worked at Initech for years, then joined Globex"), an origin and then a move ("I'm from Leeds
but moved to York in 2020"). Each with the near-misses that must stay as they were: a plan
after "then" ("I lived in Leeds, then York is next"), someone else's move ("Melinda lived in
Leeds, then moved to York"), something joined that is no job ("… and joined a choir").
"""

from __future__ import annotations

import pytest

from eywa.extraction.rules import RuleExtractor
from eywa.extraction.validator import Validator
from tests.unit.rules_support import facts, turn


def _speakers(text: str, attribute: str) -> set[tuple[str | None, str, str]]:
    """The accepted (value, polarity) of ``attribute`` the speaker (Cecilia) is the subject of."""
    ev = turn(text)
    return {(f.value, f.polarity, f.modality) for f in RuleExtractor().propose("home", [ev])
            if f.subject == "Cecilia" and f.attribute == attribute and Validator().validate("home", f, {ev.id: ev}).accepted}


@pytest.mark.parametrize(
    "text",
    ["I lived in Leeds, then moved to York.", "I lived in Leeds until March, then moved to York.",
     "Lived in Leeds, then moved to York.", "I lived in Leeds for ten years and then moved to York last year.",
     "We lived in Leeds, then moved to York."],
)  # fmt: skip
def test_a_home_then_a_move_is_the_new_home_and_the_old_one_ended(text: str) -> None:
    found = facts(text, attribute="residence")
    assert ("residence", "York", "positive", "asserted") in found
    assert ("residence", "Leeds", "negative", "asserted") in found
    assert ("residence", "Leeds", "positive", "asserted") not in found


@pytest.mark.parametrize(
    "text",
    ["Worked at Initech for years, then joined Globex.", "I worked at Initech for years, then joined Globex.",
     "I worked for Initech until 2022, then joined Globex as an analyst.",
     "I worked at Initech, and then joined Globex."],
)  # fmt: skip
def test_a_job_then_another_joined_is_the_new_employer_and_the_old_one_ended(text: str) -> None:
    found = facts(text, attribute="employer")
    assert ("employer", "Globex", "positive", "asserted") in found
    assert ("employer", "Initech", "negative", "asserted") in found


@pytest.mark.parametrize(
    "text",
    ["I lived in Leeds, then York is next.",  # a plan, not a move
     "Melinda lived in Leeds, then moved to York.",  # Melinda's, not the speaker's
     "I might have lived in Leeds, then moved to York, I can't remember."],
)  # fmt: skip
def test_a_plan_or_someone_elses_move_after_then_is_no_home_of_the_speaker(text: str) -> None:
    assert _speakers(text, "residence") == set()


@pytest.mark.parametrize(
    "text", ["I worked at Initech and joined a choir.", "I worked at Initech, then joined Melinda for lunch."]
)
def test_something_joined_that_is_no_job_is_no_employer(text: str) -> None:
    assert not [f for f in facts(text, attribute="employer") if f[2] == "positive"]
    assert ("employer", "Initech", "negative", "asserted") not in facts(text, attribute="employer")


@pytest.mark.parametrize(
    "text", ["I'm from Leeds but moved to York in 2020.", "I'm from Leeds but recently moved to York."]
)
def test_an_origin_then_a_move_is_the_origin_and_the_new_home(text: str) -> None:
    found = facts(text)
    assert ("origin", "Leeds", "positive", "asserted") in found
    assert ("residence", "York", "positive", "asserted") in found
    assert ("residence", "Leeds", "positive", "asserted") not in found


def test_someone_elses_origin_then_a_move_is_not_the_speakers() -> None:
    assert _speakers("Melinda's from Leeds but moved to York in 2020.", "residence") == set()


@pytest.mark.parametrize(
    "text", ["Originally from Leeds, I moved to York last year.", "Born and raised in Leeds, we moved to York in 2010."]
)
def test_an_origin_put_before_the_i_is_the_speakers_origin(text: str) -> None:
    found = facts(text)
    assert ("origin", "Leeds", "positive", "asserted") in found
    assert ("residence", "York", "positive", "asserted") in found


@pytest.mark.parametrize(
    "text", ["Originally from Leeds.", "So originally from Leeds, I guess.", "Born in May, I'm a Taurus."]
)
def test_an_origin_with_no_i_after_it_is_no_origin_of_the_speaker(text: str) -> None:
    assert _speakers(text, "origin") == set()


@pytest.mark.parametrize(
    ("text", "attribute", "ended"),
    [("I used to live in Leeds.", "residence", "Leeds"), ("We used to live in Leeds.", "residence", "Leeds"),
     ("I used to work at Globex.", "employer", "Globex"), ("I used to work for Initech, years ago.", "employer", "Initech"),
     ("I used to be a teacher.", "occupation", "teacher")],
)  # fmt: skip
def test_what_one_used_to_be_or_do_has_ended(text: str, attribute: str, ended: str) -> None:
    # A past habit asserts nothing of now, but says that what it held then holds no longer.
    found = facts(text, attribute=attribute)
    assert (attribute, ended, "negative", "asserted") in found
    assert (attribute, ended, "positive", "asserted") not in found


@pytest.mark.parametrize(
    "text",
    ["If I used to live in Leeds I'd know.", "I never used to live in Leeds.", "I think I used to work at Globex.",
     "I used to be a heavy smoker."],
)  # fmt: skip
def test_a_used_to_hedged_denied_or_of_no_job_ends_no_home_or_job(text: str) -> None:
    assert _speakers(text, "residence") | _speakers(text, "employer") | _speakers(text, "occupation") == set()


@pytest.mark.parametrize(
    ("text", "attribute", "now", "then"),
    [("I used to live in Leeds but now I'm in York.", "residence", "York", "Leeds"),
     ("I used to work at Globex, now I'm at Initech.", "employer", "Initech", "Globex"),
     ("I used to be a teacher, now I'm a nurse.", "occupation", "nurse", "teacher")],
)  # fmt: skip
def test_what_one_used_to_be_then_what_one_is_now(text: str, attribute: str, now: str, then: str) -> None:
    # "now" opens a part of the present: the past habit before it does not govern it.
    found = facts(text, attribute=attribute)
    assert (attribute, now, "positive", "asserted") in found
    assert (attribute, then, "negative", "asserted") in found


@pytest.mark.parametrize("text", ["Now I'm in York, the flight was fine.", "Now I'm in York for the weekend."])
def test_now_in_a_place_with_no_move_told_is_no_home(text: str) -> None:
    assert _speakers(text, "residence") == set()
