"""``POST /v1/spaces/{space}/turns`` and ``GET /v1/jobs/{job_id}``."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request

from services.api.deps import Ctx, Writer, admit, authenticate, authorize_space
from services.api.errors import ApiProblem
from services.api.schemas import JobRef, RememberRequest, RememberResponse
from eywa.jobs import JobStatus
from eywa.stores.keys import ApiKey

router = APIRouter(prefix="/v1", tags=["write"])

SpacePath = Annotated[str, Path(min_length=1, max_length=200, description="The memory space.")]


@router.post("/spaces/{space}/turns", response_model=RememberResponse, status_code=201, summary="Remember turns")
def remember(space: SpacePath, body: RememberRequest, key: Writer, ctx: Ctx) -> RememberResponse:
    """Store a batch of turns (Level 0) and return their evidence ids at once.

    The author of every turn is the calling key's id. Level 1 (extraction, validation,
    dimensions) is handed to the job runner; poll ``GET /v1/jobs/{id}``. A batch over the
    limits is refused whole (413 for too many turns, 422 for a turn too long), and so is a
    batch sent while the Level 1 backlog is over ``EYWA_MAX_BACKLOG`` (503 with
    ``Retry-After``) or one holding an erased turn (410): nothing is written.
    """
    settings = ctx.settings
    if len(body.turns) > settings.max_turns_per_batch:
        raise ApiProblem(
            413, "too_many_turns", "Payload too large",
            f"{len(body.turns)} turns exceed the limit of {settings.max_turns_per_batch} per batch",
            errors=[{"field": "body.turns", "message": f"at most {settings.max_turns_per_batch} turns"}],
        )
    too_long = [
        {"field": f"body.turns.{i}.text", "message": f"at most {settings.max_chars_per_turn} characters"}
        for i, turn in enumerate(body.turns)
        if len(turn.text) > settings.max_chars_per_turn
    ]
    if too_long:
        raise ApiProblem(
            422, "turn_too_long", "Turn too long",
            f"{len(too_long)} turn(s) exceed {settings.max_chars_per_turn} characters", errors=too_long,
        )
    ids = ctx.memory.remember(space, body.turns, author=key.id, wait=True)
    ctx.metrics.turns_ingested.inc(len(ids))
    job_id = ctx.jobs.submit(space, ids, author=key.id)
    job = ctx.jobs.status(job_id)
    return RememberResponse(ids=ids, job=JobRef(id=job.id, status=job.status), author=key.id)


@router.get("/jobs/{job_id}", response_model=JobStatus, summary="Level 1 job status")
def job_status(
    job_id: Annotated[str, Path(min_length=1, max_length=200)],
    request: Request,
    key: Annotated[ApiKey, Depends(authenticate)],
    ctx: Ctx,
) -> JobStatus:
    """Where a Level 1 job stands. The key needs ``read`` on the job's space."""
    admit(request, key)
    status = ctx.jobs.status(job_id)
    authorize_space(request, key, str(status.detail.get("space", "")), "read")
    return status
