"""The hand-labelled development sample keeps its meaning as the rules change.

``dev-sample-seed12.jsonl`` holds 50 beliefs drawn with ``random.Random(12)`` from what the
offline Level 1 accepted on ``locomo-dev.json`` (``eywa bench extraction --sample 50 --seed
12``), each labelled by reading its turn: is the statement true to the turn, about the
right subject, under the right attribute, with no unresolved "it/that"? It was drawn from
the rules as they are (399 beliefs; 50 labelled correct, two of them noted as vague).
``dev-sample-seed12-earlier-rules.jsonl`` is the same draw from an earlier version of the
rules (fewer beliefs, so other ones), kept so that what was right then stays right.
``dev-known-errors.jsonl`` holds beliefs labelled wrong in exploratory samples while the
rules were written. Each row carries its turn, when it was said, who said it and the names
Level 0 knew by then, so the turn is rebuilt exactly without the development file.

A belief labelled correct must still be proposed and accepted; one labelled wrong must not
be proposed again.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from eywa.extraction.rules import RuleExtractor
from eywa.extraction.validator import Validator
from eywa.ids import content_hash
from eywa.models import CandidateFact, Evidence, as_utc
from eywa.signals import detect_signals

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "extraction"


def _rows(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (FIXTURES / name).read_text(encoding="utf-8").splitlines() if line.strip()]


SAMPLE = _rows("dev-sample-seed12.jsonl")
EARLIER_SAMPLE = _rows("dev-sample-seed12-earlier-rules.jsonl")
KNOWN_ERRORS = _rows("dev-known-errors.jsonl")


def _turn(row: dict[str, Any]) -> Evidence:
    said = datetime.fromisoformat(row["observed_at"].replace("Z", "+00:00"))
    return Evidence(
        id=row["evidence_id"], space=row["space"], session="s", seq=0, speaker=row["speaker"], role=None,
        text=row["turn"], observed_at=said, recorded_at=said, content_hash=content_hash(row["turn"]),
        signals=detect_signals(row["turn"], said, speaker=row["speaker"], known_entities=row["known_names"]),
    )


def _key(item: CandidateFact | dict[str, Any]) -> tuple[str, str, str, str, str, str | None]:
    """What makes a belief the same belief: subject, attribute, value, polarity, modality, date."""
    if isinstance(item, CandidateFact):
        when = None if item.valid_from is None else as_utc(item.valid_from).date().isoformat()
        return (item.subject, item.attribute or "", item.value or "", item.polarity, item.modality, when)
    when = None if item["valid_from"] is None else item["valid_from"][:10]
    return (item["subject"], item["attribute"], item["value"], item["polarity"], item["modality"], when)


def test_the_sample_is_fifty_labelled_beliefs() -> None:
    for sample in (SAMPLE, EARLIER_SAMPLE):
        assert len(sample) == 50 and {r["label"] for r in sample} <= {"correct", "wrong"}
    assert all(r["label"] == "wrong" for r in KNOWN_ERRORS)


@pytest.mark.parametrize(
    "row", [r for r in SAMPLE + EARLIER_SAMPLE if r["label"] == "correct"], ids=lambda r: r["statement"][:60]
)
def test_a_belief_labelled_correct_is_still_proposed_and_accepted(row: dict[str, Any]) -> None:
    turn = _turn(row)
    proposed = {_key(f): f for f in RuleExtractor().propose(row["space"], [turn])}
    assert _key(row) in proposed, sorted(proposed)
    report = Validator().validate(row["space"], proposed[_key(row)], {turn.id: turn})
    assert report.accepted, report.reasons


@pytest.mark.parametrize(
    "row", [r for r in SAMPLE + EARLIER_SAMPLE + KNOWN_ERRORS if r["label"] == "wrong"], ids=lambda r: r["statement"][:60]
)
def test_a_belief_labelled_wrong_does_not_come_back(row: dict[str, Any]) -> None:
    proposed = {_key(f) for f in RuleExtractor().propose(row["space"], [_turn(row)])}
    assert _key(row) not in proposed
