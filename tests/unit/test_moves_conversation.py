"""The held-out "moves" conversation: the state changes it must yield, and what it must not.

The conversation and its ``questions.json`` (expected state changes, turns that must assert
nothing) were committed before the rules changed and were never used to tune them. The
expectations below are read from that file unchanged; where today's rules miss one, the
miss is an explicit, strict xfail with its reason, so fixing it turns the test red until
the mark is removed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from eywa.bench.extraction import load_evidence
from eywa.extraction.rules import RuleExtractor
from eywa.extraction.validator import Validator
from eywa.models import CandidateFact, Evidence, ReasonCode

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "conversations" / "moves"
QUESTIONS: dict[str, Any] = json.loads((HERE / "questions.json").read_text(encoding="utf-8"))

KNOWN_GAPS = {
    # Decided, not missed: a pet's value is its name when the turn gives one (here in the next
    # sentence, "… named her Sardine"), so "does X still have <name>?" and "<name> died" meet
    # one value; the kind ("kitten") stays in the statement.
    ("moves-s5-15", "pets", "kitten"): "the value is the name the turn gives the kitten, not the kind",
}


@pytest.fixture(scope="module")
def turns() -> dict[str, Evidence]:
    return {t.id: t for t in load_evidence(HERE / "conversation.jsonl", space="moves")["moves"]}


@pytest.fixture(scope="module")
def proposed(turns: dict[str, Evidence]) -> dict[str, list[CandidateFact]]:
    """The conversation read in order, as Level 1 reads it: a turn may lean on the turns
    before it (a short answer on the question it answers, a pet's name on the turn that
    introduced the pet), and every proposal still cites only its own turn."""
    out: dict[str, list[CandidateFact]] = {turn_id: [] for turn_id in turns}
    for fact in RuleExtractor().propose("moves", list(turns.values())):
        assert len(fact.evidence_ids) == 1
        out[fact.evidence_ids[0]].append(fact)
    return out


def _change_id(change: dict[str, Any]) -> str:
    return f"{change['turn']}-{change['attribute']}-{change['value']}-{change['polarity']}"


def _marked(change: dict[str, Any]) -> Any:
    gap = KNOWN_GAPS.get((change["turn"], change["attribute"], change["value"]))
    marks = [pytest.mark.xfail(strict=True, reason=gap)] if gap else []
    return pytest.param(change, id=_change_id(change), marks=marks)


def test_the_conversation_has_at_least_eight_kinds_of_state_change() -> None:
    assert len({c["kind"] for c in QUESTIONS["state_changes"]}) >= 8


@pytest.mark.parametrize("change", [_marked(c) for c in QUESTIONS["state_changes"]])
def test_each_state_change_is_proposed_with_its_attribute_value_and_polarity(
    change: dict[str, Any], turns: dict[str, Evidence], proposed: dict[str, list[CandidateFact]]
) -> None:
    found = [
        f for f in proposed[change["turn"]]
        if (f.subject, f.attribute, (f.value or "").casefold(), f.polarity, f.modality)
        == (change["subject"], change["attribute"], change["value"].casefold(), change["polarity"], "asserted")
    ]
    assert found, [(f.attribute, f.value, f.polarity) for f in proposed[change["turn"]]]
    turn = turns[change["turn"]]
    report = Validator().validate("moves", found[0], {turn.id: turn})
    # A change read as negative polarity may be refused as a polarity flip by a validator that
    # reads negation words only; nothing else may fail.
    allowed = {ReasonCode.POLARITY_FLIP} if change["polarity"] == "negative" else set()
    assert set(report.reasons) <= allowed, report.reasons


@pytest.mark.parametrize("rule", QUESTIONS["must_not_assert"], ids=lambda r: r["turn"])
def test_hedged_negated_quoted_hypothetical_and_injected_turns_assert_nothing(
    rule: dict[str, Any], proposed: dict[str, list[CandidateFact]]
) -> None:
    asserted = [
        f for f in proposed[rule["turn"]]
        if f.modality == "asserted" and f.polarity == "positive"
        and (rule.get("attribute") is None or f.attribute == rule["attribute"])
    ]
    assert asserted == []


def test_the_injected_instruction_leaves_no_trace(proposed: dict[str, list[CandidateFact]]) -> None:
    everything = [f for facts in proposed.values() for f in facts]
    assert not [f for f in everything if "NASA" in f.statement or "astronaut" in f.statement.casefold()]


def test_the_hedged_move_never_becomes_a_residence(proposed: dict[str, list[CandidateFact]]) -> None:
    residences = {(f.value, f.polarity) for facts in proposed.values() for f in facts if f.attribute == "residence"}
    assert ("Lisbury", "positive") not in residences
    assert {("Port Calder", "positive"), ("Ostvik", "positive"), ("Wrenfield", "negative")} <= residences
