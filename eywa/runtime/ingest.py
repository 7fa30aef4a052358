"""Ingest loaded turn batches into a Memory with a progress bar, measuring throughput.

Shared by ``eywa ingest`` and the LoCoMo harness so both report the same turns/s.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from eywa.errors import InvalidInputError, InvalidTurnError

if TYPE_CHECKING:
    from eywa.memory import Memory

__all__ = ["IngestReport", "ingest_batches", "progress_bar"]

Batch = tuple[str | None, list[dict[str, Any]]]


class IngestReport(BaseModel):
    """What an ingest did: turns sent and newly stored per space, and the wall time."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    spaces: dict[str, int]
    turns: int
    seconds: float

    @property
    def turns_per_s(self) -> float:
        """Throughput over the whole ingest (0.0 when nothing was timed)."""
        return self.turns / self.seconds if self.seconds > 0 else 0.0


def progress_bar(console: Console | None = None, *, transient: bool = False) -> Progress:
    """The one progress bar style of the CLI and the harness."""
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=transient,
    )


def ingest_batches(
    memory: Memory,
    batches: Sequence[Batch],
    *,
    space: str | None = None,
    console: Console | None = None,
    chunk_size: int = 256,
) -> IngestReport:
    """Remember every batch, each into its own space (or ``space`` when it has none).

    Batches are sent in chunks of ``chunk_size`` turns (at most the memory's
    ``max_turns_per_batch``) so the bar moves and a huge file does not become one huge
    transaction; ids are deterministic, so a re-run after a failure skips what was already
    stored.

    Raises:
        InvalidInputError: a batch has no space and none was given.
        InvalidTurnError: a turn is invalid; its index counts from the start of its batch.
    """
    chunk_size = max(1, min(chunk_size, memory.limits.max_turns_per_batch))
    plan: list[tuple[str, list[dict[str, Any]]]] = []
    for batch_space, turns in batches:
        target = space or batch_space
        if target is None:
            raise InvalidInputError("a space is required for a plain turn file (use --space)")
        plan.append((target, turns))
    total = sum(len(turns) for _, turns in plan)
    counts: dict[str, int] = {}
    elapsed = 0.0
    with progress_bar(console) as bar:
        task = bar.add_task("ingest", total=total)
        for target, turns in plan:
            bar.update(task, description=f"ingest {escape(target)}")  # a space name is data, not markup
            for start in range(0, len(turns), chunk_size):
                chunk = turns[start : start + chunk_size]
                began = time.perf_counter()
                try:
                    memory.remember(target, chunk)
                except InvalidTurnError as exc:
                    raise InvalidTurnError(start + exc.index, f"{target}: {exc.reason}", code=exc.code) from exc
                elapsed += time.perf_counter() - began
                bar.advance(task, len(chunk))
            counts[target] = counts.get(target, 0) + len(turns)
    return IngestReport(spaces=counts, turns=total, seconds=elapsed)
