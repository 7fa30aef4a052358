"""Corrections over HTTP, with the ``write`` scope: retract or confirm a belief, accept or
dismiss a refused candidate (each recorded with the calling key's id as its author), and the
list of correction records (``read``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, ConfigDict, WithJsonSchema

from eywa.stores.corrections import CorrectionRecord
from services.api.bodies import UniqueKeysRoute
from services.api.deps import Ctx, Reader, Writer
from services.api.routes_write import SpacePath

router = APIRouter(prefix="/v1", tags=["correct"], route_class=UniqueKeysRoute)

# Ids reach ``Memory`` as sent, which checks them against EYWA_MAX_LABEL_CHARS: a bound here
# answered validation_error where every other surface says limit_exceeded.
ItemPath = Annotated[str, Path(description="A belief (bel_...) or candidate (cand_...) id.")]


class CorrectionRequest(BaseModel):
    """Why the correction is made (kept in its record; required to retract)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # As sent, for ``Memory`` to check (a reason of another JSON type: ``invalid_input``, as
    # in Python; typed, it was the schema's ``validation_error``).
    reason: Annotated[Any, WithJsonSchema(
        {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None, "description": "Why; at most 500 characters."}
    )] = None  # fmt: skip


class RetractRequest(BaseModel):
    """``POST …/beliefs/{belief_id}/retract``: the reason is required."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reason: Annotated[Any, WithJsonSchema(
        {"type": "string", "description": "Why the belief is retracted; at most 500 characters."}
    )]  # fmt: skip


@router.post("/spaces/{space}/beliefs/{belief_id}/retract", response_model=CorrectionRecord, summary="Retract a belief")
def retract(space: SpacePath, belief_id: ItemPath, body: RetractRequest, key: Writer, ctx: Ctx) -> CorrectionRecord:
    """The belief leaves every read; each dimension it changed is replayed without it; a
    belief it had superseded is active again. 404 for an unknown belief, 409 when it is
    already retracted, 422 for a blank reason: nothing changes."""
    return ctx.memory.retract_belief(space, belief_id, reason=body.reason, author=key.id)


@router.post("/spaces/{space}/beliefs/{belief_id}/confirm", response_model=CorrectionRecord, summary="Confirm a belief")
def confirm(
    space: SpacePath, belief_id: ItemPath, key: Writer, ctx: Ctx, body: CorrectionRequest | None = None
) -> CorrectionRecord:
    """The belief's observations weigh as confirmed (``reliability_before`` →
    ``reliability_after``) and its dimensions are replayed. 404 unknown, 409 retracted."""
    return ctx.memory.confirm_belief(space, belief_id, reason=body.reason if body else None, author=key.id)


@router.post("/spaces/{space}/candidates/{candidate_id}/accept", response_model=CorrectionRecord, summary="Accept a candidate")
def accept(
    space: SpacePath, candidate_id: ItemPath, key: Writer, ctx: Ctx, body: CorrectionRequest | None = None
) -> CorrectionRecord:
    """The refused candidate becomes a belief (its repaired form when the validator named a
    repair); the record's ``belief_id`` names it. 404 for an unknown candidate."""
    return ctx.memory.accept_candidate(space, candidate_id, reason=body.reason if body else None, author=key.id)


@router.post("/spaces/{space}/candidates/{candidate_id}/dismiss", response_model=CorrectionRecord, summary="Dismiss a candidate")
def dismiss(
    space: SpacePath, candidate_id: ItemPath, key: Writer, ctx: Ctx, body: CorrectionRequest | None = None
) -> CorrectionRecord:
    """A ``repair`` candidate leaves the repair queue (kept as ``rejected``). 404 unknown,
    409 when it is not in the repair queue."""
    return ctx.memory.dismiss_candidate(space, candidate_id, reason=body.reason if body else None, author=key.id)


@router.get("/spaces/{space}/corrections", response_model=list[CorrectionRecord], summary="Correction records")
def corrections(
    space: SpacePath,
    key: Reader,
    ctx: Ctx,
    target_id: Annotated[str | None, Query(description="One belief or candidate (checked by the core).")] = None,
) -> list[CorrectionRecord]:
    """Who corrected what, when and why, oldest first (never content)."""
    return ctx.memory.corrections(space, target_id)
