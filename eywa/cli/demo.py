"""``eywa demo``: a one-minute, offline tour of the write and read paths.

It ingests a short conversation shipped with the package (written for Eywa: a job change,
a move, dates, amounts, a hedge and a negation over four sessions) and asks questions whose
answers changed over time, printing the context with provenance an agent would receive.
"""

from __future__ import annotations

import json
import tempfile
from contextlib import ExitStack
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer
from rich.rule import Rule

from eywa.cli.render import print_recall
from eywa.runtime import load_settings, open_memory
from eywa.runtime.commands import DataDirOption, err_console, out_console
from eywa.runtime.ingest import ingest_batches
from eywa.loaders import load_turns_file

__all__ = ["demo"]

DEMO_SPACE = "demo"


def demo_questions() -> list[str]:
    """The questions the demo asks, shipped next to the conversation."""
    raw = resources.files("eywa").joinpath("data/demo/questions.json").read_text(encoding="utf-8")
    questions: list[str] = json.loads(raw)["questions"]
    return questions


def demo(
    data_dir: DataDirOption = None,
    k: Annotated[int, typer.Option("-k", "--k", min=1, help="Items per question.")] = 5,
) -> None:
    """Ingest the bundled demo conversation and show what recall returns. Runs offline."""
    console = out_console()
    with ExitStack() as stack:
        directory = data_dir or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="eywa-demo-")))
        # The demo must work without a network or a server: embedded store, local embedder,
        # rule-based extraction, whatever EYWA_* says.
        settings = load_settings(directory, embedder="minilm", extractor="rules")
        source = stack.enter_context(resources.as_file(resources.files("eywa").joinpath("data/demo/conversation.jsonl")))
        batches = load_turns_file(source)
        mem = stack.enter_context(open_memory(settings, backend="embedded"))
        report = ingest_batches(mem, batches, space=DEMO_SPACE, console=err_console())
        console.print(
            f"ingested {report.turns} turns into space {DEMO_SPACE!r} at {directory} "
            f"({report.turns_per_s:.1f} turns/s)"
        )
        for question in demo_questions():
            console.print(Rule(question))
            print_recall(console, mem.recall(DEMO_SPACE, question, k=k))
