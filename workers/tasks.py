"""Thin Celery tasks over the core's workflows: ids in, small JSON summaries out.

Every task is idempotent (deterministic ids, stores skip what exists, Nous skips known
deltas), so a redelivered message — after a worker died mid-task (``acks_late``) — writes
nothing twice. Store and extractor errors are retried with exponential backoff and jitter.

``extract_and_validate`` is the job of a batch: when this worker shares the vector store (a
Qdrant server, ``eywa.runtime.vectors_shared``) it first embeds the turns that are due
(``eywa.indexing.embed_due``: its own and those of other requests and spaces, in one
embedder pass), then runs Level 1 (``eywa.level1.run_level1``, the same workflow the embedded ``Memory`` runs, with
one Redis lock per (space, entity, attribute) around each dimension update,
``workers.locks``), then embeds the beliefs it wrote. It does what the stage ledger says is
still owed, so a redelivered or duplicated message writes nothing twice. A message
redelivered while its first delivery still runs (a task longer than the broker's visibility
timeout) waits for that delivery's claim (``workers.locks.task_claim``) instead of doing the
same work at once, and a run that finds its work already done returns the counts of the run
that did it (kept in Redis for the result lifetime): a duplicate never replaces a job's
counts with zeros.

``reconcile`` (beat, and once when a worker starts) re-derives Level 1 work from the ledger:
marks no worker has touched for ``EYWA_RECONCILE_GRACE_S`` (their message was lost: a worker
killed before it acknowledged, a broker restarted without persistence) are sent again as
``extract_and_validate`` tasks (with the embed marks, when this worker embeds). The
broker's messages are wake-ups; the store is the truth.
"""

from __future__ import annotations

import json
import logging
import time
from collections import defaultdict
from contextlib import AbstractContextManager, suppress
from datetime import UTC, datetime, timedelta
from typing import Any

from redis.exceptions import RedisError

from eywa.errors import EmbedderError, EywaError, ExtractorError, StoreError
from eywa.extraction.llm import build_extractor
from eywa.extraction.validator import Validator
from eywa.erasure.retention import apply_retention as erase_past_retention
from eywa.jobs import (
    LEVEL1_TASK,
    MATERIALISE_DECAY_TASK,
    RECONCILE_TASK,
    REPAIR_TASK,
    RETENTION_TASK,
    UPDATE_DIMENSIONS_TASK,
)
from eywa import level1
from eywa.indexing import EmbedStage, embed_due
from eywa.level1 import DimensionKey
from eywa.nous.ledger import list_dimensions
from eywa.reconcile import record_failure
from eywa.stores.ledger import DERIVED_STAGES, EMBED_STAGES
from workers import metrics
from workers.app import celery_app
from workers.locks import dimension_lock, task_claim
from workers.stores import worker_embedding, worker_redis, worker_settings, worker_stores

__all__ = ["extract_and_validate", "materialise_decay", "reconcile", "repair_candidates", "update_dimensions"]

log = logging.getLogger(__name__)
RETRY = {
    "autoretry_for": (StoreError, ExtractorError, EmbedderError),
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


SUMMARY_KEY = "eywa:job-summary:{}"
"""Where the counts of the run that did a job's Level 1 are kept (Redis, result lifetime)."""


def _embed(stage: EmbedStage) -> int:
    """Embed the due marks of ``stage``, of every space, when this worker embeds; returns how
    many. Each claim of up to ``EYWA_RECONCILE_BATCH`` marks is one embedder pass and one
    upsert (the 4-turn batches of many agents together); claims go on while the last one
    was full, so a sustained stream of writes cannot keep a task from its Level 1.

    Raises:
        StoreError, EmbedderError: the marks stay (due again after the lease) and the task
            is retried.
    """
    embedding = worker_embedding()
    if embedding is None:
        return 0
    vectors, embedder = embedding
    settings = worker_settings()
    done = 0
    while True:
        cleared = embed_due(
            vectors, embedder, stage, limit=settings.reconcile_batch,
            lease_s=settings.celery_visibility_timeout_s, batch_size=max(settings.embed_batch_size * 4, 64),
        )  # fmt: skip
        done += cleared
        if cleared < settings.reconcile_batch:
            return done


def _kept_summary(job_id: str | None, summary: dict[str, Any], did_work: bool) -> dict[str, Any]:
    """The counts to return: this run's when it did the work (kept in Redis), else the kept
    counts of the run that did (a redelivered or duplicated message), else this run's."""
    if not job_id:
        return summary
    key = SUMMARY_KEY.format(job_id)
    try:
        client = worker_redis()
        if did_work:
            client.set(key, json.dumps(summary), ex=worker_settings().celery_result_expires_s)
            return summary
        kept = client.get(key)
    except (RedisError, OSError) as exc:  # the counts are a courtesy; the ledger holds the state
        log.warning("job counts not kept", extra={"job": job_id, "error": str(exc)})
        return summary
    return dict(json.loads(kept)) if kept else summary


@celery_app.task(name=LEVEL1_TASK, bind=True, **RETRY)
def extract_and_validate(
    self: Any, space: str, evidence_ids: list[str], submitted_at: float | None = None
) -> dict[str, Any]:
    """Embedding (when this worker embeds), Level 1 for stored turns, their dimensions, the
    new beliefs' vectors; returns counts (the job's detail).

    Raises:
        StoreError, ExtractorError, EmbedderError: retried with backoff, then the job fails.
        ConfigurationError: the settings cannot work (no retry).
    """
    job_id = getattr(self.request, "id", None)
    if not job_id:
        return _extract_and_validate(None, space, evidence_ids)
    lease = float(worker_settings().celery_visibility_timeout_s)
    with task_claim(worker_redis(), job_id, lease):  # a second delivery waits, then finds the work done
        return _extract_and_validate(job_id, space, evidence_ids)


def _extract_and_validate(job_id: str | None, space: str, evidence_ids: list[str]) -> dict[str, Any]:
    settings = worker_settings()
    stores = worker_stores()
    embedded = _embed("embed_evidence")
    now = datetime.now(UTC)
    for stage in DERIVED_STAGES:  # taken: the beat leaves these alone for a grace period
        stores.ledger.touch(space, stage, evidence_ids, now)
    try:
        outcome = level1.run_level1(
            stores, space, evidence_ids, build_extractor(settings), _validator(),
            batch_size=settings.level1_batch_size, dimension_lock=_dimension_lock,
        )  # fmt: skip
    except (StoreError, ExtractorError) as exc:
        with suppress(StoreError):  # the store may be what failed; the marks stay either way
            marks = stores.ledger.pending_for(space, evidence_ids)
            record_failure(stores, space, "level1", [m for m in marks if m.stage in DERIVED_STAGES], exc)
        raise
    summary: dict[str, Any] = {"space": space, "evidence": len(evidence_ids)}
    if outcome.report is not None:
        report = outcome.report
        metrics.observe_level1(report.accepted, report.rejected, report.repair, report.by_reason)
        summary.update(report.model_dump(exclude={"beliefs"}))
    summary["beliefs"] = outcome.beliefs
    summary["deltas"] = len(outcome.deltas)
    summary["embedded"] = embedded + _embed("embed_belief")
    log.info("level1 done", extra={"space": space, "evidence": len(evidence_ids), "deltas": summary["deltas"]})
    did_work = outcome.level1_done + outcome.nous_done > 0
    return _kept_summary(job_id, summary, did_work)


RECONCILE_RAN_KEY = "eywa:reconcile-ran"
"""Set (with a time to live) by each beat reconciliation that runs; copies find it and skip."""


def _ran_recently(within_s: float) -> bool:
    """Whether a beat reconciliation started less than ``within_s`` ago (else this one is
    recorded as started). Redis unreachable: run (a pass more is harmless)."""
    try:
        return not worker_redis().set(RECONCILE_RAN_KEY, "1", nx=True, px=max(int(within_s * 1000), 1))
    except (RedisError, OSError):
        return False


@celery_app.task(name=RECONCILE_TASK, **RETRY)
def reconcile(skip_within_s: float = 0.0) -> dict[str, Any]:
    """Beat (and worker start): send again the work no message carries any more.

    Marks of ``level1``/``nous`` (and of the embed stages, when this worker embeds) due for
    ``EYWA_RECONCILE_GRACE_S`` (up to
    ``EYWA_RECONCILE_BATCH`` of each) are grouped by space into ``extract_and_validate``
    tasks, after being touched so the next beat waits another grace period. Job records
    older than the result lifetime are pruned. With ``skip_within_s`` (the beat's messages,
    which never expire) a run started less than that long ago makes this one return at once:
    the copies the beat sent while a long queue held them back cost one Redis call each.

    Raises:
        StoreError: retried with backoff.
    """
    settings = worker_settings()
    if skip_within_s > 0 and _ran_recently(skip_within_s):
        return {"tasks": 0, "turns": 0, "jobs_pruned": 0, "skipped": True}
    stores = worker_stores()
    now = datetime.now(UTC)
    due = now - timedelta(seconds=settings.reconcile_grace_s)
    by_space: dict[str, dict[str, None]] = defaultdict(dict)
    stages = DERIVED_STAGES + (EMBED_STAGES if worker_embedding() is not None else ())
    for stage in stages:
        for mark in stores.ledger.pending(stage, limit=settings.reconcile_batch, due_before=due):
            by_space[mark.space][mark.item_id] = None
    sent = 0
    chunk = max(settings.level1_batch_size * 4, 1)
    for space, items in sorted(by_space.items()):
        ids = list(items)
        for stage in DERIVED_STAGES:
            stores.ledger.touch(space, stage, ids, now)
        for start in range(0, len(ids), chunk):
            extract_and_validate.apply_async(args=[space, ids[start : start + chunk]], kwargs={"submitted_at": now.timestamp()})
            sent += 1
    pruned = stores.jobs.prune_jobs(now - timedelta(seconds=settings.celery_result_expires_s))
    if sent:
        log.info("reconcile re-sent level1 work", extra={"tasks": sent, "turns": sum(map(len, by_space.values()))})
    return {"tasks": sent, "turns": sum(len(v) for v in by_space.values()), "jobs_pruned": pruned}


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


@celery_app.task(name=RETENTION_TASK, **RETRY)
def apply_retention() -> dict[str, Any]:
    """Beat: erase what is older than each space's ``EYWA_RETENTION_DAYS`` period (on
    ``recorded_at``) through the erasure cascade. A worker has no vector store, so the
    erasures stay ``pending`` until the API's reconciler deletes their vectors and marks
    them done (as every erasure started without vectors).

    Raises:
        StoreError: retried with backoff (an erasure already begun finishes on re-run).
    """
    reports = erase_past_retention(worker_stores(), worker_settings().retention_days)
    if reports:
        log.info("retention erased turns", extra={"spaces": len(reports)})
    return {"erased": {r.space: r.counts.get("turns", 0) for r in reports}}


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
