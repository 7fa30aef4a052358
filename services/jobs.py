"""Level 1 jobs: the stable seam between the HTTP API and whatever runs extraction.

``POST /v1/spaces/{space}/turns`` stores turns at once (Level 0) and hands their evidence ids
to a ``JobRunner`` for Level 1 (extraction, validation, dimensions). Two implementations:

- ``InlineJobRunner`` (here): the API's own ``Memory`` keeps its extractor and runs Level 1
  inside ``remember(wait=True)``, so by the time a job is submitted the work is already done.
  This is the default for ``eywa serve`` on the embedded store.
- A Celery-backed runner in ``workers/`` implements the same protocol; the API process then
  opens its ``Memory`` with ``extractor="none"`` and the workers do Level 1.

Keep this protocol stable: ``workers/`` depends on it.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Sequence
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from eywa.errors import NotFoundError

JobState = Literal["pending", "running", "done", "failed"]

__all__ = ["InlineJobRunner", "JobRunner", "JobState", "JobStatus"]


class JobStatus(BaseModel):
    """Where one Level 1 job stands. ``detail`` holds runner-specific facts (counts, error)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    status: JobState
    detail: dict[str, Any] = Field(default_factory=dict)


class JobRunner(Protocol):
    """Runs Level 1 for evidence already stored by the API."""

    def submit(self, space: str, evidence_ids: Sequence[str]) -> str:
        """Queue Level 1 for ``evidence_ids`` of ``space``; returns the job id."""
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


class InlineJobRunner:
    """Jobs whose Level 1 already ran in-process (``Memory.remember(wait=True)``).

    It only records the job so ``GET /v1/jobs/{id}`` answers consistently; jobs are kept in
    memory (bounded) and vanish when the process exits.
    """

    def __init__(self, max_jobs: int = 10_000) -> None:
        self._jobs: dict[str, JobStatus] = {}
        self._spaces: dict[str, str] = {}
        self._max_jobs = max_jobs
        self._lock = threading.Lock()

    def submit(self, space: str, evidence_ids: Sequence[str]) -> str:
        """Record a finished job for ``evidence_ids``; returns its id."""
        job_id = "job_" + uuid.uuid4().hex
        status = JobStatus(id=job_id, status="done", detail={"space": space, "evidence": len(evidence_ids)})
        with self._lock:
            if len(self._jobs) >= self._max_jobs:
                oldest = next(iter(self._jobs))
                del self._jobs[oldest]
                self._spaces.pop(oldest, None)
            self._jobs[job_id] = status
            self._spaces[job_id] = space
        return job_id

    def status(self, job_id: str) -> JobStatus:
        """The recorded job.

        Raises:
            NotFoundError: no such job (or it was evicted).
        """
        with self._lock:
            found = self._jobs.get(job_id)
        if found is None:
            raise NotFoundError("job", "*", job_id)
        return found

    def ping(self) -> bool:
        """Always reachable: there is no broker."""
        return True
