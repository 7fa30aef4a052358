"""``eywa forget`` and ``eywa drop-space``: erase turns and everything derived from them.

Both open the memory the settings name (``eywa.runtime.open_memory``), ask for confirmation
(``--yes`` skips it: erasure cannot be undone), run the cascade (``eywa.erasure``) and print
the report and the proof of zero residue.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from eywa.contract import check_time
from eywa.erasure import ErasureProof, ErasureReport
from eywa.errors import InvalidInputError
from eywa.runtime import load_settings, open_memory
from eywa.runtime.commands import DataDirOption, out_console, require_space

__all__ = ["drop_space", "forget"]

YesOption = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")]


def _print(report: ErasureReport, proof: ErasureProof) -> None:
    table = Table("removed", "count", title="erased")
    for kind, n in report.counts.items():
        table.add_row(kind, str(n))
    console = out_console(markup=False)
    console.print(f"erasure {report.erasure_id} ({report.state})", soft_wrap=True)
    console.print(table)
    residue = ", ".join(f"{k} {v}" for k, v in proof.residue.items())
    console.print(f"proof: residue {proof.total} ({residue}); turns checked {proof.turns}", soft_wrap=True)


def forget(
    space: Annotated[str, typer.Option("--space", "-s", help="Space to erase from.", show_default=False)],
    evidence_id: Annotated[list[str] | None, typer.Option("--evidence-id", help="An evidence id (repeatable).")] = None,
    external_id: Annotated[list[str] | None, typer.Option("--external-id", help="An external id (repeatable).")] = None,
    speaker: Annotated[str | None, typer.Option("--speaker", help="The turns this speaker said.")] = None,
    session: Annotated[str | None, typer.Option("--session", help="The turns of this session.")] = None,
    before: Annotated[str | None, typer.Option("--before", help="Turns observed before this ISO-8601 time.")] = None,
    yes: YesOption = False,
    data_dir: DataDirOption = None,
) -> None:
    """Erase the selected turns (selectors combine with AND) and everything derived from them."""
    # Checked before the prompt: a user must not confirm an erasure that is then refused.
    if not (evidence_id or external_id or speaker or session or before):
        raise InvalidInputError(
            "forget needs at least one selector: --evidence-id, --external-id, --speaker, --session or --before; "
            "to erase a whole space use eywa drop-space"
        )
    check_time(before, "before")
    settings = load_settings(data_dir)
    with open_memory(settings, must_exist=True) as mem:
        if space not in mem.spaces() and not mem.erasures(space):
            require_space(mem, space)  # as Memory.forget refuses it, here naming the known spaces
        if not yes:
            typer.confirm(f"Erase the selected turns of {space!r} and everything derived from them? This cannot be undone",
                          abort=True)  # fmt: skip
        report = mem.forget(
            space, evidence_ids=evidence_id or None, external_ids=external_id or None, speaker=speaker,
            session=session, before=before, author="cli",
        )  # fmt: skip
        _print(report, mem.erasure_proof(space, report.erasure_id))


def drop_space(
    space: Annotated[str, typer.Argument(help="The space to erase entirely.", show_default=False)],
    yes: YesOption = False,
    data_dir: DataDirOption = None,
) -> None:
    """Erase every turn of a space and everything derived from them."""
    settings = load_settings(data_dir)
    with open_memory(settings, must_exist=True) as mem:
        # As Memory.drop_space: a space that never held a turn is refused (here listing the
        # known ones, before any prompt); one already erased answers without a prompt, since
        # nothing is left to lose.
        if space in mem.spaces():
            if not yes:
                typer.confirm(f"Erase the whole space {space!r}? This cannot be undone", abort=True)
        elif not mem.erasures(space):
            require_space(mem, space)
        report = mem.drop_space(space, author="cli")
        _print(report, mem.erasure_proof(space, report.erasure_id))
