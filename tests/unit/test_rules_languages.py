"""The languages one speaks: each of a list its own value, a language not spoken negative,
and the many other things "speak" says (to whom, for whom, one's mind) no language at all."""

from __future__ import annotations

import pytest

from tests.unit.rules_support import Fact, facts


def _spoken(*languages: str, polarity: str = "positive") -> set[Fact]:
    return {("languages", language, polarity, "asserted") for language in languages}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I speak Arabic, English and a bit of French.", _spoken("Arabic", "English", "French")),
        ("I speak English, French, and German.", _spoken("English", "French", "German")),
        ("I speak Spanish fluently.", _spoken("Spanish")),
        ("I speak a little bit of Thai and conversational Korean.", _spoken("Thai", "Korean")),
        ("I'm fluent in Japanese.", _spoken("Japanese")),
        ("I'm bilingual in English and Welsh.", _spoken("English", "Welsh")),
        ("My native language is Tagalog.", _spoken("Tagalog")),
        ("Portuguese is my first language.", _spoken("Portuguese")),
        ("We speak Hindi at home.", _spoken("Hindi")),  # a household's language is the speaker's
        ("I speak ASL with my brother.", _spoken("ASL")),
        ("I don't speak German.", _spoken("German", polarity="negative")),
        ("I can't speak Italian at all.", _spoken("Italian", polarity="negative")),
    ],
)
def test_a_language_said_spoken_or_not_is_a_language_value(text: str, expected: set[Fact]) -> None:
    assert facts(text, attribute="languages") == expected


@pytest.mark.parametrize(
    "text",
    [
        "I speak to my mom every day.",
        "I speak for everyone here.",
        "I speak my mind.",
        "Do you speak Polish?",  # a question
        "I spoke French as a kid.",  # once, not now
        "I used to speak Farsi.",
        "I wish I spoke Dutch.",
        "I would speak Czech if I could.",
        "I'm learning Korean.",  # studying it (education), not speaking it
        "I don't speak Spanish very well.",  # says some
        "I'm Irish.",
    ],
)
def test_other_things_speak_says_are_no_language(text: str) -> None:
    assert facts(text, attribute="languages") == set()


def test_learning_a_language_stays_education() -> None:
    assert facts("I'm learning Korean.", attribute="education") == {("education", "Korean", "positive", "asserted")}
