"""Level 1 as one workflow: extraction, validation and supersession, then the Nous update.

``run_level1`` is the only Level 1 path. The embedded ``Memory`` calls it in-process after
Level 0; the Celery task ``eywa.extract_and_validate`` calls it in a worker with the ids of
turns the API stored. Both pass the graph stores (a ``GraphStores`` bundle; a full ``Stores``
is one too) and a ``dimension_lock``: a worker takes a Redis lease per dimension, so two
workers never interleave one dimension's read-modify-write; in-process, the default takes
no lock (one process, one Level 1 thread).

Every step is idempotent (deterministic ids, stores skip what exists, the Nous ledger skips
known deltas), so a re-run after a crash or a redelivered message writes nothing twice. The
Nous update applies every non-retracted belief citing the turns, not only the newly written
ones: a run interrupted after its beliefs were written and before their dimensions were
updated finds them "already written" the second time, and must still apply them.

Vectors are not touched here: the process that holds the vector store embeds new beliefs
(``eywa.indexing``), right away in-process or through drift repair after a worker's job.

``repair_candidates`` re-validates the repaired form of ``repair`` candidates through the
same extraction step and the same Nous update.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass

from eywa.attributes import get_attribute
from eywa.extraction.base import Extractor
from eywa.extraction.pipeline import Level1Report, belief_id, extract_beliefs
from eywa.extraction.validator import Validator
from eywa.ids import entity_key
from eywa.models import Belief, Candidate, CandidateFact, Delta, Evidence, ReasonCode
from eywa.nous.ledger import apply_beliefs
from eywa.nous.observations import Observation, observation_from_belief
from eywa.stores.bundle import GraphStores

__all__ = [
    "DimensionKey",
    "DimensionLock",
    "Level1Outcome",
    "RepairOutcome",
    "group_by_dimension",
    "no_lock",
    "repair_candidates",
    "repaired_fact",
    "run_level1",
    "update_dimensions",
]

DimensionKey = tuple[str, str, str]
"""(space, entity key, canonical attribute): what one dimension lock guards."""

DimensionLock = Callable[[DimensionKey], AbstractContextManager[object]]
"""Gives the context manager to hold while one dimension is updated."""


def no_lock(key: DimensionKey) -> AbstractContextManager[object]:
    """The in-process default: one Level 1 thread per memory needs no lock."""
    return nullcontext()


@dataclass(frozen=True)
class Level1Outcome:
    """What one Level 1 pass did, end to end.

    ``report`` is None when no extractor ran (``EYWA_EXTRACTOR=none``: only the Nous update
    of beliefs already stored); ``beliefs`` counts the beliefs applied to dimensions.
    """

    report: Level1Report | None
    beliefs: int
    deltas: tuple[Delta, ...]


def run_level1(
    stores: GraphStores,
    space: str,
    evidence_ids: Sequence[str],
    extractor: Extractor | None,
    validator: Validator,
    *,
    batch_size: int,
    dimension_lock: DimensionLock = no_lock,
) -> Level1Outcome:
    """Extract, validate and store beliefs for ``evidence_ids``, then update their dimensions.

    Raises:
        ExtractorError: the extractor failed; what earlier batches wrote stays, and a re-run
            continues idempotently.
        StoreError: a store (or the lock's backend) failed.
    """
    report = None
    if extractor is not None:
        report = extract_beliefs(
            space=space, evidence_ids=evidence_ids, evidence_store=stores.evidence,
            belief_store=stores.beliefs, extractor=extractor, validator=validator, batch_size=batch_size,
        )  # fmt: skip
    citing = [b for b in stores.beliefs.beliefs_citing(space, evidence_ids) if b.status != "retracted"]
    deltas = update_dimensions(stores, space, citing, dimension_lock=dimension_lock)
    return Level1Outcome(report=report, beliefs=len(citing), deltas=tuple(deltas))


def group_by_dimension(beliefs: Iterable[Belief], cited: Sequence[Evidence]) -> dict[DimensionKey, list[Observation]]:
    """The observations of ``beliefs`` by the dimension they update, keyed as the ledger keys it."""
    groups: dict[DimensionKey, list[Observation]] = defaultdict(list)
    for belief in beliefs:
        observation = observation_from_belief(belief, cited)
        if observation is not None:
            key = (observation.space, entity_key(observation.entity), get_attribute(observation.attribute).name)
            groups[key].append(observation)
    return dict(groups)


def update_dimensions(
    stores: GraphStores, space: str, beliefs: Sequence[Belief], *, dimension_lock: DimensionLock = no_lock
) -> list[Delta]:
    """The Nous update: each (entity, attribute, value) belief observes its dimension.

    One dimension at a time, in key order, each under ``dimension_lock(key)``. Returns the
    deltas that were new (re-applying a belief writes nothing).

    Raises:
        StoreError: a store (or the lock's backend) failed.
    """
    if not beliefs:
        return []
    cited = stores.evidence.get(space, sorted({i for b in beliefs for i in b.evidence_ids}))
    created: list[Delta] = []
    for key, observations in sorted(group_by_dimension(beliefs, cited).items()):
        with dimension_lock(key):
            created.extend(apply_beliefs(stores.dimensions, observations))
    return created


# --- repair of "repair" candidates --------------------------------------------------------


def repaired_fact(candidate: Candidate) -> CandidateFact | None:
    """The candidate's fact with its faulty flags fixed, or None when it is not repairable.

    The validator marks a candidate repairable when it failed only ``polarity_flip`` (the
    evidence negates what it asserts, or the reverse) and/or ``modality_lost`` (the evidence
    hedges what it asserts). The fix is the flag: flip the polarity, mark the claim hedged.
    """
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
    """What one repair pass of a space did (``report`` of the last re-validation, if any)."""

    space: str
    examined: int
    repaired: int
    report: Level1Report | None
    deltas: tuple[Delta, ...] = ()


def repair_candidates(
    stores: GraphStores,
    space: str,
    validator: Validator,
    *,
    limit: int = 500,
    dimension_lock: DimensionLock = no_lock,
) -> RepairOutcome:
    """Re-validate the repaired form of up to ``limit`` repairable candidates of ``space``.

    The repaired facts are the proposals of a tiny extractor named ``repair:<extractor>``,
    so they are validated again, get deterministic ids and take part in supersession like
    any belief; accepted ones update their dimensions. A candidate whose repair was
    accepted is deleted (its belief replaces it); one that still fails stays. Idempotent.

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
    deltas: list[Delta] = []
    for origin, group in sorted(by_origin.items()):
        facts = tuple(fixes[c.id] for c in group)
        evidence_ids = sorted({i for f in facts for i in f.evidence_ids})
        report = extract_beliefs(
            space=space, evidence_ids=evidence_ids, evidence_store=stores.evidence, belief_store=stores.beliefs,
            extractor=_Proposals(facts=facts, origin=origin), validator=validator, batch_size=len(evidence_ids),
        )  # fmt: skip
        deltas += update_dimensions(stores, space, report.beliefs, dimension_lock=dimension_lock)
        held = {b.id for b in stores.beliefs.get_many(space, [belief_id(space, fixes[c.id]) for c in group])}
        repaired.extend(c.id for c in group if belief_id(space, fixes[c.id]) in held)
    if repaired:
        stores.beliefs.delete(space, [], repaired)
    return RepairOutcome(
        space=space, examined=len(candidates), repaired=len(repaired), report=report, deltas=tuple(deltas)
    )
