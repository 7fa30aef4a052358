"""Portability over HTTP: ``GET /v1/spaces/{space}/export`` (streamed NDJSON) and
``POST /v1/spaces/{space}/import`` (an NDJSON body into an empty space).

Export needs the ``admin`` scope on the space, not ``read``: a ``read`` key asks questions
and gets a budgeted context back, while an export hands over everything at once — every
turn with its metadata, refused candidates, correction reasons, erasure records — which is
what a backup operator needs and what a leaked agent key must not allow. Import needs
``write`` (it only adds to an empty space; a non-empty one is refused 409).

The export is read before the response starts (``Memory.export_space`` reads on the
reconciler's thread and holds it in memory), so an error is a problem+json answer, never a
stream cut short. An import body is limited like every body (``EYWA_MAX_BODY_BYTES``, 413
above it); larger spaces go through ``eywa import`` against the store.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from eywa.portability import ExportHeader, ExportRecord, ImportReport, record_json
from eywa.stores.keys import ApiKey
from services.api.bodies import UniqueKeysRoute
from services.api.deps import Ctx, Writer, require
from services.api.routes_write import SpacePath

router = APIRouter(prefix="/v1", tags=["portability"], route_class=UniqueKeysRoute)

NDJSON = "application/x-ndjson"
Exporter = Annotated[ApiKey, Depends(require("admin"))]


def _lines(records: list[ExportHeader | ExportRecord]) -> Iterator[str]:
    for record in records:
        yield record_json(record) + "\n"


@router.get(
    "/spaces/{space}/export", summary="Export a space as NDJSON",
    responses={200: {"content": {NDJSON: {}}, "description": "A header line, then one record per line."}},
)  # fmt: skip
def export(space: SpacePath, key: Exporter, ctx: Ctx) -> StreamingResponse:
    """The space as JSON lines: a header (format, version, space, time, embedder, rules),
    then its entities, turns (metadata, signals, mentions), beliefs (cited spans,
    validation), candidates, dimensions, deltas (provenance), merges, corrections and erasure
    records (never erased content). Vectors are not exported. Needs ``admin`` on the space."""
    records = list(ctx.memory.export_space(space))
    return StreamingResponse(_lines(records), media_type=NDJSON)


@router.post("/spaces/{space}/import", response_model=ImportReport, summary="Import an export into an empty space")
async def import_(space: SpacePath, request: Request, key: Writer, ctx: Ctx) -> ImportReport:
    """Restore an export (the NDJSON ``GET …/export`` returns) into the empty space, as
    exported: nothing is extracted again, turns and beliefs are embedded again. A bad line:
    422 naming ``line.<n>``; another space's export: 422; a non-empty space: 409; nothing is
    written in either case."""
    body = await request.body()
    return await run_in_threadpool(ctx.memory.import_space, space, body.splitlines())
