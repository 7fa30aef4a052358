"""The API's side of the job queue: ``CeleryJobRunner`` sends Level 1 jobs to the workers.

The sender never imports ``workers`` (nor the workers ``services``): both build their Celery
app from ``eywa.jobs.celery_config`` and name tasks with the constants of ``eywa.jobs``.

A job is one ``eywa.extract_and_validate`` task; its id is the Celery task id. Celery's
result backend cannot tell an unknown id from a queued one (both read ``PENDING``), and the
API must know a job's space to check the caller's key, so ``submit`` also stores a small
record (space, number of turns, time) under ``eywa:job:<id>`` with the results' lifetime.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Sequence
from typing import Any

from celery import Celery
from celery.result import AsyncResult
from redis import Redis
from redis.exceptions import RedisError

from eywa.errors import NotFoundError, StoreError
from eywa.jobs import LEVEL1_TASK, JobState, JobStatus, celery_config
from eywa.settings import EywaSettings

__all__ = ["CeleryJobRunner", "celery_job_runner"]

TASK = LEVEL1_TASK
_STATES: dict[str, JobState] = {
    "PENDING": "pending",
    "RECEIVED": "pending",
    "STARTED": "running",
    "RETRY": "running",
    "SUCCESS": "done",
    "FAILURE": "failed",
    "REVOKED": "failed",
}


class CeleryJobRunner:
    """Queues Level 1 jobs on Redis for ``eywa worker`` processes.

    Example:
        >>> runner = CeleryJobRunner(celery_app, Redis.from_url(url))  # doctest: +SKIP
        >>> runner.status(runner.submit("alice", ids)).status  # doctest: +SKIP
        'pending'
    """

    def __init__(self, app: Celery, client: Redis, ttl_s: int = 86_400) -> None:
        self._app = app
        self._redis = client
        self._ttl_s = ttl_s

    def submit(self, space: str, evidence_ids: Sequence[str], request_id: str | None = None) -> str:
        """Queue Level 1 for ``evidence_ids`` of ``space``; returns the job id.

        Raises:
            StoreError: Redis (the broker) cannot be reached.
        """
        job_id = "job_" + uuid.uuid4().hex
        now = time.time()
        record = {"space": space, "evidence": len(evidence_ids), "submitted_at": now}
        try:
            self._redis.set(_key(job_id), json.dumps(record), ex=self._ttl_s)
            self._app.send_task(
                TASK, args=[space, list(evidence_ids)], kwargs={"submitted_at": now}, task_id=job_id,
                headers={"request_id": request_id} if request_id else None,
            )
        except (RedisError, OSError) as exc:
            raise StoreError("redis", "submit", str(exc)) from exc
        return job_id

    def status(self, job_id: str) -> JobStatus:
        """The job's state, with ``detail["space"]`` and, when done, the task's counts.

        Raises:
            NotFoundError: no such job (or it expired).
            StoreError: Redis cannot be reached.
        """
        try:
            raw = self._redis.get(_key(job_id))
        except RedisError as exc:
            raise StoreError("redis", "status", str(exc)) from exc
        if raw is None:
            raise NotFoundError("job", "*", job_id)
        detail: dict[str, Any] = json.loads(raw)
        result = AsyncResult(job_id, app=self._app)
        state = _STATES.get(result.state, "running")
        if state == "done" and isinstance(result.result, dict):
            detail.update({k: v for k, v in result.result.items() if k != "space"})
        elif state == "failed":
            detail["error"] = str(result.result)
        return JobStatus(id=job_id, status=state, detail=detail)

    def ping(self) -> bool:
        """Whether the broker answers."""
        try:
            return bool(self._redis.ping())
        except (RedisError, OSError):
            return False


def _key(job_id: str) -> str:
    return f"eywa:job:{job_id}"


def celery_job_runner(settings: EywaSettings) -> CeleryJobRunner:
    """A runner on the broker of ``settings`` (a Celery app of its own, not the current one).

    Raises:
        ConfigurationError: ``EYWA_REDIS_URL`` is not set.
    """
    config = celery_config(settings)
    app = Celery("eywa-api", set_as_current=False)
    app.conf.update(config)
    return CeleryJobRunner(app, Redis.from_url(config["broker_url"]), settings.celery_result_expires_s)
