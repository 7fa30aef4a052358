"""``eywa bench …``: evaluation harnesses, one sub-command each."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from eywa.cli._common import EywaGroup, load_settings, out_console
from eywa.cli.extraction_bench import extraction
from eywa.cli.latency import latency
from eywa.cli.service_bench import service

__all__ = ["app"]

app = typer.Typer(cls=EywaGroup, no_args_is_help=True, help="Evaluation harnesses.")
app.command("extraction")(extraction)
app.command("latency")(latency)
app.command("service")(service)


@app.command("locomo")
def locomo(
    data: Annotated[Path, typer.Option("--data", help="LoCoMo-format JSON file.", show_default=False)],
    k: Annotated[int, typer.Option("-k", "--k", min=1, help="Distinct turns scored per question.")] = 10,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Folder for questions.jsonl and summary.json.", show_default=False),
    ] = None,
    data_dir: Annotated[
        Path | None,
        typer.Option("--data-dir", help="Keep the store here (default: a temporary directory).", show_default=False),
    ] = None,
    sample: Annotated[
        list[str] | None, typer.Option("--sample", help="Only this sample_id (repeatable).", show_default=False)
    ] = None,
) -> None:
    """Trace-level LoCoMo evaluation: evidence recall@k, all-evidence hits, tokens, latency."""
    from eywa.bench.locomo import run_locomo_bench  # deferred: keeps `eywa --help` fast

    settings = load_settings(data_dir)
    run_locomo_bench(
        data, k=k, out=out, memory_dir=data_dir, settings=settings, samples=sample, console=out_console()
    )
    if out is not None:
        out_console().print(f"artefacts: {out / 'questions.jsonl'}, {out / 'summary.json'}")
