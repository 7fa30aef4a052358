"""Read routes of one space: recall, evidence, beliefs, candidates, explain, dimensions.

Each route is ``async def`` and calls the (synchronous) core through ``run_in_threadpool``:
one thread hop per request, where a sync route costs two (FastAPI validates a sync route's
returned model in the thread pool too).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from starlette.concurrency import run_in_threadpool

from eywa.extraction.pipeline import Explanation
from eywa.models import Belief, Candidate, Delta, Dimension, Evidence, RecallResult
from services.api.bodies import UniqueKeysRoute
from services.api.deps import Ctx, Reader
from services.api.schemas import RecallRequest

router = APIRouter(prefix="/v1/spaces/{space}", tags=["read"], route_class=UniqueKeysRoute)

# Values are checked by the core (eywa.contract), so every surface refuses alike.
SpacePath = Annotated[str, Path(description="The memory space (printable, at most 200 characters, not '*').")]
IdPath = Annotated[str, Path(description="An id (at most EYWA_MAX_LABEL_CHARS characters).")]
NamePath = Annotated[str, Path(description="A name (at most EYWA_MAX_LABEL_CHARS characters).")]
PageOffset = Annotated[int, Query(ge=0, le=1_000_000, description="Skip this many items.")]
PageLimit = Annotated[int | None, Query(ge=1, le=10_000, description="At most this many items (unset: all).")]
# A choice travels as text and the core checks it (``invalid_input``, as in Python); typed as a
# ``Literal`` here, FastAPI refused an unknown one as ``validation_error``. The schema lists them.
BeliefStatusQuery = Annotated[str, Query(
    description="active, superseded, retracted or any.",
    json_schema_extra={"enum": ["active", "superseded", "retracted", "any"]},
)]  # fmt: skip
CandidateStatusQuery = Annotated[
    str, Query(description="rejected, repair or any.", json_schema_extra={"enum": ["rejected", "repair", "any"]})
]
AsOf = Annotated[
    str | None, Query(description="As the memory stood then (ISO-8601).", json_schema_extra={"format": "date-time"})
]


@router.post("/recall", response_model=RecallResult, summary="Recall context")
async def recall(space: SpacePath, body: RecallRequest, key: Reader, ctx: Ctx) -> RecallResult:
    """Ranked, provenance-carrying context for a query; no LLM is called.

    Returns ``context`` (packed text), ``items`` (each with its evidence provenance),
    ``answer_instructions`` and a ``trace`` with per-stage timings.
    """
    result = await run_in_threadpool(  # the core checks every value (see RecallRequest)
        ctx.memory.recall, space, body.query, k=body.k, budget_tokens=body.budget_tokens, policy=body.policy,
        as_of=body.as_of,
    )  # fmt: skip
    ctx.metrics.observe_recall(result.trace.get("timings_ms", {}), result.trace.get("skipped"))
    return result


@router.get("/evidence/{evidence_id}", response_model=Evidence, summary="One stored turn")
async def evidence(space: SpacePath, evidence_id: IdPath, key: Reader, ctx: Ctx) -> Evidence:
    """The stored turn with its signals, author and metadata."""
    return await run_in_threadpool(ctx.memory.evidence, space, evidence_id)


@router.get("/beliefs", response_model=list[Belief], summary="Validated beliefs")
async def beliefs(
    space: SpacePath,
    key: Reader,
    ctx: Ctx,
    subject: Annotated[str | None, Query()] = None,
    attribute: Annotated[str | None, Query()] = None,
    status: BeliefStatusQuery = "active",
    offset: PageOffset = 0,
    limit: PageLimit = None,
) -> list[Belief]:
    """Beliefs of the space, optionally of one subject and attribute (``status=any``: all);
    ``offset``/``limit`` page through them (no limit: all)."""
    chosen: Any = None if status == "any" else status  # as sent: the core checks the choice
    found = await run_in_threadpool(ctx.memory.beliefs, space, subject, attribute, chosen)
    return found[offset : None if limit is None else offset + limit]


@router.get("/candidates", response_model=list[Candidate], summary="Refused candidates")
async def candidates(
    space: SpacePath,
    key: Reader,
    ctx: Ctx,
    status: CandidateStatusQuery = "rejected",
    offset: PageOffset = 0,
    limit: PageLimit = None,
) -> list[Candidate]:
    """Candidates the validator refused, with machine-readable reasons; ``offset``/``limit``
    page through them (no limit: all)."""
    chosen: Any = None if status == "any" else status  # as sent: the core checks the choice
    found = await run_in_threadpool(ctx.memory.candidates, space, chosen)
    return found[offset : None if limit is None else offset + limit]


@router.get("/beliefs/{belief_id}/explain", response_model=Explanation, summary="Explain a belief")
async def explain(space: SpacePath, belief_id: IdPath, key: Reader, ctx: Ctx) -> Explanation:
    """Why a belief is held: the belief, its validation report and the cited turns."""
    return await run_in_threadpool(ctx.memory.explain, space, belief_id)


@router.get("/dimensions", response_model=list[Dimension], summary="Dimensions of a space")
async def space_dimensions(
    space: SpacePath,
    key: Reader,
    ctx: Ctx,
    entity: Annotated[str | None, Query()] = None,
    as_of: AsOf = None,
) -> list[Dimension]:
    """Every dimension of the space (or of one ``entity``), decayed to ``as_of``."""
    return await run_in_threadpool(ctx.memory.dimensions, space, entity, as_of)


@router.get("/entities/{entity}/dimensions", response_model=list[Dimension], summary="Dimensions of an entity")
async def dimensions(space: SpacePath, entity: NamePath, key: Reader, ctx: Ctx, as_of: AsOf = None) -> list[Dimension]:
    """Every dimension (attribute distribution) of the entity, decayed to ``as_of``."""
    return await run_in_threadpool(ctx.memory.dimensions, space, entity, as_of)


@router.get("/entities/{entity}/dimensions/{attribute}", response_model=Dimension, summary="One dimension")
async def dimension(
    space: SpacePath, entity: NamePath, attribute: NamePath, key: Reader, ctx: Ctx, as_of: AsOf = None
) -> Dimension:
    """The belief state of (entity, attribute); 404 when nothing was observed."""
    return await run_in_threadpool(ctx.memory.dimension, space, entity, attribute, as_of)


@router.get("/entities/{entity}/dimensions/{attribute}/deltas", response_model=list[Delta], summary="Dimension log")
async def deltas(space: SpacePath, entity: NamePath, attribute: NamePath, key: Reader, ctx: Ctx) -> list[Delta]:
    """The immutable update log of one dimension, in event-time order."""
    return await run_in_threadpool(ctx.memory.deltas, space, entity, attribute)


@router.get("/stats", summary="Counts of a space")
async def stats(space: SpacePath, key: Reader, ctx: Ctx) -> dict[str, Any]:
    """Evidence, signals, entities, beliefs, candidates by reason, dimensions."""
    return await run_in_threadpool(ctx.memory.stats, space)
