"""The API's side of the job queue: ``CeleryJobRunner`` sends Level 1 jobs to the workers.

The sender never imports ``workers`` (nor the workers ``services``): both build their Celery
app from ``eywa.jobs.celery_config`` and name tasks with the constants of ``eywa.jobs``.

A job is a record in the store (``eywa.jobs.JobBook``, the API's ``Memory``) and one
``eywa.extract_and_validate`` task whose Celery task id is the job id. The record comes first
and is durable; the message is only a wake-up. The job's state is derived from the stage
ledger (done when its turns owe nothing), refined with Celery's own state while it is pending
(``running`` once a worker started it), so a broker that restarts empty loses no job: the
beat re-derives the lost work from the ledger (``eywa.reconcile``) and finished jobs still
answer, with or without Redis.

Because the message is only a wake-up, a write does not wait for it: ``dispatch`` hands it to
one sender thread and returns, so an acknowledgement never waits for a Redis round trip (nor
for the broker's lock and producer pool). A message the sender cannot deliver (Redis down) is
logged and left to the beat, exactly like one Redis lost after taking it; ``close`` sends
what is still queued.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from celery import Celery
from celery.backends.redis import RedisBackend
from celery.result import AsyncResult
from kombu.exceptions import OperationalError as KombuOperationalError
from redis import Redis
from redis.exceptions import RedisError

from eywa.errors import StoreError
from eywa.jobs import LEVEL1_TASK, JobBook, JobState, JobStatus, celery_config
from eywa.settings import EywaSettings

__all__ = ["CeleryJobRunner", "SenderRedisBackend", "celery_job_runner"]

log = logging.getLogger(__name__)
TASK = LEVEL1_TASK
CLOSE_TIMEOUT_S = 30.0
"""How long ``close`` waits for the sender to deliver what is queued."""
SENDER_POOL = 64
"""Broker connections the API keeps for sending (one per request in flight, at most)."""
_STATES: dict[str, JobState] = {
    "PENDING": "pending",
    "RECEIVED": "pending",
    "STARTED": "running",
    "RETRY": "running",
    "SUCCESS": "done",
    "FAILURE": "failed",
    "REVOKED": "failed",
}


class SenderRedisBackend(RedisBackend):  # type: ignore[misc]  # celery ships no types
    """The API's result backend: it reads a job's task state and never waits for a result.

    Celery's Redis backend subscribes to a task's result channel on every ``send_task``
    (and unsubscribes once the result object is collected), behind one lock every request
    thread shares: two Redis round trips and a queue per write that nothing ever listens to.
    """

    def on_task_call(self, producer: Any, task_id: str) -> None:
        """Nothing: no one waits for the result (``status`` reads it with a plain GET)."""


@dataclass(frozen=True)
class _WakeUp:
    """One ``eywa.extract_and_validate`` message waiting for the sender thread."""

    job_id: str
    space: str
    evidence_ids: list[str]
    submitted_at: float
    request_id: str | None


class CeleryJobRunner:
    """Records Level 1 jobs in the store and wakes ``eywa worker`` processes up through Redis.

    Example:
        >>> runner = CeleryJobRunner(celery_app, Redis.from_url(url), memory)  # doctest: +SKIP
        >>> runner.status(runner.submit("alice", ids)).status  # doctest: +SKIP
        'pending'
    """

    def __init__(self, app: Celery, client: Redis, book: JobBook) -> None:
        self._app = app
        self._redis = client
        self._book = book
        self._outbox: queue.SimpleQueue[_WakeUp | None] = queue.SimpleQueue()
        self._sender: threading.Thread | None = None
        self._lock = threading.Lock()
        self._closed = False

    def submit(
        self, space: str, evidence_ids: Sequence[str], request_id: str | None = None, author: str | None = None
    ) -> str:
        """Record the job, then send its task and wait until the broker has it; returns the
        job id.

        Raises:
            StoreError: the store failed, or Redis (the broker) cannot be reached; in the
                latter case the job is recorded and the beat will run it.
        """
        job_id = self._book.record_job(space, evidence_ids, author=author, request_id=request_id)
        self._send(_WakeUp(job_id, space, list(evidence_ids), time.time(), request_id))
        return job_id

    def dispatch(
        self, job_id: str, space: str, evidence_ids: Sequence[str], request_id: str | None = None
    ) -> None:
        """Queue the task of a job already recorded, through the sender thread: returns at
        once (see the module docstring). After ``close`` it sends in the caller's thread."""
        wake_up = _WakeUp(job_id, space, list(evidence_ids), time.time(), request_id)
        with self._lock:
            if not self._closed:
                if self._sender is None:
                    self._sender = threading.Thread(target=self._send_queued, name="eywa-job-sender", daemon=True)
                    self._sender.start()
                self._outbox.put(wake_up)
                return
        self._deliver(wake_up)

    def close(self) -> None:
        """Send what is queued (waiting at most ``CLOSE_TIMEOUT_S``) and stop the sender."""
        with self._lock:
            self._closed = True
            sender, self._sender = self._sender, None
        if sender is not None:
            self._outbox.put(None)
            sender.join(timeout=CLOSE_TIMEOUT_S)

    def _send_queued(self) -> None:
        while (wake_up := self._outbox.get()) is not None:
            try:
                self._deliver(wake_up)
            except Exception:  # noqa: BLE001 - the sender must outlive any one message; the beat resends it
                log.exception("job %s not queued, the beat will run it", wake_up.job_id)

    def _deliver(self, wake_up: _WakeUp) -> None:
        """Send, and leave a message Redis did not take to the beat (logged)."""
        try:
            self._send(wake_up)
        except StoreError as exc:
            log.warning("job %s not queued, the beat will run it: %s", wake_up.job_id, exc)

    def _send(self, wake_up: _WakeUp) -> None:
        """Send the task of ``wake_up`` (task id: the job id).

        Raises:
            StoreError: Redis (the broker) cannot be reached.
        """
        try:
            self._app.send_task(
                TASK, args=[wake_up.space, wake_up.evidence_ids], kwargs={"submitted_at": wake_up.submitted_at},
                task_id=wake_up.job_id, headers={"request_id": wake_up.request_id} if wake_up.request_id else None,
            )  # fmt: skip
        except (RedisError, OSError, KombuOperationalError) as exc:
            raise StoreError("redis", "submit", str(exc)) from exc

    def status(self, job_id: str) -> JobStatus:
        """The job's state from the store, ``running`` while a worker holds it, with the
        task's counts once done (when Redis still has them).

        Raises:
            NotFoundError: no such job.
            StoreError: the store failed.
        """
        found = self._book.job(job_id)
        try:
            result = AsyncResult(job_id, app=self._app)
            celery_state = _STATES.get(result.state, "running")
            payload = result.result
        except (RedisError, OSError):
            return found  # the broker is down: the store's answer stands
        detail = dict(found.detail)
        state: JobState = found.status
        if state == "done" and celery_state == "running":
            state = "running"  # the turns are done, the task is returning its counts
        elif state == "done" and celery_state == "done" and isinstance(payload, dict):
            detail.update({k: v for k, v in payload.items() if k not in detail})
        elif state == "pending" and celery_state in {"running", "failed"}:
            state = celery_state
            if celery_state == "failed":
                detail["error"] = str(payload)
        return JobStatus(id=job_id, status=state, detail=detail)

    def ping(self) -> bool:
        """Whether the broker answers."""
        try:
            return bool(self._redis.ping())
        except (RedisError, OSError):
            return False


def celery_job_runner(settings: EywaSettings, book: JobBook) -> CeleryJobRunner:
    """A runner on the broker of ``settings`` (a Celery app of its own, not the current one)
    that records jobs in ``book``.

    Raises:
        ConfigurationError: ``EYWA_REDIS_URL`` is not set.
    """
    config = celery_config(settings)
    app = Celery("eywa-api", set_as_current=False)
    app.conf.update(config)
    app.conf.result_backend = f"{__name__}:{SenderRedisBackend.__name__}+{config['result_backend']}"
    # One backend for every request thread (Celery builds one per thread otherwise, loading
    # its entry points again in each new thread of the server's pool), and a producer per
    # concurrent request rather than a queue for Celery's default ten.
    app.conf.result_backend_thread_safe = True
    app.conf.broker_pool_limit = max(int(config.get("broker_pool_limit") or 0), SENDER_POOL)
    # Bounded waits on the API's side only: the workers' blocking reads of the queue must not
    # time out (``eywa.jobs.celery_config`` stays as both sides share it).
    # ``EYWA_REDIS_TIMEOUT_S``: without a bound, a Redis that stopped answering (paused, or
    # behind a black hole) held each ``GET /v1/jobs/{id}`` for as long as it did not answer, a
    # request thread each, and ``/readyz`` left a pinging thread behind at every call.
    timeout = settings.redis_timeout_s
    bounded = {"socket_timeout": timeout, "socket_connect_timeout": timeout}
    app.conf.broker_transport_options = {**config["broker_transport_options"], **bounded}
    app.conf.redis_socket_timeout = timeout
    app.conf.redis_socket_connect_timeout = timeout
    return CeleryJobRunner(app, Redis.from_url(config["broker_url"], **bounded), book)
