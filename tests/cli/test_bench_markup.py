"""README, "The input contract": the CLI "never read[s] stored text as Rich markup". The
benchmarks' reports style their verdicts with markup, and printed what came from the data
with it: a sample id ``[bold]chat-a[/bold]`` came out bold as ``chat-a``, ``chat[b]`` as
``chat`` (the per-conversation table, the samples line and the ingest progress line), and
``eywa export`` of a space ``[b]x[/b]`` titled its counts ``exported 'x'``. Found by the audit
of s32; each now prints as written."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from typer.testing import CliRunner

from eywa.cli import app
from eywa.bench.report import render_extraction, render_loco
from eywa.bench.extraction import ExtractionReport
from eywa.bench.loco import LocoReport
from eywa.runtime.terminal import TerminalConsole
from tests.cli.test_cli_end_to_end import SAMPLES

MARKED = "[bold]chat-a[/bold]"
BRACKETED = "chat[b]"


def test_bench_locomo_prints_sample_ids_as_written(tmp_path: Path) -> None:
    samples = copy.deepcopy(SAMPLES)
    samples[0]["sample_id"], samples[1]["sample_id"] = MARKED, BRACKETED
    data = tmp_path / "marked.json"
    data.write_text(json.dumps(samples), encoding="utf-8")
    out = tmp_path / "[red]out"
    result = CliRunner().invoke(app, ["bench", "locomo", "--data", str(data), "-k", "2", "--by-conversation",
                                      "--out", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = [line.split()[0] for line in result.stdout.splitlines() if line.strip().startswith(("[bold]", "chat"))]
    assert rows == [MARKED, BRACKETED], result.stdout  # the per-conversation table
    assert f"samples: {MARKED}, {BRACKETED};" in result.stdout
    assert f"artefacts: {out / 'questions.jsonl'}" in result.stdout
    assert f"ingest {BRACKETED}" in result.stderr + result.stdout  # the progress line


def test_report_tables_print_names_as_written(tmp_path: Path) -> None:
    """The other reports' names from data: an attribute an extractor proposed, a held-out
    sample (a LOCO column and fold)."""
    console = TerminalConsole(record=True, width=200, highlight=False)
    extraction = ExtractionReport.model_construct(
        extractor="rules", turns=1, by_attribute={"[red]job": 1}, refused_by_attribute={}, beliefs=1, proposed=1,
        accepted=1, refused_by_reason={"[i]why": 1}, by_polarity={}, by_modality={}, seconds=1.0, cpu_seconds=1.0,
        accepted_beliefs=(),
    )  # fmt: skip
    render_extraction(extraction, console)
    loco = LocoReport.model_construct(
        samples=(BRACKETED,), variants={"[b]v": {"overall": 1.0, "cat1": 1.0, "cat2": 1.0, "cat3": 1.0, "cat4": 1.0,
                                                 BRACKETED: 1.0}},
        folds=(), estimate_by_category={}, estimate=1.0, ablations=(), abstention={}, abstention_auc={}, baseline="b",
    )  # fmt: skip
    render_loco(loco, console)
    shown = console.export_text()
    for name in ("[red]job", "[i]why 1", "[b]v", BRACKETED):
        assert name in shown, shown


def test_export_and_ingest_print_a_space_name_as_written(tmp_path: Path) -> None:
    turns = tmp_path / "turns.jsonl"
    turns.write_text(json.dumps({"text": "I work at Acme.", "speaker": "Ana"}) + "\n", encoding="utf-8")
    space, data = "[b]x[/b]", str(tmp_path / "m")
    runner = CliRunner()
    ingested = runner.invoke(app, ["ingest", str(turns), "--space", space, "--data-dir", data])
    assert ingested.exit_code == 0, ingested.output
    assert space in ingested.stdout, ingested.stdout
    exported = runner.invoke(app, ["export", "--space", space, "--out", str(tmp_path / "x.jsonl"), "--data-dir", data])
    assert exported.exit_code == 0, exported.output
    assert f"exported {space!r}" in exported.stderr, exported.stderr
