"""``eywa bench latency``: the synthetic-corpus latency benchmark and its tables."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from eywa.cli._common import err_console, load_settings, out_console
from eywa.errors import InvalidInputError

if TYPE_CHECKING:
    from eywa.bench.latency import LatencyReport

__all__ = ["latency", "parse_sizes", "render_latency"]


def parse_sizes(value: str) -> list[int]:
    """``"10000,100000"`` → ``[10000, 100000]``; "10k"/"100k" are accepted too.

    Raises:
        InvalidInputError: a size is not a positive integer.
    """
    sizes: list[int] = []
    for part in value.split(","):
        text = part.strip().lower().replace("_", "")
        scale = 1000 if text.endswith("k") else 1
        try:
            size = int(text.removesuffix("k")) * scale
        except ValueError:
            raise InvalidInputError(f"--turns: {part.strip()!r} is not a number of turns") from None
        if size < 1:
            raise InvalidInputError("--turns: sizes must be positive")
        sizes.append(size)
    return sizes


def render_latency(report: LatencyReport, console: Console) -> None:
    """Ingest rates, the per-stage percentile table, and the summary lines."""
    ingest = Table(title=f"ingest, {report.turns} turns ({report.backend})", box=box.SIMPLE_HEAD)
    for name, justify in (("pass", "left"), ("turns", "right"), ("seconds", "right"), ("turns/s", "right")):
        ingest.add_column(name, justify=justify, no_wrap=name != "pass")  # type: ignore[arg-type]
    for figure in report.ingest.values():
        ingest.add_row(figure.label, str(figure.turns), f"{figure.seconds:.1f}", f"{figure.turns_per_s:.1f}")
    if not report.ingest:
        ingest.add_row("(store reused: nothing ingested)", "-", "-", "-")
    console.print(ingest)

    stages = Table(title=f"recall latency, {report.queries} queries (ms)", box=box.SIMPLE_HEAD)
    stages.add_column("stage", no_wrap=True)
    for name in ("n", "p50", "p95", "p99"):
        stages.add_column(name, justify="right", no_wrap=True)
    for stage, p in report.recall.items():
        style = "bold" if stage == "wall" else None
        stages.add_row(stage, str(p.n), f"{p.p50:.2f}", f"{p.p95:.2f}", f"{p.p99:.2f}", style=style)
    console.print(stages)

    shapes = ", ".join(f"{shape} {ms:.1f}" for shape, ms in report.by_shape_p50.items())
    console.print(f"p50 by shape (ms): {shapes}")
    ratio = f"{report.full_over_slowest_route:.2f}x" if report.full_over_slowest_route is not None else "n/a"
    console.print(f"full read / slowest route ({report.slowest_route or 'none'}), p50: {ratio}")
    alone = report.full_over_slowest_standalone_route
    console.print(
        f"full read / slowest route run alone ({report.slowest_standalone_route or 'none'}), p50: "
        + (f"{alone:.2f}x" if alone is not None else "n/a")
    )
    peaks = ", ".join(f"{phase} {mib:.0f} MiB" for phase, mib in report.peak_rss_mib.items())
    console.print(f"memory peak (RSS): {peaks}")
    loads = "; ".join(f"{when} {a:.2f}/{b:.2f}/{c:.2f}" for when, (a, b, c) in report.load_average.items())
    console.print(f"load average (1/5/15 min): {loads}")
    for name, check in report.targets.items():
        verdict = "[green]met[/]" if check["met"] else "[red]missed[/]"
        console.print(f"target {name} <= {check['target']}: measured {check['measured']} {verdict}")


def latency(
    turns: Annotated[
        str, typer.Option("--turns", help="Corpus size(s), comma-separated: 10000,100000 (10k works).")
    ] = "10000",
    queries: Annotated[int, typer.Option("--queries", min=1, help="Queries timed per size.")] = 200,
    backend: Annotated[
        Literal["embedded", "server"],
        typer.Option("--backend", help="embedded (default) or server (Neo4j + Qdrant, needs EYWA_NEO4J_URI)."),
    ] = "embedded",
    data_dir: Annotated[
        Path | None,
        typer.Option("--data-dir", help="Keep the recall store here (default: temporary).", show_default=False),
    ] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write the report(s) as JSON to this file.", show_default=False)
    ] = None,
    embed_pass: Annotated[
        bool,
        typer.Option("--embed-pass/--no-embed-pass", help="Also time Level 0 + embedding alone (embeds twice)."),
    ] = True,
    seed: Annotated[int, typer.Option("--seed", help="Corpus and query seed.")] = 0,
) -> None:
    """Latency on a synthetic corpus: ingest turns/s, recall p50/p95/p99 by stage, memory."""
    from eywa.bench.latency import run_latency_bench  # deferred: keeps `eywa --help` fast

    sizes = parse_sizes(turns)
    settings = load_settings(data_dir)
    out = out_console()
    reports = []
    for size in sizes:
        report = run_latency_bench(
            size, queries, backend, data_dir,
            embed_pass=embed_pass, seed=seed, settings=settings, console=err_console(),
        )
        render_latency(report, out)
        reports.append(report.model_dump(mode="json"))
    if json_out is not None:
        json_out.write_text(json.dumps(reports, indent=2) + "\n", encoding="utf-8")
        out.print(f"report: {json_out}")
