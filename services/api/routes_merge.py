"""Identity merges over HTTP: the proposals with their evidence and the merges (``read``),
accepting and undoing one (``write``). A merge is a ``SAME_AS`` edge, never a rewrite: reads
of either entity see both while it is active, and an undone merge is kept for audit."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
from pydantic import BaseModel, ConfigDict, WithJsonSchema

from eywa.errors import NotFoundError
from eywa.nous.identity import MergeProposal
from eywa.stores.dimensions import SameAsEdge
from services.api.bodies import UniqueKeysRoute
from services.api.deps import Ctx, Reader, Writer
from services.api.routes_write import SpacePath

router = APIRouter(prefix="/v1", tags=["merge"], route_class=UniqueKeysRoute)


class MergeRequest(BaseModel):
    """Two entities of the space, by name (case and spacing do not matter)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # Names too travel as sent: typed as ``str``, a name of another JSON type was the
    # schema's ``validation_error`` where ``Memory.accept_merge`` says ``invalid_input``.
    source: Annotated[Any, WithJsonSchema({"type": "string", "description": "One entity's name."})]
    target: Annotated[Any, WithJsonSchema({"type": "string", "description": "The other entity's name."})]
    # As sent, for the core to check (README, "Values are not converted on the way"): typed
    # as a float, pydantic's lax mode read ``true`` as 1.0 and ``"0.5"`` as 0.5 and merged,
    # where ``Memory.accept_merge`` refuses both.
    score: Annotated[Any, WithJsonSchema(
        {"type": "number", "default": 1.0, "description": "How sure the merge is, in [0, 1] (a proposal's score)."}
    )] = 1.0  # fmt: skip


class UndoRequest(BaseModel):
    """The two entities of an active merge (either direction)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: Annotated[Any, WithJsonSchema({"type": "string"})]
    target: Annotated[Any, WithJsonSchema({"type": "string"})]


@router.get("/spaces/{space}/merges", response_model=list[SameAsEdge], summary="Identity merges")
def merges(
    space: SpacePath,
    key: Reader,
    ctx: Ctx,
    include_removed: Annotated[str, Query(
        description="Also the undone merges (with removed_at): true or false.", json_schema_extra={"type": "boolean"}
    )] = "false",  # fmt: skip
) -> list[SameAsEdge]:
    """The merges of the space: active ones, or all with ``include_removed``."""
    return ctx.memory.merges(space, _flag(include_removed))


_FLAGS = {"true": True, "1": True, "yes": True, "on": True, "false": False, "0": False, "no": False, "off": False}


def _flag(text: str) -> Any:
    """A query's yes/no as a bool (the words FastAPI's ``bool`` took); any other text goes to
    the core as sent, which refuses it (``invalid_input``), where FastAPI answered
    ``validation_error``."""
    return _FLAGS.get(text.strip().lower(), text)


@router.get("/spaces/{space}/merges/proposals", response_model=list[MergeProposal], summary="Proposed merges")
def proposals(space: SpacePath, key: Reader, ctx: Ctx) -> list[MergeProposal]:
    """Pairs of entities that look like one, best first, with their evidence: name
    compatibility (``name_score``) and the symmetrised KL divergence in bits of their shared
    dimensions (``divergence_bits``, ``shared_attributes``). Merged pairs are left out."""
    return ctx.memory.propose_merges(space)


@router.post("/spaces/{space}/merges", response_model=SameAsEdge, status_code=201, summary="Accept a merge")
def accept(space: SpacePath, body: MergeRequest, key: Writer, ctx: Ctx) -> SameAsEdge:
    """Record ``source`` SAME_AS ``target``, with the calling key's id as ``author``. 404 for a name that is no entity of the space,
    422 for the same entity twice or a score outside [0, 1]; nothing is merged."""
    return ctx.memory.accept_merge(space, body.source, body.target, body.score, author=key.id)


@router.post("/spaces/{space}/merges/undo", status_code=204, summary="Undo a merge")
def undo(space: SpacePath, body: UndoRequest, key: Writer, ctx: Ctx) -> Response:
    """Deactivate the merge of the two entities (kept, with ``removed_at`` and the calling
    key's id as ``removed_by``; 204). 404 when
    they are not merged directly."""
    if not ctx.memory.undo_merge(space, body.source, body.target, author=key.id):
        raise NotFoundError("merge", space, f"{body.source} / {body.target}")
    return Response(status_code=204)
