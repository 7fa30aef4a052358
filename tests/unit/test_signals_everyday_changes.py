"""Level 0's change cues for changes said the everyday way: a food eaten said of now ("I eat
meat now"), a promotion ("I got promoted to captain"), a wedding called off ("The wedding's
off"), a job started ("I started working for Initech", "I started at Globex"), a state said
of now at the end of its clause ("I live in Leeds now"). Each says that what was said before (a diet, a title, an engagement, a job) has ended, so
the Nous takes the new observation as the change it is rather than splitting the dimension."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from eywa.models import SignalKind
from eywa.signals import detect_signals

SAID = datetime(2024, 5, 1, tzinfo=timezone.utc)


def _changes(text: str) -> list[str]:
    return [s.text for s in detect_signals(text, SAID) if s.kind is SignalKind.CORRECTION]


@pytest.mark.parametrize(
    "text",
    ["I eat meat now.", "I eat fish these days.", "I got promoted to captain!", "I was promoted to sergeant.",
     "The wedding's off.", "Our wedding was cancelled last week.", "Our wedding has been called off.",
     "I started working for Initech last week.", "I started working from home for Initech.",
     "I started a job at Hooli.", "I started at Globex on Monday.", "I live in Leeds now.",
     "I work at Initech now!", "I'm a store manager now.", "I'm freelancing now, it's great.",
     "Just got the keys to our new home in York!", "Loving my new flat.", "Our brand new house has a garden."],
)  # fmt: skip
def test_everyday_changes_are_change_cues(text: str) -> None:
    assert _changes(text)


@pytest.mark.parametrize(
    "text",
    ["I eat meat now and then.", "Now I eat lunch at noon and then walk.", "The wedding is off the coast.",
     "The wedding was lovely.", "The promotion party was fun.", "The film started at eight.",
     "It started at 8.", "I started working out again.", "I'm so tired now.", "I'm off now.",
     "I'm still at Globex now.", "I'm not working now.", "Tom's new flat is lovely.", "They built a new house.",
     "Renew our homeowner's insurance."],
)  # fmt: skip
def test_near_misses_are_no_change_cues(text: str) -> None:
    assert not _changes(text)
