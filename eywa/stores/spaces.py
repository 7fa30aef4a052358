"""Per-space counts for many spaces in one read: what a list of spaces shows of each.

A console or ``GET /v1/spaces`` lists a page of spaces with their counts. Reading them
space by space (the evidence, belief, dimension, erasure and ledger stores each asked once
per space, plus a scan of everything the space recorded for its last hour) made a page of
50 spaces cost about 450 reads. :meth:`SpaceCatalog.counts` answers a whole page in one
grouped statement per backend, each of its parts filtering on the asked spaces inside the
label's (table's) space index, so a page costs the same number of reads whatever it lists.

Both backends return rows ``(space, key, n)`` and share :func:`counts_from_rows`, so they
cannot differ in how the rows become :class:`SpaceCounts`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from eywa.stores.ledger import SpaceBacklog

__all__ = ["SpaceCatalog", "SpaceCounts", "counts_from_rows"]


@dataclass(frozen=True)
class SpaceCounts:
    """The counts of one space, each equal to what its own store reads answer for it alone."""

    turns: int = 0
    """``EvidenceStore.count``."""
    turns_recorded: int = 0
    """Turns whose ``recorded_at`` lies in the asked window (the ``touched_between`` audit's
    ``Evidence`` rows)."""
    statuses: dict[str, int] = field(default_factory=dict)
    """``BeliefStore.counts``: ``belief_<status>`` and ``candidate_<status>``, statuses
    present only."""
    dimensions: int = 0
    """``len(DimensionStore.dimensions(space))``."""
    erasures: int = 0
    """``len(ErasureStore.erasures(space))``, every state."""
    backlog: SpaceBacklog = field(default_factory=SpaceBacklog)
    """``StageLedger.space_backlog``."""


class SpaceCatalog(Protocol):
    """Counts of many spaces at once (the browse routes' list of spaces)."""

    def counts(self, spaces: Sequence[str], recorded_from: datetime, recorded_to: datetime) -> dict[str, SpaceCounts]:
        """The counts of each of ``spaces`` (already checked names) in one read, with the
        turns recorded in ``[recorded_from, recorded_to)``. Every space asked has an entry,
        all zeros when it holds nothing.

        Raises:
            ClosedError: the stores were closed.
            StoreError: the backend failed.
        """
        ...


_KEYS = frozenset({"turns", "recorded", "dimensions", "erasures", "embed", "level1"})
_STATUS_PREFIXES = ("belief_", "candidate_")


def counts_from_rows(spaces: Sequence[str], rows: Iterable[tuple[str, str, int]]) -> dict[str, SpaceCounts]:
    """:class:`SpaceCounts` of each of ``spaces`` from a backend's ``(space, key, n)`` rows.

    Keys: ``turns``, ``recorded``, ``dimensions``, ``erasures``, ``embed``, ``level1`` and
    ``belief_<status>`` / ``candidate_<status>``; a key without a row counts 0, and a status
    is listed only when its count is positive (as ``BeliefStore.counts`` has it).

    Raises:
        ValueError: a row with a key outside that list (a backend's query and this decoder
            disagree).
    """
    fields: dict[str, dict[str, int]] = {space: {} for space in spaces}
    statuses: dict[str, dict[str, int]] = {space: {} for space in spaces}
    for space, key, n in rows:
        if space not in fields:
            continue
        if key.startswith(_STATUS_PREFIXES):
            if n > 0:
                statuses[space][key] = int(n)
        elif key in _KEYS:
            fields[space][key] = int(n)
        else:
            raise ValueError(f"unknown space count {key!r}")
    return {
        space: SpaceCounts(
            turns=values.get("turns", 0), turns_recorded=values.get("recorded", 0),
            dimensions=values.get("dimensions", 0), erasures=values.get("erasures", 0),
            statuses=statuses[space],
            backlog=SpaceBacklog(embed=values.get("embed", 0), level1=values.get("level1", 0)),
        )
        for space, values in fields.items()
    }
