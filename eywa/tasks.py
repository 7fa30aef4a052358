"""Idempotent task functions of the asynchronous write path.

They take the stores they need, a space and ids, and delegate to the domain; no framework
is imported. The embedded Memory runs them in-process after Level 0; Celery workers call
the same functions with ids. Re-running any of them writes nothing new.

A worker needs only the graph stores (evidence, beliefs, dimensions): vector indexing of new
beliefs is a separate step (``index_beliefs``), which the process holding the vector store
runs — in-process right away, or through ``Memory.repair_vectors`` (drift repair) when a
worker wrote the beliefs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from eywa.embedding import Embedder
from eywa.extraction.base import Extractor
from eywa.extraction.pipeline import Level1Report, run_level1
from eywa.extraction.validator import Validator
from eywa.models import Belief, Delta, Evidence
from eywa.nous.observations import observation_from_belief
from eywa.nous.ledger import apply_beliefs
from eywa.stores.beliefs import BeliefStore
from eywa.stores.dimensions import DimensionStore
from eywa.stores.evidence import EvidenceStore
from eywa.stores.vectors import VectorPoint, VectorStore


@dataclass(frozen=True)
class Level1Outcome:
    """What one Level 1 pass did, end to end."""

    report: Level1Report
    deltas: tuple[Delta, ...]


def extract_and_validate(
    evidence: EvidenceStore,
    beliefs: BeliefStore,
    space: str,
    evidence_ids: Sequence[str],
    extractor: Extractor,
    validator: Validator,
    batch_size: int,
) -> Level1Report:
    """Level 1: propose candidates for the turns, validate, store beliefs and refusals."""
    return run_level1(
        space=space,
        evidence_ids=evidence_ids,
        evidence_store=evidence,
        belief_store=beliefs,
        extractor=extractor,
        validator=validator,
        batch_size=batch_size,
    )


def update_dimensions(
    evidence: EvidenceStore,
    beliefs: BeliefStore,
    dimensions: DimensionStore,
    space: str,
    belief_ids: Sequence[str],
) -> list[Delta]:
    """Nous: each belief of the form (entity, attribute, value) observes its dimension."""
    found = beliefs.get_many(space, belief_ids)
    cited_ids = sorted({i for b in found for i in b.evidence_ids})
    cited: list[Evidence] = evidence.get(space, cited_ids)
    observations = [o for b in found if (o := observation_from_belief(b, cited)) is not None]
    return apply_beliefs(dimensions, observations)


def level1_and_dimensions(
    evidence: EvidenceStore,
    beliefs: BeliefStore,
    dimensions: DimensionStore,
    space: str,
    evidence_ids: Sequence[str],
    extractor: Extractor,
    validator: Validator,
    batch_size: int,
) -> Level1Outcome:
    """Extraction, validation and the Nous update for a batch of turns (no vectors).

    Dimensions are updated from every active belief citing the turns, not only the new
    ones: after a crash between the two steps, a re-run finds the beliefs already written
    (so none are "new") and must still apply them. Applying is idempotent.
    """
    report = extract_and_validate(evidence, beliefs, space, evidence_ids, extractor, validator, batch_size)
    citing = [b.id for b in beliefs.beliefs_citing(space, evidence_ids) if b.status != "retracted"]
    deltas = update_dimensions(evidence, beliefs, dimensions, space, citing)
    return Level1Outcome(report=report, deltas=tuple(deltas))


def index_beliefs(
    beliefs: BeliefStore, vectors: VectorStore, embedder: Embedder, space: str, belief_ids: Sequence[str]
) -> int:
    """Embed belief statements so the vector route finds beliefs; returns how many."""
    found = beliefs.get_many(space, belief_ids)
    if not found:
        return 0
    embedded = embedder.embed([b.statement for b in found])
    vectors.upsert(
        "belief",
        [VectorPoint(id=b.id, space=space, vector=v, at=_belief_time(b)) for b, v in zip(found, embedded, strict=True)],
    )
    return len(found)


def _belief_time(belief: Belief) -> float:
    return (belief.event_at or belief.recorded_at).timestamp()
