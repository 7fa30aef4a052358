"""``eywa bench extraction``: what the offline Level 1 makes of a turn file, and how fast.

No embedder, no store: the turns are read, Level 0 signals detected in memory, then the rule
extractor and the validator run and only those two steps are timed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from eywa.cli._common import out_console

if TYPE_CHECKING:
    from eywa.bench.extraction import ExtractionReport

__all__ = ["extraction", "render_extraction"]


def render_extraction(report: ExtractionReport, console: Console) -> None:
    """Beliefs per attribute, refusals per reason, and the throughput line."""
    table = Table(title=f"offline Level 1 over {report.turns} turns", box=box.SIMPLE_HEAD)
    table.add_column("attribute", no_wrap=True)
    table.add_column("beliefs", justify="right")
    table.add_column("refused", justify="right")
    for attribute in sorted(set(report.by_attribute) | set(report.refused_by_attribute),
                            key=lambda a: (-report.by_attribute.get(a, 0), a)):
        table.add_row(attribute, str(report.by_attribute.get(attribute, 0)),
                      str(report.refused_by_attribute.get(attribute, 0)))
    table.add_row("total", str(report.beliefs), str(report.proposed - report.accepted), style="bold")
    console.print(table)
    reasons = ", ".join(f"{k} {v}" for k, v in report.refused_by_reason.items()) or "none"
    console.print(f"proposed {report.proposed}, accepted {report.accepted}; refused by reason: {reasons}")
    console.print(f"polarity: {report.by_polarity}; modality: {report.by_modality}")
    console.print(
        f"extraction + validation: {report.seconds:.2f} s wall ({report.turns_per_s:.0f} turns/s), "
        f"{report.cpu_seconds:.2f} s CPU ({report.turns_per_cpu_s:.0f} turns/CPU-s)"
    )


def extraction(
    data: Annotated[Path, typer.Option("--data", help="LoCoMo file or JSONL of turns.", show_default=False)],
    sample: Annotated[int, typer.Option("--sample", min=0, help="Beliefs to sample for labelling.")] = 50,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the sample.")] = 12,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Folder for summary.json, beliefs.jsonl and the sample.", show_default=False),
    ] = None,
) -> None:
    """Offline Level 1 over a file: beliefs per attribute, refusals per reason, turns/s."""
    from eywa.bench.extraction import (  # deferred: keeps `eywa --help` fast
        load_evidence,
        measure_extraction,
        sample_beliefs,
        summary_json,
        write_sample,
    )

    console = out_console()
    report = measure_extraction(load_evidence(data))
    render_extraction(report, console)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "summary.json").write_text(json.dumps(summary_json(report), indent=2) + "\n", encoding="utf-8")
        write_sample(report.accepted_beliefs, out / "beliefs.jsonl")
        picked = out / f"sample-seed{seed}.jsonl"
        count = write_sample(sample_beliefs(report, sample, seed), picked)
        console.print(f"artefacts: {out / 'summary.json'}, {out / 'beliefs.jsonl'}, {picked} ({count} beliefs)")
