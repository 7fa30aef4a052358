"""``eywa beliefs …``, ``eywa candidates …`` and ``eywa corrections``: corrections from the shell.

``eywa beliefs list|retract|confirm`` and ``eywa candidates list|accept|dismiss`` open the
memory the settings name and call ``Memory``'s corrections (``eywa.corrections``); each
correction is recorded with the author ``cli`` and the ``--reason`` given, and printed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

import typer
from rich.table import Table

from eywa.errors import InvalidInputError
from eywa.models import BeliefStatus, CandidateStatus
from eywa.runtime import load_settings, open_memory
from eywa.runtime.commands import DataDirOption, out_console, note_unknown_space
from eywa.stores.corrections import CorrectionKind, CorrectionRecord

__all__ = ["beliefs_app", "candidates_app", "corrections"]

beliefs_app = typer.Typer(help="List, retract and confirm beliefs.", no_args_is_help=True)
candidates_app = typer.Typer(help="List, accept and dismiss refused candidates.", no_args_is_help=True)

SpaceOption = Annotated[str, typer.Option("--space", "-s", help="The space.", show_default=False)]
ReasonOption = Annotated[str | None, typer.Option("--reason", help="Why (kept in the correction record).")]
AUTHOR = "cli"


def _correct(kind: CorrectionKind, space: str, target_id: str, reason: str | None, data_dir: DataDirOption) -> None:
    """Open the memory, make one correction with the author ``cli`` and print its record."""
    with open_memory(load_settings(data_dir), must_exist=True) as mem:
        operations: dict[CorrectionKind, Callable[..., CorrectionRecord]] = {
            "retract_belief": mem.retract_belief, "confirm_belief": mem.confirm_belief,
            "accept_candidate": mem.accept_candidate, "dismiss_candidate": mem.dismiss_candidate,
        }  # fmt: skip
        _print(operations[kind](space, target_id, reason=reason, author=AUTHOR))


def _print(record: CorrectionRecord) -> None:
    console = out_console(markup=False)
    line = f"{record.kind} {record.target_id} ({record.id})"
    if record.belief_id:
        line += f" -> belief {record.belief_id}"
    if record.reliability_before is not None and record.reliability_after is not None:
        line += f"; reliability {record.reliability_before:.3f} -> {record.reliability_after:.3f}"
    console.print(line, soft_wrap=True)


@beliefs_app.command("list")
def list_beliefs(
    space: SpaceOption,
    status: Annotated[str, typer.Option("--status", help="active, superseded, retracted or any.")] = "active",
    data_dir: DataDirOption = None,
) -> None:
    """Beliefs of a space: id, status and statement."""
    chosen: BeliefStatus | None = None if status == "any" else _belief_status(status)
    with open_memory(load_settings(data_dir), must_exist=True) as mem:
        note_unknown_space(mem.spaces(), space)
        table = Table("id", "status", "statement", title=f"beliefs of {space}")
        for belief in mem.beliefs(space, status=chosen):
            table.add_row(belief.id, belief.status, belief.statement)
        out_console(markup=False).print(table)


@beliefs_app.command("retract")
def retract(
    belief_id: Annotated[str, typer.Argument(help="The belief (bel_...).", show_default=False)],
    space: SpaceOption,
    reason: Annotated[str, typer.Option("--reason", help="Why it is retracted (required).", show_default=False)],
    data_dir: DataDirOption = None,
) -> None:
    """Retract a belief: it leaves every read; its dimensions are replayed without it."""
    _correct("retract_belief", space, belief_id, reason, data_dir)


@beliefs_app.command("confirm")
def confirm(
    belief_id: Annotated[str, typer.Argument(help="The belief (bel_...).", show_default=False)],
    space: SpaceOption,
    reason: ReasonOption = None,
    data_dir: DataDirOption = None,
) -> None:
    """Confirm a belief: it weighs more in its dimensions."""
    _correct("confirm_belief", space, belief_id, reason, data_dir)


@candidates_app.command("list")
def list_candidates(
    space: SpaceOption,
    status: Annotated[str, typer.Option("--status", help="repair, rejected or any.")] = "repair",
    data_dir: DataDirOption = None,
) -> None:
    """Refused candidates of a space: id, status, reasons and statement."""
    chosen: CandidateStatus | None = None if status == "any" else _candidate_status(status)
    with open_memory(load_settings(data_dir), must_exist=True) as mem:
        note_unknown_space(mem.spaces(), space)
        table = Table("id", "status", "reasons", "statement", title=f"candidates of {space}")
        for cand in mem.candidates(space, chosen):
            table.add_row(cand.id, cand.status, ", ".join(cand.reasons), cand.fact.statement)
        out_console(markup=False).print(table)


@candidates_app.command("accept")
def accept(
    candidate_id: Annotated[str, typer.Argument(help="The candidate (cand_...).", show_default=False)],
    space: SpaceOption,
    reason: ReasonOption = None,
    data_dir: DataDirOption = None,
) -> None:
    """Accept a refused candidate as a belief (its repaired form when it has one)."""
    _correct("accept_candidate", space, candidate_id, reason, data_dir)


@candidates_app.command("dismiss")
def dismiss(
    candidate_id: Annotated[str, typer.Argument(help="The candidate (cand_...).", show_default=False)],
    space: SpaceOption,
    reason: ReasonOption = None,
    data_dir: DataDirOption = None,
) -> None:
    """Take a candidate out of the repair queue (kept as rejected)."""
    _correct("dismiss_candidate", space, candidate_id, reason, data_dir)


def corrections(
    space: SpaceOption,
    target_id: Annotated[str | None, typer.Option("--target", help="One belief or candidate.")] = None,
    data_dir: DataDirOption = None,
) -> None:
    """The correction records of a space: who retracted, confirmed, accepted or dismissed what, and why."""
    with open_memory(load_settings(data_dir), must_exist=True) as mem:
        records = mem.corrections(space, target_id)
        if not records and not mem.corrections(space):
            # An erased space has no evidence left but keeps its correction records, so only
            # a space with neither (a typo) is refused, as every other command refuses it.
            note_unknown_space(mem.spaces(), space)
        table = Table("at", "kind", "target", "author", "reason", title=f"corrections of {space}")
        for c in records:
            table.add_row(c.at.isoformat(timespec="seconds"), c.kind, c.target_id, c.author or "", c.reason or "")
        out_console(markup=False).print(table)


def _belief_status(value: str) -> BeliefStatus:
    for known in ("active", "superseded", "retracted"):
        if value == known:
            return known
    raise InvalidInputError.at("status", "one of active, superseded, retracted, any")


def _candidate_status(value: str) -> CandidateStatus:
    for known in ("repair", "rejected"):
        if value == known:
            return known
    raise InvalidInputError.at("status", "one of repair, rejected, any")
