"""``eywa reprocess``, ``eywa reconcile``, ``eywa repair-vectors`` and ``eywa index-vectors``:
finish or redo derived work, check the vectors, or build the vector index, from a shell.

They open the memory the settings name (``eywa.runtime.open_memory``), like every command,
and work from the stage ledger: what they leave unfinished (interrupted, an extractor down)
stays pending, and running them again continues.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor, wait
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from eywa.errors import InvalidInputError
from eywa.reconcile import ReconcileReport
from eywa.runtime import load_settings, open_memory
from eywa.runtime.commands import DataDirOption, err_console, out_console, note_unknown_space
from eywa.runtime.ingest import progress_bar
from eywa.stores.vectors import VECTOR_KINDS, ShardIndex, VectorKind

if TYPE_CHECKING:
    from eywa.memory import Memory

__all__ = ["index_vectors", "reconcile", "repair_vectors", "reprocess"]


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
    """Bring a space's turns up to this release: signals, then Level 1.

    Turns stored under an older signals version have their signals and mentions detected
    again; those whose detection changed, and the turns another extractor version read, have
    Level 1 run again: what was proposed about them is replaced by what the configured
    extractor proposes, and the touched dimensions are replayed. Resumable and idempotent.
    """
    settings = load_settings(data_dir)
    with open_memory(settings, must_exist=True) as mem:
        note_unknown_space(mem.spaces(), space)
        outdated = mem.stats(space)["outdated_signals"]
        marked = mem.reprocess(space)
        backlog = mem.backlog()
        stats = mem.stats(space)
    console = out_console(markup=False)
    console.print(f"{outdated} turns of {space} had their signals detected again (stored under an older signals version)")
    console.print(f"{marked} turns of {space} reprocessed; beliefs now: {stats['beliefs']}, dimensions: {stats['dimensions']}")
    console.print(_backlog_table("left pending", backlog))


def reconcile(
    space: Annotated[
        str | None, typer.Option("--space", "-s", help="Only this space (default: all).", show_default=False)
    ] = None,
    data_dir: DataDirOption = None,
) -> None:
    """Finish every pending stage this process can do (vectors; Level 1 with an extractor).

    Turns owed a vector (after a change of embedder, or vectors the store lost) are counted
    on a progress bar (stderr).
    """
    settings = load_settings(data_dir)
    with open_memory(settings, must_exist=True) as mem:
        if space is not None:
            note_unknown_space(mem.spaces(), space)
        report = _reconcile_with_progress(mem, space)
        opening = ReconcileReport()
        opening.merge(mem.recovered)
        for background in mem.wait():  # what the open left to the background thread
            opening.merge(background)
        backlog = mem.backlog()
    console = out_console(markup=False)
    console.print(f"finished: {_done(report)}")
    if opening.total:
        console.print(f"finished on open (every space): {_done(opening)}")
    for error in [*opening.errors, *report.errors]:
        console.print(f"failed: {error}")
    console.print(_backlog_table("left pending", backlog))


def repair_vectors(
    space: Annotated[
        str | None, typer.Option("--space", "-s", help="Only this space (default: all).", show_default=False)
    ] = None,
    data_dir: DataDirOption = None,
) -> None:
    """Check every turn and belief against the vector store, id by id, and embed the ones without a vector.

    Opening an embedded memory already notices a shard holding fewer points than the ledger
    counts as embedded, and has them embedded again (eywa reconcile waits for it). This full
    check also finds what a count cannot: vectors missing while stale ones make up the
    number, or a Qdrant server's collection touched by hand. It reads every id (0.5 s at 10k
    turns and 4,460 beliefs), then embeds what it found.
    """
    settings = load_settings(data_dir)
    with open_memory(settings, must_exist=True) as mem:
        if space is not None:
            note_unknown_space(mem.spaces(), space)
        repaired = mem.repair_vectors(space)
        backlog = mem.backlog()
    console = out_console(markup=False)
    console.print(f"{repaired} turns and beliefs had no vector{' of ' + space if space else ''}: embedded again")
    console.print(_backlog_table("left pending", backlog))


def _done(report: ReconcileReport) -> str:
    return ", ".join(f"{stage} {n}" for stage, n in sorted(report.completed.items()) if n) or "nothing"


def _reconcile_with_progress(mem: Memory, space: str | None) -> ReconcileReport:
    """``mem.reconcile(space)``, with a progress bar on stderr over the turns still owed a
    vector when there are some: re-embedding a large store takes minutes (MiniLM embeds
    ~170 turns/s on two cores). The bar is counted once more after the reconciliation ends.

    Raises:
        EywaError: what the reconciliation raised.
    """
    owed = _owed_vectors(mem, space)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="eywa-reconcile-cli") as pool:
        done = pool.submit(mem.reconcile, space)
        if owed:
            with progress_bar(err_console(), transient=True) as bar:
                task = bar.add_task("embed", total=owed)
                while True:
                    finished = done.done()  # read before the count, so the last count follows the end
                    bar.update(task, completed=owed - min(owed, _owed_vectors(mem, space)))
                    if finished:
                        break
                    wait([done], timeout=0.2)
        return done.result()


def _owed_vectors(mem: Memory, space: str | None) -> int:
    """Turns not yet embedded, of ``space`` or of every space."""
    return mem.pending(space).embed if space is not None else mem.backlog()["embed_evidence"]


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
    console = out_console(markup=False)
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
            console.print(Text.assemble((state.kind, "bold"), f": {what} …"))

        for one in _kinds(kind):
            started = time.perf_counter()
            (state,) = mem.index_vectors((one,), on_start)
            console.print(Text.assemble(
                (state.kind, "bold"),
                f": {state.indexed:,} of {state.points:,} points indexed in {time.perf_counter() - started:.1f} s",
            ))  # fmt: skip
        console.print(_index_table("vector index", mem.vector_index()))
