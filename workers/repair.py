"""Repair of ``repair`` candidates: refusals whose only faults were a polarity or a modality flag.

The validator marks a candidate repairable when it failed only ``polarity_flip`` (the evidence
negates what the candidate asserts, or the reverse) and/or ``modality_lost`` (the evidence
hedges what the candidate asserts). The fix is the flag: flip the polarity, mark the claim
hedged. The repaired facts go through the ordinary Level 1 pipeline (``eywa.tasks``) as the
proposals of a tiny extractor, so they are validated again, get deterministic ids and take
part in supersession exactly like any other belief. A candidate whose repair was accepted is
deleted (its belief, named ``repair:<extractor>``, replaces it); one that still fails stays.
Idempotent: a second run finds no repairable candidate left, or writes the same ids again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from eywa.extraction.base import Extractor
from eywa.extraction.pipeline import Level1Report, belief_id
from eywa.extraction.validator import Validator
from eywa.models import Candidate, CandidateFact, Evidence, ReasonCode
from eywa.stores.bundle import GraphStores
from eywa.tasks import extract_and_validate

__all__ = ["RepairOutcome", "repair_candidates", "repaired_fact"]


def repaired_fact(candidate: Candidate) -> CandidateFact | None:
    """The candidate's fact with its faulty flags fixed, or None when it is not repairable."""
    reasons = set(candidate.reasons)
    if not reasons or not reasons <= {ReasonCode.POLARITY_FLIP, ReasonCode.MODALITY_LOST}:
        return None
    fact = candidate.fact
    update: dict[str, object] = {}
    if ReasonCode.POLARITY_FLIP in reasons:
        update["polarity"] = "negative" if fact.polarity == "positive" else "positive"
    if ReasonCode.MODALITY_LOST in reasons:
        update["modality"] = "hedged"
    return fact.model_copy(update=update)


@dataclass(frozen=True)
class _Proposals:
    """An extractor that proposes the given facts for the turns they cite."""

    facts: tuple[CandidateFact, ...]
    origin: str

    @property
    def name(self) -> str:
        return f"repair:{self.origin}"

    def propose(self, space: str, evidence: Sequence[Evidence]) -> Iterable[CandidateFact]:
        present = {e.id for e in evidence}
        return [f for f in self.facts if present.intersection(f.evidence_ids)]


@dataclass(frozen=True)
class RepairOutcome:
    """What one repair pass of a space did."""

    space: str
    examined: int
    repaired: int
    report: Level1Report | None


def repair_candidates(stores: GraphStores, space: str, validator: Validator, limit: int = 500) -> RepairOutcome:
    """Re-validate the repaired form of up to ``limit`` repairable candidates of ``space``.

    Raises:
        StoreError: a store failed (nothing is deleted before its belief is written).
    """
    candidates = stores.beliefs.candidates(space, status="repair")[:limit]
    fixes = {c.id: f for c in candidates if (f := repaired_fact(c)) is not None}
    if not fixes:
        return RepairOutcome(space=space, examined=len(candidates), repaired=0, report=None)
    by_origin: dict[str, list[Candidate]] = {}
    for cand in candidates:
        if cand.id in fixes:
            by_origin.setdefault(cand.extractor, []).append(cand)
    repaired: list[str] = []
    report: Level1Report | None = None
    for origin, group in sorted(by_origin.items()):
        facts = tuple(fixes[c.id] for c in group)
        extractor: Extractor = _Proposals(facts=facts, origin=origin)
        evidence_ids = sorted({i for f in facts for i in f.evidence_ids})
        report = extract_and_validate(
            stores.evidence, stores.beliefs, space, evidence_ids, extractor, validator, batch_size=len(evidence_ids)
        )
        held = {b.id for b in stores.beliefs.get_many(space, [belief_id(space, fixes[c.id]) for c in group])}
        repaired.extend(c.id for c in group if belief_id(space, fixes[c.id]) in held)
    if repaired:
        stores.beliefs.delete(space, [], repaired)
    return RepairOutcome(space=space, examined=len(candidates), repaired=len(repaired), report=report)
