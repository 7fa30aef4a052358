"""Celery signal handlers: metrics per task state, JSON logs, per-process store lifetime."""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import signals
from kombu.exceptions import OperationalError

from eywa.errors import StoreError
from workers import metrics
from workers.stores import close_worker_resources

log = logging.getLogger("workers")
_started: dict[str, float] = {}


@signals.setup_logging.connect
def _json_logs(loglevel: int | str | None = None, **_: Any) -> None:
    """Replace Celery's log setup with JSON lines (connecting this handler disables Celery's)."""
    from workers.logging import configure_json_logging

    configure_json_logging(loglevel or logging.INFO)


@signals.task_prerun.connect
def _prerun(task_id: str, task: Any, kwargs: dict[str, Any] | None = None, **_: Any) -> None:
    _started[task_id] = time.monotonic()
    submitted = (kwargs or {}).get("submitted_at")
    if isinstance(submitted, (int, float)):
        metrics.QUEUE_LAG.labels(task.name).observe(max(time.time() - submitted, 0.0))


@signals.task_postrun.connect
def _postrun(task_id: str, task: Any, state: str | None = None, **_: Any) -> None:
    began = _started.pop(task_id, None)
    if began is not None:
        metrics.TASK_SECONDS.labels(task.name).observe(time.monotonic() - began)
    if state in {"SUCCESS", "FAILURE"}:
        metrics.TASKS.labels(task.name, state.lower()).inc()


@signals.task_retry.connect
def _retry(sender: Any, reason: object = None, **_: Any) -> None:
    name = getattr(sender, "name", "unknown")
    metrics.TASK_RETRIES.labels(name).inc()
    cause = getattr(reason, "exc", reason)
    if isinstance(cause, StoreError):
        metrics.STORE_ERRORS.labels(cause.backend, cause.operation).inc()
    log.warning("task retry", extra={"reason": str(reason)})


@signals.task_failure.connect
def _failure(sender: Any, exception: BaseException | None = None, **_: Any) -> None:
    if isinstance(exception, StoreError):
        metrics.STORE_ERRORS.labels(exception.backend, exception.operation).inc()
    log.error("task failed", extra={"error": str(exception)})


@signals.worker_process_shutdown.connect
def _close(**_: Any) -> None:
    close_worker_resources()


@signals.worker_ready.connect
def _reconcile_on_start(sender: Any = None, **_: Any) -> None:
    """A starting worker asks for one reconciliation: work whose messages were lost while no
    worker ran (or with the broker's restart) is re-derived from the ledger."""
    from eywa.jobs import RECONCILE_TASK

    try:
        celery = getattr(sender, "app", None)
        if celery is not None:
            celery.send_task(RECONCILE_TASK)
    except (OperationalError, OSError) as exc:  # the broker is down: the beat sends it later
        log.warning("reconcile on start not sent", extra={"error": str(exc)})
