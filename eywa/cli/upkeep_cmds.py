"""``eywa reprocess`` and ``eywa reconcile``: finish or redo derived work from a shell.

Both open the memory the settings name (``eywa.runtime.open_memory``), like every command,
and work from the stage ledger: what they leave unfinished (interrupted, an extractor down)
stays pending, and running them again continues.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from eywa.runtime import load_settings, open_memory
from eywa.runtime.commands import DataDirOption, out_console, require_space

__all__ = ["reconcile", "reprocess"]


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
