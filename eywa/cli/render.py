"""Rich rendering of recall results: items with provenance, then the packed context."""

from __future__ import annotations

from rich.console import Console
from rich.panel import Panel
from rich.table import Table

from eywa.models import EvidenceRef, RecallResult

__all__ = ["print_recall", "provenance_text", "recall_table"]

_TEXT_WIDTH = 160


def provenance_text(ref: EvidenceRef) -> str:
    """``session · speaker · date [· dia_id]``: enough to find the turn again by eye."""
    parts = [ref.session, ref.speaker or "?", ref.observed_at.strftime("%Y-%m-%d %H:%M")]
    dia_id = ref.metadata.get("dia_id")
    if dia_id:
        parts.append(str(dia_id))
    return " · ".join(parts)


def _shorten(text: str, width: int = _TEXT_WIDTH) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def recall_table(result: RecallResult) -> Table:
    """One row per ranked item: kind, score, routes with their ranks, provenance, text."""
    table = Table(title=f"recall: {result.query}", show_lines=False)
    table.add_column("#", justify="right")
    table.add_column("kind")
    table.add_column("score", justify="right")
    table.add_column("routes")
    table.add_column("provenance")
    table.add_column("text", overflow="fold")
    for rank, item in enumerate(result.items, start=1):
        routes = " ".join(f"{name}:{pos}" for name, pos in sorted(item.routes.items()))
        provenance = "\n".join(provenance_text(ref) for ref in item.provenance[:3])
        if len(item.provenance) > 3:
            provenance += f"\n(+{len(item.provenance) - 3} more)"
        table.add_row(
            str(rank), item.kind, f"{item.score:.4f}", routes, provenance, _shorten(item.text)
        )
    return table


def print_recall(console: Console, result: RecallResult, *, context: bool = True) -> None:
    """The items table, then the context exactly as an agent would receive it, on the CLI's
    ``out_console`` (no markup: stored text is shown as it is, ``eywa.runtime.terminal``)."""
    console.print(recall_table(result))
    if context:
        console.print(
            Panel(result.context or "(empty)", title=f"context ({result.tokens} tokens)", expand=False)
        )
