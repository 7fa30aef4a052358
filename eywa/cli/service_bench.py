"""``eywa bench service``: concurrent agents against a local API, then an exactly-once audit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from eywa.cli._common import load_settings, out_console
from eywa.errors import ConfigurationError

if TYPE_CHECKING:
    from eywa.bench.service import ServiceBenchReport

__all__ = ["render_service_bench", "service"]


def render_service_bench(report: ServiceBenchReport, console: Console) -> None:
    """The per-route table, the throughput lines and the exactly-once verdict."""
    table = Table(
        title=f"service, {report.agents} agents, {report.elapsed_s:.1f} s (ms)", box=box.SIMPLE_HEAD
    )
    table.add_column("route", no_wrap=True)
    for name in ("requests", "req/s", "errors", "p50", "p95", "p99"):
        table.add_column(name, justify="right", no_wrap=True)
    labels = {"turns": "POST /turns", "recall": "POST /recall"}
    for route, figures in report.routes.items():
        table.add_row(
            labels.get(route, route), str(figures.requests), f"{figures.requests / report.elapsed_s:.1f}",
            str(figures.errors), f"{figures.p50:.1f}", f"{figures.p95:.1f}", f"{figures.p99:.1f}",
        )
    console.print(table)
    console.print(f"requests/s: {report.requests_per_s:.1f} ({report.requests} requests)")
    console.print(f"turns/s: {report.turns_per_s:.1f} ({report.turns_acknowledged} turns acknowledged)")
    console.print(f"errors: {report.errors}")
    for sample in report.error_samples:
        console.print(f"  {sample}", markup=False)
    loads = "; ".join(f"{when} {a:.2f}/{b:.2f}/{c:.2f}" for when, (a, b, c) in report.load_average.items())
    console.print(f"load average (1/5/15 min): {loads}")
    verdict = "[green]PASS[/]" if report.exactly_once else "[red]FAIL[/]"
    console.print(f"exactly-once ({len(report.spaces)} spaces, {sum(report.spaces.values())} turns stored): {verdict}")
    for problem in report.exactly_once_problems:
        console.print(f"  {problem}", markup=False)


def service(
    agents: Annotated[int, typer.Option("--agents", min=1, help="Concurrent agents (threads, one client each).")] = 16,
    seconds: Annotated[float, typer.Option("--seconds", min=0.1, help="How long the agents send traffic.")] = 20.0,
    data_dir: Annotated[
        Path | None,
        typer.Option("--data-dir", help="Keep the store here (default: a temporary directory).", show_default=False),
    ] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write the report as JSON to this file.", show_default=False)
    ] = None,
) -> None:
    """Concurrent agents over HTTP on 127.0.0.1: req/s, turns/s, p50/p95 per route, exactly-once."""
    try:
        from eywa.bench.service import run_service_bench  # deferred: keeps `eywa --help` fast
    except ImportError as exc:  # pragma: no cover - the optional extra is missing
        raise ConfigurationError(f"eywa bench service needs the service extra ({exc})") from exc

    report = run_service_bench(agents, seconds, data_dir, settings=load_settings(data_dir))
    out = out_console()
    render_service_bench(report, out)
    if json_out is not None:
        json_out.write_text(json.dumps(report.model_dump(mode="json"), indent=2) + "\n", encoding="utf-8")
        out.print(f"report: {json_out}")
    if not report.exactly_once:
        raise typer.Exit(1)
