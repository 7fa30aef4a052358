"""Thin Celery tasks over the core's workflows: ids in, small JSON summaries out.

Every task is idempotent (deterministic ids, stores skip what exists, Nous skips known
deltas), so a redelivered message — after a worker died mid-task (``acks_late``) — writes
nothing twice. Store and extractor errors are retried with exponential backoff and jitter.

``extract_and_validate`` is the Level 1 job: ``eywa.level1.run_level1``, the same workflow the
embedded ``Memory`` runs, with this worker's stores and one Redis lock per (space, entity,
attribute) around each dimension update (``workers.locks``).
"""

from __future__ import annotations

import logging
import time
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any

from eywa.errors import EywaError, ExtractorError, StoreError
from eywa.extraction.llm import build_extractor
from eywa.extraction.validator import Validator
from eywa.jobs import LEVEL1_TASK, MATERIALISE_DECAY_TASK, REPAIR_TASK, UPDATE_DIMENSIONS_TASK
from eywa import level1
from eywa.level1 import DimensionKey
from eywa.nous.ledger import list_dimensions
from workers import metrics
from workers.app import celery_app
from workers.locks import dimension_lock
from workers.stores import worker_redis, worker_settings, worker_stores

__all__ = ["extract_and_validate", "materialise_decay", "repair_candidates", "update_dimensions"]

log = logging.getLogger(__name__)
RETRY = {
    "autoretry_for": (StoreError, ExtractorError),
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 6,
}


def _validator() -> Validator:
    return Validator(support_threshold=worker_settings().validator_support_threshold)


def _dimension_lock(key: DimensionKey) -> AbstractContextManager[None]:
    """This worker's lease on one dimension (``EYWA_DIMENSION_LOCK_TIMEOUT_S``)."""
    lease = worker_settings().dimension_lock_timeout_s
    return dimension_lock(worker_redis(), key, lease, lease)


@celery_app.task(name=LEVEL1_TASK, **RETRY)
def extract_and_validate(space: str, evidence_ids: list[str], submitted_at: float | None = None) -> dict[str, Any]:
    """Level 1 for stored turns, then their dimensions; returns counts (the job's detail).

    Raises:
        StoreError, ExtractorError: retried with backoff, then the job fails.
        ConfigurationError: the settings cannot work (no retry).
    """
    settings = worker_settings()
    outcome = level1.run_level1(
        worker_stores(), space, evidence_ids, build_extractor(settings), _validator(),
        batch_size=settings.level1_batch_size, dimension_lock=_dimension_lock,
    )  # fmt: skip
    summary: dict[str, Any] = {"space": space, "evidence": len(evidence_ids)}
    if outcome.report is not None:
        report = outcome.report
        metrics.observe_level1(report.accepted, report.rejected, report.repair, report.by_reason)
        summary.update(report.model_dump(exclude={"beliefs"}))
    summary["beliefs"] = outcome.beliefs
    summary["deltas"] = len(outcome.deltas)
    log.info("level1 done", extra={"space": space, "evidence": len(evidence_ids), "deltas": summary["deltas"]})
    return summary


@celery_app.task(name=UPDATE_DIMENSIONS_TASK, **RETRY)
def update_dimensions(space: str, belief_ids: list[str], submitted_at: float | None = None) -> dict[str, Any]:
    """Nous update for the given beliefs (idempotent); returns how many deltas were new.

    Raises:
        StoreError: retried with backoff.
    """
    stores = worker_stores()
    found = stores.beliefs.get_many(space, belief_ids)
    deltas = level1.update_dimensions(stores, space, found, dimension_lock=_dimension_lock)
    return {"space": space, "beliefs": len(found), "deltas": len(deltas)}


@celery_app.task(name=REPAIR_TASK, **RETRY)
def repair_candidates(space: str | None = None) -> dict[str, Any]:
    """Beat: re-validate the repaired form of ``repair`` candidates (one space or all).

    Raises:
        StoreError: retried with backoff.
    """
    stores = worker_stores()
    spaces = [space] if space is not None else stores.evidence.spaces()
    repaired: dict[str, int] = {}
    for name in spaces:
        outcome = level1.repair_candidates(stores, name, _validator(), dimension_lock=_dimension_lock)
        if outcome.report is not None:
            metrics.observe_level1(outcome.report.accepted, outcome.report.rejected, outcome.report.repair, {})
        repaired[name] = outcome.repaired
    return {"repaired": repaired}


@celery_app.task(name=MATERIALISE_DECAY_TASK, **RETRY)
def materialise_decay() -> dict[str, Any]:
    """Beat: decay every dimension to now and publish per-space gauges for dashboards.

    Stored states stay "as of their last event" (reads decay lazily); this only exports
    how uncertain each space's knowledge has become since.

    Raises:
        StoreError: retried with backoff.
    """
    stores = worker_stores()
    now = datetime.now(UTC)
    started = time.monotonic()
    out: dict[str, Any] = {}
    for space in stores.evidence.spaces():
        try:
            dims = list_dimensions(stores.dimensions, space, as_of=now)
        except EywaError as exc:
            log.warning("decay skipped", extra={"space": space, "error": str(exc)})
            continue
        mean = sum(d.entropy_bits for d in dims) / len(dims) if dims else 0.0
        metrics.DIMENSIONS.labels(space).set(len(dims))
        metrics.DIMENSION_ENTROPY.labels(space).set(mean)
        out[space] = {"dimensions": len(dims), "entropy_bits_mean": round(mean, 4)}
    out["seconds"] = round(time.monotonic() - started, 3)
    return out
