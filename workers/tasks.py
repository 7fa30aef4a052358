"""Thin Celery tasks over ``eywa.tasks``: ids in, small JSON summaries out.

Every task is idempotent (deterministic ids, stores skip what exists, Nous skips known
deltas), so a redelivered message — after a worker died mid-task (``acks_late``) — writes
nothing twice. Store and extractor errors are retried with exponential backoff and jitter.

``extract_and_validate`` is the Level 1 job: extraction and validation, then the Nous update
of every belief citing the job's turns. Taking the beliefs from the store (not from the run's
"newly written" list) is what makes redelivery complete: a worker killed after writing
beliefs but before the dimensions leaves beliefs that the re-run would not see as new.
Dimension updates take one Redis lock per (space, entity, attribute) (see
``workers.locks``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from eywa.errors import EywaError, ExtractorError, StoreError
from eywa.extraction.llm import build_extractor
from eywa.extraction.validator import Validator
from eywa.models import Belief
from eywa.nous.ledger import list_dimensions
from eywa.stores.bundle import GraphStores
from eywa.tasks import extract_and_validate as run_extract_and_validate
from eywa.tasks import update_dimensions as run_update_dimensions
from workers import metrics
from workers.app import celery_app
from workers.locks import dimension_lock, group_by_dimension
from workers.repair import repair_candidates as run_repair
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


def _update_locked(stores: GraphStores, space: str, beliefs: Sequence[Belief]) -> int:
    """Nous update of ``beliefs``, one dimension at a time under that dimension's lock."""
    if not beliefs:
        return 0
    cited = stores.evidence.get(space, sorted({i for b in beliefs for i in b.evidence_ids}))
    settings = worker_settings()
    created = 0
    for key, belief_ids in sorted(group_by_dimension(beliefs, cited).items()):
        with dimension_lock(worker_redis(), key, settings.dimension_lock_timeout_s, settings.dimension_lock_timeout_s):
            created += len(run_update_dimensions(stores.evidence, stores.beliefs, stores.dimensions, space, belief_ids))
    return created


@celery_app.task(name="eywa.extract_and_validate", **RETRY)
def extract_and_validate(space: str, evidence_ids: list[str], submitted_at: float | None = None) -> dict[str, Any]:
    """Level 1 for stored turns, then their dimensions; returns counts (the job's detail).

    Raises:
        StoreError, ExtractorError: retried with backoff, then the job fails.
        ConfigurationError: the settings cannot work (no retry).
    """
    stores = worker_stores()
    extractor = build_extractor(worker_settings())
    summary: dict[str, Any] = {"space": space, "evidence": len(evidence_ids)}
    if extractor is not None:
        report = run_extract_and_validate(
            stores.evidence, stores.beliefs, space, evidence_ids, extractor, _validator(),
            worker_settings().level1_batch_size,
        )
        metrics.observe_level1(report.accepted, report.rejected, report.repair, report.by_reason)
        summary.update(report.model_dump(exclude={"beliefs"}))
    citing = stores.beliefs.beliefs_citing(space, evidence_ids)
    summary["beliefs"] = len(citing)
    summary["deltas"] = _update_locked(stores, space, citing)
    log.info("level1 done", extra={"space": space, "evidence": len(evidence_ids), "deltas": summary["deltas"]})
    return summary


@celery_app.task(name="eywa.update_dimensions", **RETRY)
def update_dimensions(space: str, belief_ids: list[str], submitted_at: float | None = None) -> dict[str, Any]:
    """Nous update for the given beliefs (idempotent); returns how many deltas were new.

    Raises:
        StoreError: retried with backoff.
    """
    stores = worker_stores()
    found = stores.beliefs.get_many(space, belief_ids)
    return {"space": space, "beliefs": len(found), "deltas": _update_locked(stores, space, found)}


@celery_app.task(name="eywa.repair_candidates", **RETRY)
def repair_candidates(space: str | None = None) -> dict[str, Any]:
    """Beat: re-validate the repaired form of ``repair`` candidates (one space or all).

    Raises:
        StoreError: retried with backoff.
    """
    stores = worker_stores()
    spaces = [space] if space is not None else stores.evidence.spaces()
    repaired: dict[str, int] = {}
    for name in spaces:
        outcome = run_repair(stores, name, _validator())
        if outcome.report is not None:
            metrics.observe_level1(outcome.report.accepted, outcome.report.rejected, outcome.report.repair, {})
            _update_locked(stores, name, outcome.report.beliefs)
        repaired[name] = outcome.repaired
    return {"repaired": repaired}


@celery_app.task(name="eywa.materialise_decay", **RETRY)
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
