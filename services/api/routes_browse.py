"""Browse routes the console's pages are built on: the caller's spaces, a space's timeline,
its entities (``services.api.browse`` answers both the JSON and the pages)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query

from eywa.models import Evidence
from eywa.stores.keys import ApiKey
from services.api.bodies import UniqueKeysRoute
from services.api import browse
from services.api.deps import Ctx, Reader, require
from services.api.routes_read import SpacePath

router = APIRouter(tags=["browse"], route_class=UniqueKeysRoute)
Offset = Annotated[int, Query(ge=0, le=1_000_000, description="Skip this many items.")]
Limit = Annotated[int, Query(ge=1, le=500, description="At most this many items.")]
AnySpaceReader = Annotated[ApiKey, Depends(require("read", on="any"))]


@router.get("/v1/spaces", response_model=browse.Page[browse.SpaceSummary], summary="Spaces this key can read")
def spaces(key: AnySpaceReader, ctx: Ctx, offset: Offset = 0, limit: Limit = 50) -> browse.Page[browse.SpaceSummary]:
    """The spaces holding evidence that this key may read, with their counts: turns, active
    beliefs, dimensions, refused candidates, erasures and turns recorded in the last hour
    (one grouped store read per page, whatever it lists)."""
    page = browse.page_of(browse.readable_spaces(ctx.memory, key), offset, limit)
    return browse.Page(
        items=browse.space_summaries(ctx.memory, page.items),
        offset=page.offset, limit=page.limit, next_offset=page.next_offset,
    )  # fmt: skip


_TIME: dict[str, Any] = {"format": "date-time"}


@router.get("/v1/spaces/{space}/timeline", response_model=browse.Page[Evidence], summary="Turns in event time")
def timeline(
    space: SpacePath,
    key: Reader,
    ctx: Ctx,
    speaker: Annotated[str | None, Query(description="Only this speaker's turns (at most EYWA_MAX_LABEL_CHARS characters).")] = None,
    since: Annotated[str | None, Query(description="Observed at or after (ISO-8601).", json_schema_extra=_TIME)] = None,
    until: Annotated[str | None, Query(description="Observed before (ISO-8601).", json_schema_extra=_TIME)] = None,
    offset: Offset = 0,
    limit: Limit = 50,
) -> browse.Page[Evidence]:
    """The turns of the space ordered by when they were said, with their signals.

    ``since`` and ``until`` reach the core's time check as sent (text), as a recall's
    ``as_of`` does: typed as datetimes, pydantic read ``since=1700000000`` as Unix time."""
    return browse.timeline(ctx.memory, space, speaker=speaker, since=since, until=until, offset=offset, limit=limit)


@router.get("/v1/spaces/{space}/entities", response_model=browse.Page[browse.EntitySummary], summary="Entities")
def entities(
    space: SpacePath, key: Reader, ctx: Ctx, offset: Offset = 0, limit: Limit = 100
) -> browse.Page[browse.EntitySummary]:
    """The entities that have dimensions, by name, with the attributes observed about them."""
    return browse.page_of(browse.entities(ctx.memory, space), offset, limit)
