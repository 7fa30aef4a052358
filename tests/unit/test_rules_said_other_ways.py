"""Everyday ways of saying a diet or a job that the rules used to miss: the diet said with its
noun ("a vegan diet"), a diet said to have ended ("the vegetarian thing didn't last"), a start
said with its "I'm" dropped ("Starting at Hooli next month"), a job contract signed, work
gone freelance. Each family with the near-misses that must stay nothing.
"""

from __future__ import annotations

import pytest

from tests.unit.rules_support import Fact, facts

_VEGAN = {("diet", "vegan", "positive", "asserted"), ("diet", "meat", "negative", "asserted"),
          ("diet", "fish", "negative", "asserted")}  # fmt: skip
_VEGETARIAN = {("diet", "vegetarian", "positive", "asserted"), ("diet", "fish", "negative", "asserted")}
_KETO = {("diet", "keto", "positive", "asserted")}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I've switched to a vegan diet since January.", _VEGAN),
        ("I switched to a vegan diet.", _VEGAN),
        ("I've been on a vegan diet since January.", _VEGAN),
        ("I'm on a vegetarian diet now.", _VEGETARIAN),
        ("I started a keto diet last week.", _KETO),
        ("I went on a keto diet in March.", _KETO),
        ("I'm on keto now.", _KETO),
        ("I follow a vegan diet.", _VEGAN),
        ("I've been eating a vegetarian diet since 2020.", _VEGETARIAN),
        # near-misses: a diet tried once, over in the same sentence, talked of, or not one's own now
        ("I started a keto diet but gave up after a week.", set()),
        ("I tried a keto diet once.", set()),
        ("A vegan diet is expensive.", set()),
        ("I'm reading about the keto diet.", set()),
        ("I was on a keto diet last year.", set()),
        ("I've been on a vegan diet.", set()),  # once, with no how long
        ("I'm on a diet.", set()),
        ("I'm on vegan recipes.", set()),
    ],
)
def test_a_diet_said_with_its_noun_is_the_diet(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="diet") == expected


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Honestly I caved and had a burger last night, the vegetarian thing didn't last.", "vegetarian"),
        ("My keto diet didn't last.", "keto"),
        ("I gave up on being vegan.", "vegan"),
        ("I gave up on the vegan diet.", "vegan"),
        ("I quit keto last month.", "keto"),
        ("I quit the keto diet.", "keto"),
        ("I'm not on keto anymore.", "keto"),
        ("I'm no longer on a vegan diet.", "vegan"),
    ],
)
def test_a_diet_said_to_have_ended_no_longer_holds(text: str, label: str) -> None:
    assert facts(text, attribute="diet") == {("diet", label, "negative", "asserted")}


@pytest.mark.parametrize(
    "text",
    [
        "I quit the vegan cooking class.",  # a class, not the diet
        "The vegan cake didn't last long.",  # a dish, and no one's diet
        "I don't think my vegan phase is over.",
        "I never gave up on being vegan.",
        "I'm not on a keto diet today, it's my cheat day.",  # a day off it, not an end
        "Tobias said the keto thing didn't last.",  # someone else's
    ],
)
def test_what_only_looks_like_a_diet_ended_says_nothing_of_the_diet(text: str) -> None:
    assert facts(text, attribute="diet") == set()


_HOOLI = ("employer", "Hooli", "positive", "asserted")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Big news, I handed in my notice at Initech. Starting at Hooli next month as a senior analyst.",
         {_HOOLI, ("occupation", "senior analyst", "positive", "asserted"),
          ("employer", "Initech", "negative", "asserted")}),
        ("Starting at Hooli next month.", {_HOOLI}),
        ("Joining Hooli next month as an engineer.", {_HOOLI, ("occupation", "engineer", "positive", "asserted")}),
        ("Working at Globex now.", {("employer", "Globex", "positive", "asserted")}),
        ("I'm starting at Hooli next month as a senior analyst.",
         {_HOOLI, ("occupation", "senior analyst", "positive", "asserted")}),
        # near-misses: a gerund that is the subject, no time ahead, a day's place, someone asked about
        ("Starting at the beginning is best.", set()),
        ("Starting at Hooli was hard.", set()),
        ("Starting at Hooli next month was the plan.", set()),
        ("Working at Globex now is fun.", set()),
        ("Starting at Hooli.", set()),
        ("Working at Globex.", set()),
        ("Working at home today.", set()),
        ("Tom? Starting at Hooli next month.", set()),
    ],
)
def test_a_start_said_with_its_subject_dropped_is_the_employer(text: str, expected: set[Fact]) -> None:
    found = facts(text, attribute="employer") | facts(text, attribute="occupation")
    assert found == expected


@pytest.mark.parametrize(
    "text",
    ["Moving to Denver next month.", "Moving to Denver in June!", "Oh, moving to Denver soon."],
)
def test_a_move_said_with_its_subject_dropped_is_the_plan_it_says(text: str) -> None:
    assert facts(text, attribute="plans") == {("plans", "move to Denver", "positive", "planned")}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Oh, moved to Lisbon last week!", {("residence", "Lisbon", "positive", "asserted")}),
        ("Yeah, still living in Porto.", {("residence", "Porto", "positive", "asserted")}),
        ("So, just started at Initech.", {("employer", "Initech", "positive", "asserted")}),
        ("Well, living in Porto is expensive.", set()),
    ],
)
def test_a_word_opening_a_sentence_that_dropped_its_subject_is_not_read_into_it(text: str,
                                                                              expected: set[Fact]) -> None:
    """"Oh, moved to Lisbon" was read as "I Oh, moved to Lisbon", which no rule reads."""
    assert facts(text, attribute="residence") | facts(text, attribute="employer") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I just signed a full-time contract with Pixar Studios as an illustrator!",
         {("employer", "Pixar Studios", "positive", "asserted"), ("occupation", "illustrator", "positive", "asserted")}),
        ("I signed a permanent contract with Globex last week.", {("employer", "Globex", "positive", "asserted")}),
        ("I've signed an employment contract with Hooli.", {("employer", "Hooli", "positive", "asserted")}),
        ("I signed on with Initech as a data analyst.",
         {("employer", "Initech", "positive", "asserted"), ("occupation", "data analyst", "positive", "asserted")}),
        # near-misses: a contract that is no job, one not signed
        ("I signed a two-year contract with Vodafone.", set()),
        ("I signed a contract with Globex.", set()),
        ("I signed a lease with Globex Properties.", set()),
        ("I didn't sign a contract with Globex.", set()),
        ("I almost signed a full-time contract with Globex.", set()),
    ],
)
def test_a_job_contract_signed_is_the_employer(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="employer") | facts(text, attribute="occupation") == expected


_SELF = ("employer", "self-employed", "positive", "asserted")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm a graphic designer, freelance mostly.", {_SELF, ("occupation", "graphic designer", "positive", "asserted")}),
        ("I'm a translator, mostly freelance.", {_SELF, ("occupation", "translator", "positive", "asserted")}),
        ("I'm a freelance graphic designer.", {_SELF, ("occupation", "graphic designer", "positive", "asserted")}),
        ("I work freelance.", {_SELF}),
        ("I've been working freelance since 2020.", {_SELF}),
        ("I'm working freelance these days.", {_SELF}),
        ("I freelance now.", {_SELF}),
        ("I freelance for a few magazines.", {_SELF}),
        ("I've gone freelance.", {_SELF}),
        ("I went freelance last year.", {_SELF}),
        ("I went self-employed in March.", {_SELF}),
        # a named workplace is the employer, freelance or not
        ("I'm a freelance graphic designer at Globex.", {("employer", "Globex", "positive", "asserted"),
                                                         ("occupation", "graphic designer", "positive", "asserted")}),
        # near-misses: someone else freelance, one job, a spell since over, a plan, a past
        ("I hired a freelance designer.", set()),
        ("I work with freelancers.", set()),
        ("I'm working freelance on a logo this week.", set()),
        ("I went freelance for a year before joining Globex.", set()),
        ("I don't work freelance.", set()),
        ("I used to work freelance.", set()),
        ("I might go freelance.", set()),
        ("I'm thinking of going freelance.", set()),
    ],
)
def test_working_freelance_is_self_employed(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="employer") | facts(text, attribute="occupation") == expected
