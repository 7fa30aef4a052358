"""``eywa.read.addressed``: a turn that talks of its listener more than of its speaker."""

from __future__ import annotations

import pytest

from eywa.read.addressed import addressed_to_listener


@pytest.mark.parametrize(
    "text",
    [
        "Your garden looks lovely, you must be proud!",
        "You'd make a fine captain.",
        "I’m sure you’ll do great, you always do.",  # curly apostrophes
        "See you tomorrow!",
        "How was your trip? Did you see the lake?",
    ],
)
def test_a_turn_about_the_listener_is_addressed(text: str) -> None:
    assert addressed_to_listener(text)


@pytest.mark.parametrize(
    "text",
    [
        "I joined a choir last month.",
        "We drove to the coast with my cousins. You would have liked it!",  # as much of the speaker
        "Thanks! My sister gave it to me, and you know, I love it.",
        "The young players, Yolanda and Youssef, met at Yourtown.",  # no pronoun inside a word
        "Off to the coast this weekend.",  # no pronoun at all
        "",
    ],
)
def test_a_turn_about_the_speaker_or_neither_is_not(text: str) -> None:
    assert not addressed_to_listener(text)
