"""What the rule-extractor tests share: a turn as Level 0 stores it, and its proposals.

A turn is said by Cecilia on Tuesday 9 May 2023 unless a test says otherwise; "Melinda",
"Lucia" and "Tobias" are names Level 0 already knows, so they are recognised as people.
"""

from __future__ import annotations

from datetime import datetime, timezone

from eywa.extraction.rules import RuleExtractor
from eywa.extraction.validator import Validator
from eywa.ids import content_hash
from eywa.models import CandidateFact, Evidence, ReasonCode
from eywa.signals import detect_signals

SAID = datetime(2023, 5, 9, 13, 0, tzinfo=timezone.utc)
KNOWN = ("Cecilia", "Melinda", "Lucia", "Tobias")

Fact = tuple[str, str | None, str, str]
"""(attribute, value, polarity, modality) of a proposal."""


def turn(text: str, speaker: str | None = "Cecilia", space: str = "home", said: datetime = SAID) -> Evidence:
    """The turn with the signals Level 0 would have stored for it."""
    return Evidence(
        id="e1", space=space, session="s1", seq=0, speaker=speaker, role=None, text=text, observed_at=said,
        recorded_at=said, content_hash=content_hash(text),
        signals=detect_signals(text, said, speaker=speaker, known_entities=KNOWN),
    )


def proposals(text: str, speaker: str | None = "Cecilia", said: datetime = SAID) -> list[CandidateFact]:
    """Everything the rule extractor proposes for one turn."""
    return list(RuleExtractor().propose("home", [turn(text, speaker, said=said)]))


def facts(text: str, speaker: str | None = "Cecilia", attribute: str | None = None) -> set[Fact]:
    """The proposals of one turn the validator accepts, as (attribute, value, polarity,
    modality), optionally of one attribute: a proposal the validator refuses never becomes a
    belief, so a rule test that read proposals alone passed for forms the product drops."""
    ev = turn(text, speaker)
    return {
        (f.attribute or "", f.value, f.polarity, f.modality)
        for f in RuleExtractor().propose("home", [ev])
        if (attribute is None or f.attribute == attribute) and Validator().validate("home", f, {ev.id: ev}).accepted
    }


def statements(text: str, speaker: str | None = "Cecilia") -> set[str]:
    """The statements proposed for one turn."""
    return {f.statement for f in proposals(text, speaker)}


def refusals(text: str, speaker: str | None = "Cecilia") -> dict[str, tuple[ReasonCode, ...]]:
    """The validator's reasons for each refused proposal of one turn, by statement."""
    ev = turn(text, speaker)
    out: dict[str, tuple[ReasonCode, ...]] = {}
    for fact in RuleExtractor().propose("home", [ev]):
        report = Validator().validate("home", fact, {ev.id: ev})
        if not report.accepted:
            out[fact.statement] = report.reasons
    return out
