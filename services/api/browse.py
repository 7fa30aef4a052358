"""What the console shows, as plain functions over a ``Memory`` shared by the JSON routes
(``routes_browse``) and the console pages, so both always answer alike.

Lists are paginated with ``offset``/``limit``; a page says where the next one starts
(``next_offset``, None at the end).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Generic, TypeVar

from pydantic import BaseModel, ConfigDict

from eywa.contract import check_label, check_time
from eywa.memory import Memory
from eywa.models import Evidence, utc_now
from eywa.stores.keys import ApiKey
from eywa.stores.spaces import SpaceCounts

__all__ = ["EntitySummary", "Page", "SpaceSummary", "entities", "page_of", "readable_spaces", "space_summaries", "timeline"]

T = TypeVar("T")


class Page(BaseModel, Generic[T]):
    """One page of a list."""

    model_config = ConfigDict(frozen=True)

    items: list[T]
    offset: int
    limit: int
    next_offset: int | None


class SpaceSummary(BaseModel):
    """The counts of one space the console's first page lists."""

    model_config = ConfigDict(frozen=True)

    space: str
    turns: int
    beliefs: int
    """Active beliefs."""
    dimensions: int
    refused: int
    """Candidates the validator refused (rejected or queued for repair)."""
    erasures: int
    turns_last_hour: int
    """Turns recorded in the last hour: the ingest rate."""
    not_embedded: int = 0
    """Turns without their vector yet (``Memory.pending``)."""
    level1_pending: int = 0
    """Turns not yet through Level 1 and their dimension update: the space's backlog."""


class EntitySummary(BaseModel):
    """An entity with the attributes it has dimensions for."""

    model_config = ConfigDict(frozen=True)

    entity: str
    attributes: list[str]


def page_of(items: list[T], offset: int, limit: int) -> Page[T]:
    """The page ``[offset, offset + limit)`` of a list already in memory."""
    chunk = items[offset : offset + limit]
    return Page(items=chunk, offset=offset, limit=limit, next_offset=offset + limit if offset + limit < len(items) else None)


def readable_spaces(memory: Memory, key: ApiKey) -> list[str]:
    """The spaces holding evidence that ``key`` may read, sorted.

    Raises:
        StoreError: the store failed.
    """
    return sorted(space for space in memory.spaces() if key.allows(space, "read"))


def space_summaries(memory: Memory, spaces: Sequence[str]) -> list[SpaceSummary]:
    """The counts of each of ``spaces``, in their order, from one grouped store read
    (``Memory.space_counts``): a page costs the same number of reads whatever it lists.
    Each count is what ``Memory.stats``, ``Memory.erasures``, ``Memory.pending`` and the
    ``touched_between`` audit's turns of the last hour answer for the space alone.

    Raises:
        InvalidInputError: a bad space name.
        StoreError: the store failed.
    """
    now = utc_now()
    counts = memory.space_counts(spaces, now - timedelta(hours=1), now)
    return [_summary(space, counts[space]) for space in spaces]


def _summary(space: str, counts: SpaceCounts) -> SpaceSummary:
    statuses = counts.statuses
    return SpaceSummary(
        space=space,
        turns=counts.turns,
        beliefs=statuses.get("belief_active", 0),
        dimensions=counts.dimensions,
        refused=statuses.get("candidate_rejected", 0) + statuses.get("candidate_repair", 0),
        erasures=counts.erasures,
        turns_last_hour=counts.turns_recorded,
        not_embedded=counts.backlog.embed,
        level1_pending=counts.backlog.level1,
    )


def timeline(
    memory: Memory,
    space: str,
    *,
    speaker: str | None = None,
    since: datetime | str | None = None,
    until: datetime | str | None = None,
    offset: int = 0,
    limit: int = 50,
) -> Page[Evidence]:
    """Turns of ``space`` in event time (then session and position), with their signals,
    optionally of one speaker and observed in ``[since, until)`` (the ``timeline`` audit).

    Raises:
        InvalidInputError: a bad space, a negative offset or limit, a speaker that is no
            label (``limit_exceeded`` past ``max_label_chars``), or a time outside the
            supported range (one that UTC would carry past year 9999 overflowed: a 500).
        StoreError: the store failed.
    """
    start, end = check_time(since, "since"), check_time(until, "until")
    # A speaker is a label, checked as every other surface checks one (``limit_exceeded`` past
    # EYWA_MAX_LABEL_CHARS); the route's own bound of 200 answered ``validation_error``.
    speaker = check_label(speaker, "speaker", memory.limits) if speaker else None
    params = {
        "space": space, "speaker": speaker or "", "from": start.isoformat() if start else "",
        "to": end.isoformat() if end else "", "offset": str(max(offset, 0)), "limit": str(max(limit, 0) + 1),
    }  # fmt: skip
    rows = memory.audit("timeline", params).records()
    turns = [memory.evidence(space, str(row["id"])) for row in rows[:limit]]
    return Page(items=turns, offset=offset, limit=limit, next_offset=offset + limit if len(rows) > limit else None)


def entities(memory: Memory, space: str) -> list[EntitySummary]:
    """The entities of ``space`` that have dimensions, by name, with their attributes.

    Raises:
        InvalidInputError: a bad space name.
        StoreError: the store failed.
    """
    found: dict[str, list[str]] = {}
    for dimension in memory.dimensions(space):
        found.setdefault(dimension.entity, []).append(dimension.attribute)
    return [EntitySummary(entity=name, attributes=sorted(attrs)) for name, attrs in sorted(found.items())]
