"""Rich rendering of a benchmark summary, kept apart from the numbers it shows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich import box
from rich.console import Console
from rich.table import Table

from eywa.bench.metrics import CategoryStats

if TYPE_CHECKING:
    from eywa.bench.locomo import BenchSummary

__all__ = ["render_summary", "summary_table"]


def _row(table: Table, label: str, stats: CategoryStats, *, style: str | None = None) -> None:
    table.add_row(
        label,
        str(stats.questions),
        str(stats.scored),
        f"{stats.recall_at_k:.3f}",
        f"{stats.all_hit_rate:.3f}",
        f"{stats.tokens_mean:.0f}",
        str(stats.tokens_max),
        f"{stats.latency_p50_ms:.1f}",
        f"{stats.latency_p95_ms:.1f}",
        style=style,
    )


def summary_table(summary: BenchSummary) -> Table:
    """One row per category and an overall row (categories 1-4, averaged over questions).

    Compact on purpose (no vertical rules, short headers): it must fit 80 columns.
    """
    table = Table(
        title=f"LoCoMo trace-level evaluation (k={summary.k})",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    table.add_column("category", no_wrap=True)
    for name in ("n", "scored", f"R@{summary.k}", "all-hit", "tokens", "tok max", "p50 ms", "p95 ms"):
        table.add_column(name, justify="right", no_wrap=True)
    for key, stats in summary.categories.items():
        _row(table, f"{key} {stats.name}", stats)
    _row(table, "1-4 overall", summary.overall, style="bold")
    return table


def render_summary(summary: BenchSummary, console: Console) -> None:
    """Print the table and the ingest line."""
    console.print(summary_table(summary))
    console.print(
        f"ingest: {summary.ingest_turns} turns in {summary.ingest_seconds:.1f} s "
        f"({summary.ingest_turns_per_s:.1f} turns/s); samples: {', '.join(summary.samples)}; "
        f"skipped gold ids: {summary.skipped_gold_ids}"
    )
