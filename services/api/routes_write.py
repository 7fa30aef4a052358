"""``POST /v1/spaces/{space}/turns`` and ``GET /v1/jobs/{job_id}``.

The routes are ``async def`` and call the (synchronous) core through ``run_in_threadpool``:
one thread hop per request. A sync route would cost two, since FastAPI then validates the
returned model in the thread pool too (``serialize_response``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request
from starlette.concurrency import run_in_threadpool

from eywa.errors import NotFoundError, OverloadedError
from eywa.jobs import JobStatus
from eywa.stores.keys import ApiKey
from services.api.bodies import UniqueKeysRoute
from services.api.deps import Ctx, Writer, authenticate, record_space
from services.api.schemas import JobRef, RememberRequest, RememberResponse

router = APIRouter(prefix="/v1", tags=["write"], route_class=UniqueKeysRoute)

SpacePath = Annotated[str, Path(description="The memory space (checked by the core: printable, at most 200 characters, not '*').")]


@router.post("/spaces/{space}/turns", response_model=RememberResponse, status_code=201, summary="Remember turns")
async def remember(space: SpacePath, body: RememberRequest, key: Writer, ctx: Ctx) -> RememberResponse:
    """Store a batch of turns (Level 0) and return their evidence ids at once.

    The author of every turn is the calling key's id. Level 1 (extraction, validation,
    dimensions) is handed to the job runner; poll ``GET /v1/jobs/{id}``. With
    ``EYWA_LEVEL1_WAIT=false`` the answer comes once Level 0 is committed and the inline
    runner embeds and runs Level 1 after it, in the background (the job reads ``pending``
    until then). The batch is
    checked by the core's input contract like a Python call: over a limit it is refused
    whole (413 ``too_many_turns``, 422 ``turn_too_long`` / ``limit_exceeded``, 413
    ``quota_exceeded``), and so is a batch sent while the Level 1 backlog is over
    ``EYWA_MAX_BACKLOG`` or more turns wait for their embedding than
    ``EYWA_MAX_EMBED_BACKLOG`` (503 ``overloaded`` with ``Retry-After``; the problem's
    ``stage`` says which) or one holding an erased turn (410): nothing is written.
    """
    try:
        # The job is recorded in the write's own Level 0 transaction and its state derived
        # from the batch (one transaction, one wait for the embedded connection); the runner
        # then only queues it (the Celery runner's sender thread takes it to Redis: the
        # answer waits for no broker).
        ids, job = await run_in_threadpool(
            ctx.memory.remember_job, space, body.turns, author=key.id, wait=ctx.settings.level1_wait
        )
    except OverloadedError as exc:
        ctx.metrics.writes_refused.labels(exc.stage).inc()  # eywa_writes_refused_total{stage}
        raise
    ctx.metrics.turns_ingested.inc(len(ids))
    ctx.jobs.dispatch(job.id, space, ids)
    # The acknowledgement reports the job as the store derives it (done or pending): asking
    # the queue's result backend too, a moment after sending the task, would add two Redis
    # round trips to every write to learn what the store already says.
    return RememberResponse(ids=ids, job=JobRef(id=job.id, status=job.status), author=key.id)


@router.get("/jobs/{job_id}", response_model=JobStatus, summary="Level 1 job status")
async def job_status(
    job_id: Annotated[str, Path(description="A job id, checked by the core (EYWA_MAX_LABEL_CHARS).")],
    request: Request,
    key: Annotated[ApiKey, Depends(authenticate)],
    ctx: Ctx,
) -> JobStatus:
    """Where a Level 1 job stands. The key needs ``read`` on the job's space; a job of a
    space the key cannot read answers 404 exactly like an unknown one, so job ids of other
    spaces cannot be probed."""
    status = await run_in_threadpool(ctx.jobs.status, job_id)
    space = str(status.detail.get("space", ""))
    record_space(request, space)
    if not key.allows(space, "read"):
        raise NotFoundError("job", "*", job_id)
    return status
