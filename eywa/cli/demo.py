"""``eywa demo``: a one-minute, offline tour of the write and read paths.

It ingests a short conversation shipped with the package (written for Eywa: a job change,
a move, dates, amounts, a hedge and a negation over four sessions) and asks questions whose
answers changed over time, as of the day after the last session. For each it prints the
rank-1 answer and, when a dimension gave it, the dimension behind it (distribution, last
change, surprise of the last update), then the items with provenance and the context an
agent would receive.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from contextlib import ExitStack
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Annotated, Literal

import typer
from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from eywa.cli.render import print_recall
from eywa.loaders import load_turns_file
from eywa.memory import Memory
from eywa.models import Delta, Dimension, Frozen, RecallResult, as_utc
from eywa.nous import UNSEEN
from eywa.nous.describe import day_text
from eywa.read.routes import dimension_key
from eywa.runtime import load_settings, open_memory
from eywa.runtime.commands import DataDirOption, err_console, out_console
from eywa.runtime.terminal import visible
from eywa.runtime.ingest import ingest_batches

__all__ = ["DemoQuestion", "DemoScript", "demo", "demo_as_of", "demo_questions", "demo_script"]

DEMO_SPACE = "demo"


class DemoQuestion(Frozen):
    """A demo question with what its rank-1 item must say.

    ``expected``: any of these (case-insensitive) in the rank-1 item's text is the right
    answer (the current value for ``current`` questions, the date or amount otherwise).
    ``stale``: values that were true once, or only planned; no item that carries one
    without an expected answer may outrank the answer.
    """

    question: str
    kind: Literal["current", "date", "amount"]
    expected: tuple[str, ...]
    stale: tuple[str, ...] = ()


class DemoScript(Frozen):
    """``data/demo/questions.json``: the space, the time the demo reads at, the questions."""

    space: str
    as_of: datetime
    questions: tuple[DemoQuestion, ...]


def demo_script() -> DemoScript:
    """The demo's questions and reading time, shipped next to the conversation."""
    raw = resources.files("eywa").joinpath("data/demo/questions.json").read_text(encoding="utf-8")
    return DemoScript.model_validate_json(raw)


def demo_questions() -> list[DemoQuestion]:
    """The questions the demo asks, with their expected answers."""
    return list(demo_script().questions)


def demo_as_of() -> datetime:
    """The time the demo reads at (the day after the last session), so its output never
    depends on the day it runs."""
    return as_utc(demo_script().as_of)


def demo(
    data_dir: DataDirOption = None,
    k: Annotated[int, typer.Option("-k", "--k", min=1, help="Items per question.")] = 5,
) -> None:
    """Ingest the bundled demo conversation and show what recall returns. Runs offline."""
    console = out_console(markup=False)
    with ExitStack() as stack:
        directory = data_dir or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="eywa-demo-")))
        # The demo must work without a network or a server: embedded store, local embedder,
        # rule-based extraction, whatever EYWA_* says.
        settings = load_settings(directory, embedder="minilm", extractor="rules")
        source = stack.enter_context(resources.as_file(resources.files("eywa").joinpath("data/demo/conversation.jsonl")))
        batches = load_turns_file(source)
        mem = stack.enter_context(open_memory(settings, backend="embedded"))
        report = ingest_batches(mem, batches, space=DEMO_SPACE, console=err_console())
        as_of = demo_as_of()
        console.print(
            f"ingested {report.turns} turns into space {DEMO_SPACE!r} at {directory} "
            f"({report.turns_per_s:.1f} turns/s); reading as of {day_text(as_of)}"
        )
        for question in demo_questions():
            console.print(Rule(question.question))
            result = mem.recall(DEMO_SPACE, question.question, k=k, as_of=as_of)
            print_answer(console, mem, question, result, as_of)
            print_recall(console, result)


def print_answer(console: Console, mem: Memory, question: DemoQuestion, result: RecallResult, as_of: datetime) -> None:
    """The rank-1 item, what the demo expects, and the dimension behind a dimension answer."""
    if not result.items:
        console.print("rank 1: (nothing)")
        return
    top = result.items[0]
    console.print(Text.assemble(("rank 1", "bold"), f" ({top.kind}): {visible(top.text)}"))
    console.print(f"expected: {' | '.join(question.expected)}")
    key = dimension_key(top.id) if top.kind == "dimension" else None
    if key is None:
        return
    dimension = mem.dimension(DEMO_SPACE, key[0], key[1], as_of=as_of)
    deltas = [d for d in mem.deltas(DEMO_SPACE, key[0], key[1]) if d.at <= as_of]
    for line in dimension_summary(dimension, deltas):
        console.print(f"  {line}")


def dimension_summary(dimension: Dimension, deltas: Sequence[Delta]) -> list[str]:
    """Three lines: the distribution, the last change of the mode, the last update's surprise."""
    ranked = sorted(dimension.distribution.items(), key=lambda kv: (-kv[1], kv[0]))
    spread = ", ".join(f"{'(unseen)' if v == UNSEEN else v} {p:.2f}" for v, p in ranked)
    kind = "membership" if dimension.cardinality == "multi" else "distribution"
    change = "no current value"
    if dimension.mode is not None:
        since = f" since {day_text(dimension.since)}" if dimension.since is not None else ""
        was = f", replacing {dimension.previous}" if dimension.previous is not None else ", nothing before it"
        change = f"{dimension.mode}{since}{was}"
    lines = [
        f"dimension {dimension.entity} / {dimension.attribute} ({dimension.cardinality}-valued)",
        f"{kind}: {spread}",
        f"last change: {change}",
    ]
    if deltas:
        last = deltas[-1]
        said = last.observed if last.polarity == "positive" else f"not {last.observed}"
        lines.append(
            f"last update: {day_text(last.at)} observed {said!r} ({last.modality}), "
            f"surprise {last.surprise_bits:.2f} bits ({len(deltas)} {'update' if len(deltas) == 1 else 'updates'} in all)"
        )
    return lines
