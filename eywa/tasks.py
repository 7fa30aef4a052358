"""Idempotent task functions of the asynchronous write path.

They take a ``Stores`` bundle, a space and ids, and delegate to the domain; no framework is
imported. The embedded Memory runs them in-process after Level 0; Celery workers call the
same functions with ids. Re-running any of them writes nothing new.
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
from eywa.nous.service import apply_beliefs
from eywa.stores.bundle import Stores
from eywa.stores.vectors import VectorPoint


@dataclass(frozen=True)
class Level1Outcome:
    """What one in-process Level 1 pass did, end to end."""

    report: Level1Report
    deltas: tuple[Delta, ...]


def extract_and_validate(
    stores: Stores,
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
        evidence_store=stores.evidence,
        belief_store=stores.beliefs,
        extractor=extractor,
        validator=validator,
        batch_size=batch_size,
    )


def index_beliefs(stores: Stores, embedder: Embedder, space: str, belief_ids: Sequence[str]) -> int:
    """Embed belief statements so the vector route finds beliefs; returns how many."""
    beliefs = stores.beliefs.get_many(space, belief_ids)
    if not beliefs:
        return 0
    vectors = embedder.embed([b.statement for b in beliefs])
    stores.vectors.upsert(
        "belief",
        [
            VectorPoint(id=b.id, space=space, vector=v, at=_belief_time(b))
            for b, v in zip(beliefs, vectors, strict=True)
        ],
    )
    return len(beliefs)


def update_dimensions(stores: Stores, space: str, belief_ids: Sequence[str]) -> list[Delta]:
    """Nous: each belief of the form (entity, attribute, value) observes its dimension."""
    beliefs = stores.beliefs.get_many(space, belief_ids)
    cited_ids = sorted({i for b in beliefs for i in b.evidence_ids})
    cited: list[Evidence] = stores.evidence.get(space, cited_ids)
    observations = [o for b in beliefs if (o := observation_from_belief(b, cited)) is not None]
    return apply_beliefs(stores.dimensions, observations)


def run_level1_in_process(
    stores: Stores,
    embedder: Embedder,
    space: str,
    evidence_ids: Sequence[str],
    extractor: Extractor,
    validator: Validator,
    batch_size: int,
) -> Level1Outcome:
    """The embedded default's whole asynchronous path, run synchronously."""
    report = extract_and_validate(stores, space, evidence_ids, extractor, validator, batch_size)
    new_ids = [b.id for b in report.beliefs]
    index_beliefs(stores, embedder, space, new_ids)
    deltas = update_dimensions(stores, space, new_ids)
    return Level1Outcome(report=report, deltas=tuple(deltas))


def _belief_time(belief: Belief) -> float:
    return (belief.event_at or belief.recorded_at).timestamp()
