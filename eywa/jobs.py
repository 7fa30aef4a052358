"""Level 1 jobs: the seam between an entry point that stores turns and whatever runs Level 1.

``POST /v1/spaces/{space}/turns`` stores turns at once (Level 0) and hands their evidence ids
to a ``JobRunner`` for Level 1 (extraction, validation, dimensions). A job is a record in the
store (a ``JobBook``: ``Memory`` is one) whose state is derived from the stage ledger: done
when none of its turns still owes Level 1 or its dimension update. So a job survives a broker
restart, and reads the same on every API replica. Two runners:

- ``InlineJobRunner`` (here): the API's own ``Memory`` keeps its extractor and runs Level 1
  inside ``remember(wait=True)``, so by the time a job is submitted the work is already done.
  This is the default for ``eywa serve``.
- ``services.queue.CeleryJobRunner`` sends each job to the Celery workers of ``workers/``;
  the API process then opens its ``Memory`` without an extractor and the workers do Level 1.
  The message is only a wake-up: a lost one is re-derived from the ledger by the beat.

Sender and consumer are separate entry points that never import each other; what both sides
must agree on lives here as plain values: the task names, the queue, and the Celery
configuration built from settings (``celery_config``, a dict: the core imports no Celery).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from eywa.errors import ConfigurationError
from eywa.settings import EywaSettings

JobState = Literal["pending", "running", "done", "failed"]

__all__ = [
    "LEVEL1_TASK",
    "MATERIALISE_DECAY_TASK",
    "QUEUE",
    "RECONCILE_TASK",
    "REPAIR_TASK",
    "RETENTION_TASK",
    "UPDATE_DIMENSIONS_TASK",
    "InlineJobRunner",
    "JobBook",
    "JobRunner",
    "JobState",
    "JobStatus",
    "celery_config",
]

QUEUE: Final = "eywa"
LEVEL1_TASK: Final = "eywa.extract_and_validate"
UPDATE_DIMENSIONS_TASK: Final = "eywa.update_dimensions"
REPAIR_TASK: Final = "eywa.repair_candidates"
MATERIALISE_DECAY_TASK: Final = "eywa.materialise_decay"
RECONCILE_TASK: Final = "eywa.reconcile"
RETENTION_TASK: Final = "eywa.apply_retention"


class JobStatus(BaseModel):
    """Where one Level 1 job stands. ``detail`` holds runner-specific facts (counts, error)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    status: JobState
    detail: dict[str, Any] = Field(default_factory=dict)


class JobRunner(Protocol):
    """Runs Level 1 for evidence already stored by the API."""

    def submit(
        self, space: str, evidence_ids: Sequence[str], request_id: str | None = None, author: str | None = None
    ) -> str:
        """Queue Level 1 for ``evidence_ids`` of ``space``; returns the job id.

        ``request_id`` (the API request's) travels with the job for log correlation;
        ``author`` (the caller's key id) is recorded with it.

        Raises:
            StoreError: the runner's broker cannot be reached.
        """
        ...

    def dispatch(
        self, job_id: str, space: str, evidence_ids: Sequence[str], request_id: str | None = None
    ) -> None:
        """Queue a job already recorded (``JobBook.record_job``, or ``Memory.remember_job``
        in the write's own hold of the store): ``submit`` without the recording. It may
        return before a broker has the message: the job is recorded, so a message lost on
        the way is sent again by the reconciliation, like one a broker lost. Never raises.
        """
        ...

    def close(self) -> None:
        """Finish queueing what ``dispatch`` accepted (the API calls it on shutdown)."""
        ...

    def status(self, job_id: str) -> JobStatus:
        """The job's state. ``detail["space"]`` must name the job's space: the API checks
        the caller's key against it.

        Raises:
            NotFoundError: no such job.
        """
        ...

    def ping(self) -> bool:
        """Whether the runner (its broker, for a queue) is reachable; used by ``/readyz``."""
        ...


class JobBook(Protocol):
    """Where jobs are recorded and their state derived (``eywa.memory.Memory`` is one)."""

    def record_job(
        self, space: str, evidence_ids: Sequence[str], *, author: str | None = None, request_id: str | None = None
    ) -> str:
        """Record a job for turns already stored; returns its id.

        Raises:
            StoreError: the store failed.
        """
        ...

    def job(self, job_id: str) -> JobStatus:
        """The job's state, derived from its turns' pending stages.

        Raises:
            NotFoundError: no such job.
        """
        ...


class InlineJobRunner:
    """Jobs whose Level 1 ran in-process (``Memory.remember(wait=True)``) before submission.

    Each job is recorded in the store, so ``GET /v1/jobs/{id}`` answers after a restart and
    on any replica; it reads ``done`` at once unless a stage failed (the reconciler retries
    it, and the job reads ``done`` when that succeeds).
    """

    def __init__(self, book: JobBook) -> None:
        self._book = book

    def submit(
        self, space: str, evidence_ids: Sequence[str], request_id: str | None = None, author: str | None = None
    ) -> str:
        """Record a job for ``evidence_ids``; returns its id.

        Raises:
            StoreError: the store failed.
        """
        return self._book.record_job(space, evidence_ids, author=author, request_id=request_id)

    def dispatch(
        self, job_id: str, space: str, evidence_ids: Sequence[str], request_id: str | None = None
    ) -> None:
        """Nothing to queue: Level 1 runs in the API process (``Memory.remember``)."""

    def close(self) -> None:
        """Nothing queued."""

    def status(self, job_id: str) -> JobStatus:
        """The recorded job's state.

        Raises:
            NotFoundError: no such job.
        """
        return self._book.job(job_id)

    def ping(self) -> bool:
        """Always reachable: there is no broker."""
        return True


def celery_config(settings: EywaSettings) -> dict[str, Any]:
    """The Celery configuration both the sender (API) and the consumer (workers) use.

    Plain values, so the core stays free of Celery:

    - ``EYWA_REDIS_URL`` is broker and result backend;
    - ``task_acks_late`` + ``task_reject_on_worker_lost``: a message is acknowledged only after
      its task returned, so a worker killed mid-task leaves the message to be redelivered
      (after ``EYWA_CELERY_VISIBILITY_TIMEOUT_S`` with Redis); tasks are idempotent, so
      running one twice writes nothing twice;
    - ``worker_prefetch_multiplier=1``: a worker holds one unacknowledged message per slot, so
      a crash strands at most that many and long Level 1 tasks are spread over workers;
    - JSON only (no pickle), tracked ``STARTED`` state (the API reports ``running``);
    - beat schedule: reconciliation of Level 1 work the ledger holds but no message carries
      (a lost message, a broker restarted without persistence; never expired, so it runs
      even behind a long queue, and piled-up copies return at once), repair of ``repair``
      candidates, decay materialisation for dashboards, and retention erasures
      (``EYWA_RETENTION_DAYS``).

    Raises:
        ConfigurationError: ``EYWA_REDIS_URL`` is not set.
    """
    if not settings.redis_url:
        raise ConfigurationError("the job queue needs EYWA_REDIS_URL (e.g. redis://127.0.0.1:6379/0)")
    # Sweep for expired unacknowledged messages (a dead worker's) every few seconds, bounded by
    # the visibility timeout, instead of kombu's default of about 100 s.
    sweep = max(1, min(10, settings.celery_visibility_timeout_s // 4))
    transport = {
        "visibility_timeout": settings.celery_visibility_timeout_s,
        "unacked_restore_interval": sweep,
        "unacked_restore_throttle": 1,
    }
    return {
        "broker_url": settings.redis_url,
        "result_backend": settings.redis_url,
        "broker_transport_options": transport,
        "result_backend_transport_options": transport,
        "broker_connection_retry_on_startup": True,
        "task_default_queue": QUEUE,
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "task_track_started": True,
        "worker_prefetch_multiplier": 1,
        "task_serializer": "json",
        "result_serializer": "json",
        "accept_content": ["json"],
        "result_expires": settings.celery_result_expires_s,
        "result_extended": True,
        "worker_hijack_root_logger": False,
        "enable_utc": True,
        "beat_schedule": {
            "reconcile": {
                "task": RECONCILE_TASK,
                "schedule": settings.reconcile_interval_s,
                # No expiry: under load the message waits behind the work queue and still
                # runs (an expiring one was discarded exactly when the queue was long); the
                # copies that piled up meanwhile find a recent run and return at once.
                "kwargs": {"skip_within_s": settings.reconcile_interval_s / 2},
            },
            "repair-candidates": {
                "task": REPAIR_TASK,
                "schedule": settings.repair_interval_s,
                "options": {"expires": settings.repair_interval_s},
            },
            "materialise-decay": {
                "task": MATERIALISE_DECAY_TASK,
                "schedule": settings.decay_interval_s,
                "options": {"expires": settings.decay_interval_s},
            },
            "apply-retention": {
                "task": RETENTION_TASK,
                "schedule": settings.retention_interval_s,
                "options": {"expires": settings.retention_interval_s},
            },
        },
    }
