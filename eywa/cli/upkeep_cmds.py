"""``eywa reprocess``, ``eywa reconcile`` and ``eywa index-vectors``: finish or redo derived
work, or build the vector index, from a shell.

They open the memory the settings name (``eywa.runtime.open_memory``), like every command,
and work from the stage ledger: what they leave unfinished (interrupted, an extractor down)
stays pending, and running them again continues.
"""

from __future__ import annotations

import time
from typing import Annotated

import typer
from rich.table import Table

from eywa.errors import InvalidInputError
from eywa.runtime import load_settings, open_memory
from eywa.runtime.commands import DataDirOption, out_console, require_space
from eywa.stores.vectors import VECTOR_KINDS, ShardIndex, VectorKind

__all__ = ["index_vectors", "reconcile", "reprocess"]


def _backlog_table(title: str, backlog: dict[str, int]) -> Table:
    table = Table(title=title)
    table.add_column("pending")
    table.add_column("marks", justify="right")
    for stage, count in backlog.items():
        table.add_row(stage, str(count))
    return table


def reprocess(
    space: Annotated[str, typer.Option("--space", "-s", help="Space to reprocess.", show_default=False)],
    data_dir: DataDirOption = None,
) -> None:
    """Re-run Level 1 over the turns of a space that another extractor version read.

    What the older version proposed is replaced by what the configured extractor proposes,
    and the touched dimensions are replayed. Resumable and idempotent.
    """
    settings = load_settings(data_dir)
    with open_memory(settings, must_exist=True) as mem:
        require_space(mem, space)
        marked = mem.reprocess(space)
        backlog = mem.backlog()
        stats = mem.stats(space)
    console = out_console()
    console.print(f"{marked} turns of {space} reprocessed; beliefs now: {stats['beliefs']}, dimensions: {stats['dimensions']}")
    console.print(_backlog_table("left pending", backlog))


def reconcile(
    space: Annotated[
        str | None, typer.Option("--space", "-s", help="Only this space (default: all).", show_default=False)
    ] = None,
    data_dir: DataDirOption = None,
) -> None:
    """Finish every pending stage this process can do (vectors; Level 1 with an extractor)."""
    settings = load_settings(data_dir)
    with open_memory(settings, must_exist=True) as mem:
        if space is not None:
            require_space(mem, space)
        report = mem.reconcile(space)
        backlog = mem.backlog()
    console = out_console()
    done = ", ".join(f"{stage} {n}" for stage, n in sorted(report.completed.items())) or "nothing"
    console.print(f"finished: {done}")
    for error in report.errors:
        console.print(f"failed: {error}")
    console.print(_backlog_table("left pending", backlog))


def _kinds(names: list[str] | None) -> tuple[VectorKind, ...]:
    """The shards ``--kind`` names, in ``VECTOR_KINDS`` order (all when none is named)."""
    unknown = sorted(set(names or ()) - set(VECTOR_KINDS))
    if unknown:
        raise InvalidInputError(f"--kind takes {', '.join(VECTOR_KINDS)}; not {', '.join(unknown)}")
    return tuple(kind for kind in VECTOR_KINDS if not names or kind in names)


def _index_table(title: str, states: tuple[ShardIndex, ...]) -> Table:
    """The vector shards' index state: points, how many a graph holds, how many are scanned."""
    table = Table(title=title)
    for column in ("shard", "points", "indexed (HNSW)", "searched exactly", "segments"):
        table.add_column(column, justify="left" if column == "shard" else "right")
    for state in states:
        table.add_row(state.kind, f"{state.points:,}", f"{state.indexed:,}", f"{state.unindexed:,}", str(state.segments))
    return table


def index_vectors(
    kind: Annotated[
        list[str] | None,
        typer.Option(
            "--kind", "-k", help="Only this shard: evidence, belief or entity (repeatable; default: all).",
            show_default=False,
        ),
    ] = None,
    status: Annotated[bool, typer.Option("--status", help="Only show the index state; build nothing.")] = False,
    data_dir: DataDirOption = None,
) -> None:
    """Build the HNSW index of the embedded vector shards (after a bulk load; blocks the process).

    Searches of an unindexed shard scan every point: ~11 ms per search at 100k turns.

    The build takes 20-45 s per 100k points on two cores, and nothing else in the process runs meanwhile.

    Run it when the memory is idle (a running eywa serve holds the directory: stop it first).

    Shards under their threshold stay plain; points written later are scanned exactly until a build finds a threshold's worth.
    """
    settings = load_settings(data_dir)
    console = out_console()
    with open_memory(settings, must_exist=True) as mem:
        if status:
            console.print(_index_table("vector index", mem.vector_index()))
            return

        def on_start(state: ShardIndex) -> None:
            # A plain line, not a live spinner: the build holds the GIL, so nothing could redraw one.
            if state.points < state.threshold:
                what = f"{state.points:,} points, under the threshold of {state.threshold:,}: left plain"
            else:
                what = f"building the HNSW graph of {state.points:,} points (the process is busy until it ends)"
            console.print(f"[bold]{state.kind}[/]: {what} …")

        for one in _kinds(kind):
            started = time.perf_counter()
            (state,) = mem.index_vectors((one,), on_start)
            console.print(
                f"[bold]{state.kind}[/]: {state.indexed:,} of {state.points:,} points indexed "
                f"in {time.perf_counter() - started:.1f} s"
            )
        console.print(_index_table("vector index", mem.vector_index()))
