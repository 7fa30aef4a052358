"""``eywa merges list|propose|accept|undo``: identity merges from the shell.

A merge is a ``SAME_AS`` edge between two entities of a space (reads of either see both),
never a rewrite; ``undo`` deactivates it and keeps it for audit (``list --all`` shows it).
Both are recorded with the author ``cli``.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from eywa.errors import NotFoundError
from eywa.runtime import load_settings, open_memory
from eywa.runtime.commands import DataDirOption, out_console, note_unknown_space

__all__ = ["merges_app"]

merges_app = typer.Typer(help="Identity merges: list, propose, accept, undo.", no_args_is_help=True)

SpaceOption = Annotated[str, typer.Option("--space", "-s", help="The space.", show_default=False)]
SourceArgument = Annotated[str, typer.Argument(help="One entity's name.", show_default=False)]
TargetArgument = Annotated[str, typer.Argument(help="The other entity's name.", show_default=False)]
AUTHOR = "cli"


@merges_app.command("list")
def list_merges(
    space: SpaceOption,
    include_removed: Annotated[bool, typer.Option("--all", help="Also the undone merges.")] = False,
    data_dir: DataDirOption = None,
) -> None:
    """The merges of a space: source, target, score, when and by whom, and when and by whom
    (or by which erasure) undone."""
    with open_memory(load_settings(data_dir), must_exist=True) as mem:
        note_unknown_space(mem.spaces(), space)
        table = Table("source", "target", "score", "at", "author", "removed", "removed by", title=f"merges of {space}")
        for e in mem.merges(space, include_removed):
            removed = e.removed_at.isoformat(timespec="seconds") if e.removed_at else ""
            table.add_row(e.source, e.target, f"{e.score:.3f}", e.at.isoformat(timespec="seconds"), e.author or "",
                          removed, e.removed_by or "")  # fmt: skip
        out_console(markup=False).print(table)


@merges_app.command("propose")
def propose(space: SpaceOption, data_dir: DataDirOption = None) -> None:
    """Pairs of entities that look like one, best first, with their evidence (name score,
    KL divergence in bits of the shared dimensions)."""
    with open_memory(load_settings(data_dir), must_exist=True) as mem:
        note_unknown_space(mem.spaces(), space)
        table = Table("source", "target", "score", "name", "KL bits", "shared", title=f"proposed merges in {space}")
        for p in mem.propose_merges(space):
            table.add_row(p.source, p.target, f"{p.score:.3f}", f"{p.name_score:.3f}", f"{p.divergence_bits:.3f}",
                          ", ".join(p.shared_attributes))  # fmt: skip
        out_console(markup=False).print(table)


@merges_app.command("accept")
def accept(
    source: SourceArgument,
    target: TargetArgument,
    space: SpaceOption,
    score: Annotated[float, typer.Option("--score", help="How sure, in [0, 1].")] = 1.0,
    data_dir: DataDirOption = None,
) -> None:
    """Merge two entities of a space: reads of either now see both."""
    with open_memory(load_settings(data_dir), must_exist=True) as mem:
        edge = mem.accept_merge(space, source, target, score, author=AUTHOR)
        out_console(markup=False).print(f"merged {edge.source} SAME_AS {edge.target} (score {edge.score:.3f})", soft_wrap=True)


@merges_app.command("undo")
def undo(source: SourceArgument, target: TargetArgument, space: SpaceOption, data_dir: DataDirOption = None) -> None:
    """Undo the merge of two entities (kept for audit)."""
    with open_memory(load_settings(data_dir), must_exist=True) as mem:
        if not mem.undo_merge(space, source, target, author=AUTHOR):
            raise NotFoundError("merge", space, f"{source} / {target}")
        out_console(markup=False).print(f"undone: {source} / {target}", soft_wrap=True)
