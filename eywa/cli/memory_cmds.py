"""``eywa ingest``, ``eywa recall`` and ``eywa stats``: a memory from a shell.

The memory is the one the settings name (``eywa.runtime.open_memory``): Neo4j when
``EYWA_NEO4J_URI`` is set, exactly as for ``eywa serve``, else the embedded store of
``--data-dir``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from eywa.cli.render import print_recall
from eywa.ids import check_space
from eywa.runtime import describe, load_settings, open_graph_stores, open_memory
from eywa.stats import space_stats
from eywa.runtime.commands import DataDirOption, err_console, out_console, note_unknown_space
from eywa.runtime.ingest import ingest_batches
from eywa.runtime.terminal import json_visible
from eywa.contract import Limits, check_turns
from eywa.errors import InvalidInputError, InvalidTurnError
from eywa.loaders import load_turns_file
from eywa.models import Policy
from eywa.values import parse_time

__all__ = ["ingest", "recall", "stats"]


def _where(file: Path, space: str | None, index: int) -> str:
    """Where the ``index``-th turn of a loaded batch is in ``file``: its line in a JSONL file
    (blank lines are skipped by the loader), its item in a JSON list, its place in a sample."""
    if space is not None:
        return f"sample {space}: turn {index}"
    text = file.read_text(encoding="utf-8-sig")  # read already once, so, by the loader
    if text.lstrip().startswith("["):
        return f"item {index}"
    lines = [number for number, line in enumerate(text.split("\n"), start=1) if line.strip()]  # as the loader
    return f"line {lines[index]}"


def _check_limits(file: Path, batches: list[tuple[str | None, list[dict[str, Any]]]], limits: Limits) -> None:
    """Refuse the file before anything is stored if any turn breaks the input contract.

    The loader checks each turn's shape; the limits (characters, metadata size) are the
    contract's. Checked here, a file is stored whole or not at all (``ingest`` writes in
    chunks), and the error names the line as the loader's do.

    Raises:
        InvalidInputError: naming the file, the line (or item) and the field, with the
            contract's code (``turn_too_long``, ``limit_exceeded``).
    """
    for batch_space, turns in batches:
        for start in range(0, len(turns), limits.max_turns_per_batch):
            try:
                check_turns(turns[start : start + limits.max_turns_per_batch], limits)
            except InvalidTurnError as exc:
                where = _where(file, batch_space, start + exc.index)
                raise InvalidInputError(f"{file}: {where}: {exc.reason}", code=exc.code) from None


def ingest(
    file: Annotated[Path, typer.Argument(help="JSONL of turns, or a LoCoMo JSON file.", show_default=False)],
    space: Annotated[
        str | None,
        typer.Option(
            "--space",
            "-s",
            help="Target space of a JSONL file. For a LoCoMo file: ingest only that sample.",
            show_default=False,
        ),
    ] = None,
    data_dir: DataDirOption = None,
) -> None:
    """Store the turns of FILE (Level 0). Re-running is a no-op: turn ids are deterministic.

    A LoCoMo file becomes one space per sample, named by its sample_id.
    """
    settings = load_settings(data_dir)
    batches = load_turns_file(file)
    locomo = batches[0][0] is not None
    if locomo and space is not None:
        batches = [(s, t) for s, t in batches if s == space]
        if not batches:
            raise InvalidInputError(f"{file}: no LoCoMo sample named {space!r}")
    if not locomo and space is None:
        raise InvalidInputError("a JSONL turn file needs --space")
    _check_limits(file, batches, Limits.from_settings(settings))
    with open_memory(settings) as mem:
        try:
            report = ingest_batches(mem, batches, space=None if locomo else space, console=err_console())
        except KeyboardInterrupt:
            # Chunks are committed one by one and turn ids are deterministic, so what was
            # stored stays and a second run stores only the rest: say so, not a bare exit.
            err_console().print(
                "interrupted: the turns stored so far are kept; run the same command again to store the rest "
                "(turns already stored are skipped)"
            )
            raise typer.Exit(130) from None
        table = Table(title=f"ingested into {describe(settings)}")
        table.add_column("space")
        table.add_column("turns sent", justify="right")
        table.add_column("evidence stored", justify="right")
        for name, sent in report.spaces.items():
            table.add_row(name, str(sent), str(mem.stats(name).get("evidence", "?")))
    console = out_console(markup=False)
    console.print(table)
    console.print(f"{report.turns} turns in {report.seconds:.2f} s ({report.turns_per_s:.1f} turns/s)")


def _check_as_of(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        parse_time(value)  # the one reading of a time (eywa.values), as a turn's and the API's
    except ValueError:
        raise InvalidInputError(f"--as-of must be an ISO-8601 date or datetime, got {value!r}") from None
    return value


def recall(
    question: Annotated[str, typer.Argument(help="What to recall, in plain words.", show_default=False)],
    space: Annotated[str, typer.Option("--space", "-s", help="Space to read.", show_default=False)],
    k: Annotated[int, typer.Option("-k", "--k", min=1, help="Number of items.")] = 10,
    budget: Annotated[
        int | None, typer.Option("--budget", min=1, help="Context token budget.", show_default=False)
    ] = None,
    policy: Annotated[Policy, typer.Option("--policy", help="Answer policy.")] = "balanced",
    as_of: Annotated[
        str | None, typer.Option("--as-of", help="Read as of this ISO time.", show_default=False)
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the RecallResult as JSON.")] = False,
    data_dir: DataDirOption = None,
) -> None:
    """Recall context for QUESTION: ranked items with provenance, and the packed context."""
    checked_as_of = _check_as_of(as_of)
    settings = load_settings(data_dir)
    with open_memory(settings, must_exist=True) as mem:
        known = mem.spaces()
        result = mem.recall(space, question, k=k, budget_tokens=budget, policy=policy, as_of=checked_as_of)
        # After the call: a recall Memory refuses (-k 500) is one error line, not a note that
        # it answers "as an empty space" followed by the refusal.
        note_unknown_space(known, space)
    if as_json:
        typer.echo(json_visible(result.model_dump_json(indent=2)))  # DEL, C1 escaped too
    else:
        print_recall(out_console(markup=False), result)


def _flatten(prefix: str, value: Any) -> list[tuple[str, str]]:
    if isinstance(value, dict):
        rows: list[tuple[str, str]] = []
        for key, inner in sorted(value.items()):
            rows.extend(_flatten(f"{prefix}.{key}" if prefix else str(key), inner))
        return rows or [(prefix, "0")]
    return [(prefix, str(value))]


def stats(
    space: Annotated[str, typer.Option("--space", "-s", help="Space to count.", show_default=False)],
    data_dir: DataDirOption = None,
) -> None:
    """Counts of a space: evidence, signals by kind, entities, beliefs, candidates.

    Reads the graph stores alone, so it works beside a running ``eywa serve``.
    """
    checked = check_space(space)
    stores = open_graph_stores(load_settings(data_dir))
    try:
        note_unknown_space(stores.evidence.spaces(), checked)
        counts = space_stats(stores, checked)
    finally:
        stores.close()
    table = Table(title=f"space {space}")
    table.add_column("count")
    table.add_column("value", justify="right")
    for key, value in _flatten("", counts):
        table.add_row(key, value)
    out_console(markup=False).print(table)
