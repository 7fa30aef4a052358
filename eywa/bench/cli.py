"""``eywa bench …``: the evaluation harnesses, one sub-command each.

A plugin of the ``eywa`` command (``[project.entry-points."eywa.commands"]``): the
benchmarks are an entry point like the API and the workers, and open what they measure
through ``eywa.runtime``. ``bench service`` runs the API as its own process (``eywa serve``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Literal

import typer

from eywa.bench.report import render_chaos, render_extraction, render_latency, render_service_bench
from eywa.errors import InvalidInputError
from eywa.runtime import load_settings
from eywa.runtime.commands import EywaGroup, err_console, out_console
from eywa.runtime.terminal import TerminalConsole
from eywa.settings import EywaSettings

__all__ = ["app", "parse_sizes"]

app = typer.Typer(cls=EywaGroup, no_args_is_help=True, help="Evaluation harnesses.")


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
    by_conversation: Annotated[
        bool, typer.Option("--by-conversation", help="Also print recall@k per conversation and category.")
    ] = False,
) -> None:
    """Trace-level LoCoMo evaluation: evidence recall@k, all-evidence hits, tokens, latency."""
    from eywa.bench.locomo import run_locomo_bench  # deferred: keeps `eywa --help` fast

    settings = load_settings(data_dir)
    run_locomo_bench(
        data, k=k, out=out, memory_dir=data_dir, settings=settings, samples=sample, console=out_console(),
        by_conversation=by_conversation,
    )
    if out is not None:
        out_console(markup=False).print(f"artefacts: {out / 'questions.jsonl'}, {out / 'summary.json'}", soft_wrap=True)


@app.command("loco")
def loco(
    runs: Annotated[
        list[str],
        typer.Argument(help="Runs of `bench locomo --out`, as NAME=FOLDER (or FOLDER: its name), one per variant."),
    ],
    baseline: Annotated[
        str | None, typer.Option("--baseline", help="The variant the others are compared to (default: the first).")
    ] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write the report as JSON to this file.", show_default=False)
    ] = None,
) -> None:
    """Leave one conversation out over variant runs: the estimate on unseen conversations,
    each variant's deltas per conversation and category, the abstention signal's AUC."""
    from eywa.bench.loco import load_run, loco_report  # deferred: keeps `eywa --help` fast
    from eywa.bench.report import render_loco

    named: dict[str, Path] = {}
    for run in runs:
        name, sep, folder = run.partition("=")
        path = Path(folder if sep else name)
        named[name if sep else path.name] = path
    try:
        report = loco_report({name: load_run(path) for name, path in named.items()}, baseline or next(iter(named)))
    except ValueError as exc:
        raise InvalidInputError(str(exc)) from exc
    out = out_console()
    # A column per conversation; the terminal console shows control characters as escapes.
    render_loco(report, TerminalConsole(highlight=False, width=max(out.width, 132)))
    if json_out is not None:
        json_out.write_text(json.dumps(report.model_dump(mode="json"), indent=2) + "\n", encoding="utf-8")
        out.print(f"report: {json_out}", markup=False)  # a path is shown as written


@app.command("latency")
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
    crowd: Annotated[
        int,
        typer.Option(
            "--crowd", min=0,
            help="Server only: then write this many turns to other spaces and time the queries again "
            "(those spaces are dropped afterwards, as are the variant passes' on a server).",
        ),
    ] = 0,
    data: Annotated[
        Path | None,
        typer.Option(
            "--data",
            help="A LoCoMo file instead of the synthetic corpus: its turns in one space, its questions "
            "timed through recall and through FTS5 alone (embedded; --turns is not used).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Latency on a synthetic corpus: ingest turns/s, recall p50/p95/p99 by stage, memory;
    with --data, recall against FTS5 alone on a LoCoMo file's turns. On --backend server the
    variant ingest passes and --crowd write to spaces of their own in the shared database,
    each dropped (erased) once timed, so the bench leaves no pending work behind."""
    settings = load_settings(data_dir)
    out = out_console()
    if data is not None:
        _file_latency(data, queries, backend, data_dir, json_out, settings)
        return
    from eywa.bench.latency import run_latency_bench  # deferred: keeps `eywa --help` fast

    sizes = parse_sizes(turns)
    reports = []
    for size in sizes:
        report = run_latency_bench(
            size, queries, backend, data_dir,
            embed_pass=embed_pass, seed=seed, crowd=crowd, settings=settings, console=err_console(),
        )
        render_latency(report, out)
        reports.append(report.model_dump(mode="json"))
    if json_out is not None:
        json_out.write_text(json.dumps(reports, indent=2) + "\n", encoding="utf-8")
        out.print(f"report: {json_out}", markup=False)  # a path is shown as written


def _file_latency(
    data: Path, queries: int, backend: str, data_dir: Path | None, json_out: Path | None, settings: EywaSettings
) -> None:
    """``bench latency --data FILE``: recall against FTS5 alone on the file's turns."""
    from eywa.bench.latency_file import run_file_latency_bench  # deferred: keeps `eywa --help` fast
    from eywa.bench.report import render_file_latency

    if backend != "embedded":
        raise InvalidInputError("--data compares recall with SQLite FTS5 and needs the embedded backend")
    report = run_file_latency_bench(data, queries, data_dir, settings=settings, console=err_console())
    out = out_console()
    render_file_latency(report, out)
    if json_out is not None:
        json_out.write_text(json.dumps(report.model_dump(mode="json"), indent=2) + "\n", encoding="utf-8")
        out.print(f"report: {json_out}", markup=False)  # a path is shown as written


@app.command("service")
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
    ack: Annotated[
        Literal["level0", "level1"],
        typer.Option("--ack", help="POST /turns answers after Level 1, or once Level 0 is committed."),
    ] = "level1",
    runner: Annotated[
        Literal["inline", "celery"],
        typer.Option("--runner", help="Stages after Level 0 in the API process, or in `eywa worker` processes."),
    ] = "inline",
    backend: Annotated[
        Literal["embedded", "server"] | None,
        typer.Option("--backend", help="Default: what the settings name (server when EYWA_NEO4J_URI is set).",
                     show_default=False),
    ] = None,
    replicas: Annotated[int, typer.Option("--replicas", min=1, help="API processes (server backend).")] = 1,
    workers: Annotated[int, typer.Option("--workers", min=1, help="`eywa worker` processes (celery).")] = 2,
    drain: Annotated[
        float, typer.Option("--drain", min=0.0, help="Seconds to wait after the traffic for the backlog to drain.")
    ] = 60.0,
    rate: Annotated[
        float | None,
        typer.Option(
            "--rate", min=0.001, show_default=False,
            help="Open loop: send this many turns per second (batches of 4 on --agents sender threads) whatever "
            "the answers, writes only; refusals (backpressure) are counted apart. Use with --ack level0.",
        ),
    ] = None,
    request_rate: Annotated[
        float | None,
        typer.Option(
            "--request-rate", min=0.001, show_default=False,
            help="Paced: send this many requests per second in total, a write batch and a recall in turn, evenly "
            "spaced on --agents sender threads whatever the answers; latency counts from each request's due time, "
            "late requests are counted. Reads latency at a fixed offered load.",
        ),
    ] = None,
) -> None:
    """Concurrent agents over HTTP on 127.0.0.1: req/s, turns/s, p50/p95 per route, embed and
    Level 1 lags, exactly-once; with --rate, an open-loop writer and the backlog it leaves; with
    --request-rate, writes and recalls paced at a fixed offered load."""
    from eywa.bench.service import run_service_bench  # deferred: keeps `eywa --help` fast

    report = run_service_bench(
        agents, seconds, data_dir, settings=load_settings(data_dir), ack=ack, runner=runner, backend=backend,
        replicas=replicas, workers=workers, drain_s=drain, rate=rate, request_rate=request_rate,
    )  # fmt: skip
    out = out_console()
    render_service_bench(report, out)
    if json_out is not None:
        json_out.write_text(json.dumps(report.model_dump(mode="json"), indent=2) + "\n", encoding="utf-8")
        out.print(f"report: {json_out}", markup=False)  # a path is shown as written
    if not report.exactly_once:
        raise typer.Exit(1)


@app.command("chaos")
def chaos(
    writers: Annotated[int, typer.Option("--writers", min=1, help="Concurrent writers (threads over HTTP).")] = 8,
    seconds: Annotated[float, typer.Option("--seconds", min=0.5, help="How long the writers send turns.")] = 20.0,
    kills: Annotated[
        int,
        typer.Option(
            "--kills", min=0,
            help="embedded: SIGKILLs of the API process; server: rounds of faults (a worker, Redis, Neo4j).",
        ),
    ] = 2,
    drain: Annotated[float, typer.Option("--drain", min=1.0, help="Seconds allowed for the backlog to drain.")] = 120.0,
    backend: Annotated[
        Literal["embedded", "server"],
        typer.Option(
            "--backend",
            help="embedded (default; the API is killed) or server (own Redis and Neo4j, Celery workers; a checkout).",
        ),
    ] = "embedded",
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write the report as JSON to this file.", show_default=False)
    ] = None,
) -> None:
    """Writers over HTTP on 127.0.0.1 while processes are SIGKILLed and restarted (embedded:
    the API; server: a Celery worker, Redis without persistence, Neo4j): acknowledged, stored,
    duplicated, lost, backlog. Exits 1 unless nothing was duplicated or lost, every failure
    was a connection error or a 503 problem+json, and the backlog drained."""
    from eywa.bench.chaos import run_chaos_bench  # deferred: keeps `eywa --help` fast

    report = run_chaos_bench(writers, seconds, kills, drain, backend=backend, settings=load_settings())
    out = out_console()
    render_chaos(report, out)
    if json_out is not None:
        json_out.write_text(json.dumps(report.model_dump(mode="json"), indent=2) + "\n", encoding="utf-8")
        out.print(f"report: {json_out}", markup=False)  # a path is shown as written
    if not report.passed:
        raise typer.Exit(1)


@app.command("extraction")
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
        console.print(f"artefacts: {out / 'summary.json'}, {out / 'beliefs.jsonl'}, {picked} ({count} beliefs)", markup=False)


@app.command("erasure")
def erasure(
    turns: Annotated[str, typer.Option("--turns", help="Corpus size (10k works).")] = "10000",
    backend: Annotated[
        Literal["embedded", "server", "both"],
        typer.Option("--backend", help="embedded, server (needs EYWA_NEO4J_URI) or both."),
    ] = "embedded",
    real_embedder: Annotated[
        bool, typer.Option("--real-embedder", help="Embed with the configured model (default: a hash stand-in).")
    ] = False,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write the report(s) as JSON to this file.", show_default=False)
    ] = None,
) -> None:
    """Erase one speaker from a synthetic space: time taken and the proof's residue (must be 0).
    Exits 1 if any residue remains."""
    from eywa.bench.erasure import run_erasure_bench  # deferred: keeps `eywa --help` fast

    (size,) = parse_sizes(turns)
    settings = load_settings()
    out = out_console()
    reports = []
    for chosen in (("embedded", "server") if backend == "both" else (backend,)):
        report = run_erasure_bench(size, chosen, settings, err_console(), real_embedder=real_embedder)
        out.print(
            f"{report.backend}: erased {report.speaker} ({report.speaker_turns} of {report.turns} turns) in "
            f"{report.erase_seconds:.2f} s; residue {report.residue_total} {report.residue}; "
            f"removed {report.counts}; load {report.load[0]:.2f} {report.load[1]:.2f} {report.load[2]:.2f}",
            soft_wrap=True, markup=False,  # the speaker is data
        )
        reports.append(report)
    if json_out is not None:
        json_out.write_text(json.dumps([r.model_dump(mode="json") for r in reports], indent=2) + "\n", encoding="utf-8")
        out.print(f"report: {json_out}", markup=False)  # a path is shown as written
    if any(r.residue_total for r in reports):
        raise typer.Exit(1)
