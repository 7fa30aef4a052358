"""Erasure over HTTP, with the ``erase`` scope (apart from ``write``):
``POST /v1/spaces/{space}/erase``, ``DELETE /v1/spaces/{space}`` and the proof of an erasure."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from eywa.erasure import ErasureProof, ErasureReport
from services.api.bodies import UniqueKeysRoute
from services.api.deps import Ctx, Eraser
from services.api.routes_write import SpacePath
from services.api.schemas import EraseRequest

router = APIRouter(prefix="/v1", tags=["erase"], route_class=UniqueKeysRoute)


@router.post("/spaces/{space}/erase", response_model=ErasureReport, summary="Erase turns and what derives from them")
def erase(space: SpacePath, body: EraseRequest, key: Eraser, ctx: Ctx) -> ErasureReport:
    """Erase the selected turns (at least one selector; they combine with AND) and everything
    derived from them: signals, mentions, keyword rows, vectors, the neighbours' copies of
    their words, beliefs and candidates citing them; touched dimensions are replayed. The
    erasure record keeps the calling key as author, the selector, counts and keyed hashes,
    never content. No selector: 422; an evidence or external id that names no turn: 404,
    and nothing is erased."""
    return ctx.memory.forget(
        space, evidence_ids=body.evidence_ids, external_ids=body.external_ids, speaker=body.speaker,
        session=body.session, before=body.before, author=key.id,
    )  # fmt: skip


@router.delete("/spaces/{space}", response_model=ErasureReport, summary="Erase a whole space")
def drop_space(space: SpacePath, key: Eraser, ctx: Ctx) -> ErasureReport:
    """Erase every turn of the space through the same cascade (one erasure record)."""
    return ctx.memory.drop_space(space, author=key.id)


@router.get("/spaces/{space}/erasures/{erasure_id}/proof", response_model=ErasureProof, summary="Residue of an erasure")
def proof(
    space: SpacePath, erasure_id: Annotated[str, Path(description="An erasure id (er_...), checked by the core.")],
    key: Eraser, ctx: Ctx,
) -> ErasureProof:
    """Items still holding an erased id, per kind, from the graph, keyword index and vectors
    (all 0 proves the erasure); ``same_text_kept`` counts other turns with the very same text."""
    return ctx.memory.erasure_proof(space, erasure_id)
