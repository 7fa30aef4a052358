"""One negation finder: the NEGATION signal (Level 0), the rules extractor's negated part and
the validator's own reading (for text stored without signals) agree on what negates. They
were three patterns: the extractor's missed "none" and "nowhere", the validator's "nowhere"
and "without", and both read "no" before a number ("no. 5") as a negation."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from eywa.extraction import polarity
from eywa.extraction.rules.clause import part_of
from eywa.models import SignalKind
from eywa.signals import detect_signals

AT = datetime(2024, 5, 1, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("text", "negated"),
    [
        ("I have none of my old records left.", True),
        ("I live nowhere near the coast now.", True),
        ("I went without coffee all week.", True),
        ("I don't work at Acme.", True),
        ("I no longer play tennis.", True),
        ("I wore shirt no. 5 at the match.", False),
        ("No, I moved to Lyon last month.", False),
        # an answering "No" after an interjection, or said twice (negated before session 39)
        ("Haha no, I still live in Lyon.", False),
        ("Oh, no! I moved to Lyon last month.", False),
        ("No no, I still work at Acme.", False),
        ("Lol no, I don't live in Lyon anymore.", True),  # its own negation still counts
        ("There is no gym near my flat.", True),
        ("I play tennis on Sundays.", False),
    ],
)
def test_signal_extractor_and_validator_agree_on_negation(text: str, negated: bool) -> None:
    signalled = any(s.kind is SignalKind.NEGATION for s in detect_signals(text, AT))
    assert signalled is negated
    assert part_of(text, 0).negated is negated
    assert polarity.read(text, [], []).negated is negated  # no signals: the validator's own reading
