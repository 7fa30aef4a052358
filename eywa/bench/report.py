"""Rich rendering of the benchmarks' reports, kept apart from the numbers they show.

The console styles the verdicts with markup (``[green]met[/]``), so text that comes from
data — a sample id, a speaker, a variant's or an attribute's name, a path — is printed as
written: tables go out with ``markup=False`` (their cells are never read as markup) and a
line that quotes data ``escape``s it (``_data``). A sample id ``[bold]chat[/bold]`` printed
bold as ``chat``, and one of ``chat[b]`` as ``chat``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich import box
from rich.console import Console, JustifyMethod
from rich.markup import escape
from rich.table import Table

from eywa.bench.metrics import CategoryStats

if TYPE_CHECKING:
    from eywa.bench.chaos import ChaosReport
    from eywa.bench.extraction import ExtractionReport
    from eywa.bench.latency import LatencyReport
    from eywa.bench.latency_file import FileLatencyReport
    from eywa.bench.loco import LocoReport
    from eywa.bench.locomo import BenchSummary
    from eywa.bench.service import ServiceBenchReport

__all__ = [
    "conversation_table",
    "misses_table",
    "render_chaos",
    "render_file_latency",
    "render_latency",
    "render_loco",
    "render_service_bench",
    "render_summary",
    "summary_table",
]


def _data(value: object) -> str:
    """``value`` as text for a line printed with markup: shown as written, never styled."""
    return escape(str(value))


def _print_table(console: Console, table: Table) -> None:
    """A table whose cells and title hold data: printed as written (see the module)."""
    console.print(table, markup=False)


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


def conversation_table(summary: BenchSummary) -> Table:
    """Recall@k per conversation (rows) and category (columns), with each conversation's
    1-4 overall: a change that moves one conversation and not the others shows here."""
    table = Table(
        title=f"R@{summary.k} by conversation", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True
    )
    categories = list(summary.categories)
    table.add_column("sample", no_wrap=True)
    table.add_column("n", justify="right")
    for key in categories:
        table.add_column(f"{key} {summary.categories[key].name[:8]}", justify="right", no_wrap=True)
    table.add_column("1-4", justify="right", no_wrap=True)
    for sample, rows in summary.conversations.items():
        cells = [f"{rows[key].recall_at_k:.3f}" if key in rows and rows[key].scored else "-" for key in categories]
        overall = rows.get("overall")
        table.add_row(
            sample, str(sum(r.questions for key, r in rows.items() if key != "overall")), *cells,
            f"{overall.recall_at_k:.3f}" if overall else "-",
        )  # fmt: skip
    return table


def misses_table(summary: BenchSummary) -> Table:
    """Missed gold turns per category by the stage that lost them: no route found them
    (candidate generation), a route did but fusion left them out of the fused list, or they
    were fused but ranked below the k returned (``locomo.miss_stage``); then the same turns
    by whether a returned turn is of their session (a neighbouring turn ranked instead) or
    none is (a session the result never reached; ``locomo.missed_in_session``)."""
    from eywa.bench.locomo import MISS_SESSIONS, MISS_STAGES  # locomo imports this module

    title = f"gold turns missed at R@{summary.k}, by stage and by session"
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    table.add_column("category", no_wrap=True)
    for name in (*MISS_STAGES, *MISS_SESSIONS):
        table.add_column(name, justify="right", no_wrap=True)
    for key, stages in summary.misses.items():
        name = summary.categories[key].name if key in summary.categories else key
        sessions = summary.misses_by_session.get(key, {})
        cells = [str(stages.get(s, 0)) for s in MISS_STAGES] + [str(sessions.get(s, 0)) for s in MISS_SESSIONS]
        table.add_row(f"{key} {name}", *cells)
    return table



def render_summary(summary: BenchSummary, console: Console, *, by_conversation: bool = False) -> None:
    """Print the table (and, asked, the per-conversation table), the missed gold turns by
    stage and the ingest line."""
    _print_table(console, summary_table(summary))
    if by_conversation:
        _print_table(console, conversation_table(summary))
    if summary.misses:
        _print_table(console, misses_table(summary))
    console.print(
        f"ingest: {summary.ingest_turns} turns in {summary.ingest_seconds:.1f} s "
        f"({summary.ingest_turns_per_s:.1f} turns/s); samples: {_data(', '.join(summary.samples))}; "
        f"skipped gold ids: {summary.skipped_gold_ids}"
    )


def render_latency(report: LatencyReport, console: Console) -> None:
    """Ingest rates, the per-stage percentile table, and the summary lines."""
    ingest = Table(title=f"ingest, {report.turns} turns ({report.backend})", box=box.SIMPLE_HEAD)
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("pass", "left"), ("turns", "right"), ("seconds", "right"), ("turns/s", "right"),
    )
    for name, justify in columns:
        ingest.add_column(name, justify=justify, no_wrap=name != "pass")
    for figure in report.ingest.values():
        ingest.add_row(figure.label, str(figure.turns), f"{figure.seconds:.1f}", f"{figure.turns_per_s:.1f}")
    if not report.ingest:
        ingest.add_row("(store reused: nothing ingested)", "-", "-", "-")
    _print_table(console, ingest)

    stages = Table(title=f"recall latency, {report.queries} queries (ms)", box=box.SIMPLE_HEAD)
    stages.add_column("stage", no_wrap=True)
    for name in ("n", "p50", "p95", "p99"):
        stages.add_column(name, justify="right", no_wrap=True)
    for stage, p in report.recall.items():
        style = "bold" if stage == "wall" else None
        stages.add_row(stage, str(p.n), f"{p.p50:.2f}", f"{p.p95:.2f}", f"{p.p99:.2f}", style=style)
    _print_table(console, stages)

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
    if report.sqlite is not None:
        console.print(f"SQLite {report.sqlite}")
    if report.vector_index is not None:
        shards = "; ".join(
            f"{kind} {shard.indexed:,} of {shard.points:,} points indexed" for kind, shard in report.vector_index.items()
        )
        console.print(f"vector shards (HNSW): {shards}")
    for name, check in report.targets.items():
        verdict = "[green]met[/]" if check["met"] else "[red]missed[/]"
        console.print(f"target {name} <= {check['target']}: measured {check['measured']} {verdict}")
    if (crowd := report.crowd) is not None:
        console.print(
            f"crowded: {crowd.ingest.turns} turns in {crowd.other_spaces} other spaces "
            f"({crowd.ingest.turns_per_s:.1f} turns/s); keyword p50/p95 alone "
            f"{crowd.keyword_alone.p50:.2f}/{crowd.keyword_alone.p95:.2f} ms, crowded "
            f"{crowd.keyword_crowded.p50:.2f}/{crowd.keyword_crowded.p95:.2f} ms; "
            f"full read p95 crowded {crowd.wall_crowded.p95:.2f} ms"
        )
        verdict = "[green]met[/]" if crowd.met else "[red]missed[/]"
        console.print(f"target keyword p95 crowded/alone <= {crowd.target}: measured {crowd.keyword_p95_ratio} {verdict}")


def render_file_latency(report: FileLatencyReport, console: Console) -> None:
    """Recall and FTS5 alone by clock, the recall's stages, the ratios and the load."""
    table = Table(
        title=f"{report.turns} turns in one space, {report.queries} questions (ms)", box=box.SIMPLE_HEAD
    )
    table.add_column("measured", no_wrap=True)
    for name in ("n", "p50", "p95", "p99"):
        table.add_column(name, justify="right", no_wrap=True)
    for label, figures in (("recall", report.recall), ("FTS5 alone", report.fts5)):
        for clock, p in figures.items():
            table.add_row(f"{label} ({clock})", str(p.n), f"{p.p50:.2f}", f"{p.p95:.2f}", f"{p.p99:.2f}", style="bold")
    for stage, p in report.stages.items():
        table.add_row(f"  {stage} (wall)", str(p.n), f"{p.p50:.2f}", f"{p.p95:.2f}", f"{p.p99:.2f}")
    _print_table(console, table)
    for clock, ratio in report.fts5_ratio.items():
        console.print(f"recall / FTS5 alone ({clock}): p50 {ratio['p50']:.2f}x, p95 {ratio['p95']:.2f}x")
    loads = "; ".join(f"{when} {a:.2f}/{b:.2f}/{c:.2f}" for when, (a, b, c) in report.load_average.items())
    console.print(f"load average (1/5/15 min): {loads}; SQLite {report.sqlite}")
    verdict = "[green]met[/]" if report.met else "[red]missed[/]"
    console.print(f"target recall / FTS5 alone (cpu p50) <= {report.target}: measured {report.fts5_ratio['cpu']['p50']} {verdict}")


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
    _print_table(console, table)
    if report.rate is not None:
        console.print(
            f"open loop: {report.rate:g} turns/s offered ({report.batches_offered} batches, {report.late_batches} "
            f"late); refused by backpressure: {report.refused_batches} batches ({report.refused_turns} turns)"
        )
    if report.request_rate is not None:
        delay = report.send_delay_ms
        console.print(
            f"paced: {report.request_rate:g} requests/s offered ({report.requests_offered} requests, a write batch and "
            f"a recall in turn), {report.late_requests} sent late (send delay p95 {delay.get('p95', 0):.1f} ms, max "
            f"{delay.get('max', 0):.1f}); latency from each request's due time; refused by backpressure: "
            f"{report.refused_batches} batches"
        )
    console.print(f"requests/s: {report.requests_per_s:.1f} ({report.requests} requests)")
    console.print(f"turns/s: {report.turns_per_s:.1f} ({report.turns_acknowledged} turns acknowledged)")
    console.print(f"errors: {report.errors}")
    if report.api_cpu_s is not None:
        per = report.api_cpu_ms_per_request
        console.print(
            f"API process CPU: {report.api_cpu_s:.1f} s during the traffic ({'-' if per is None else f'{per:.1f}'} ms "
            f"per request), {report.api_cpu_drain_s or 0:.1f} s while draining; workers {report.worker_cpu_s or 0:.1f} "
            f"s; bench client {report.client_cpu_s or 0:.1f} s"
        )
    pending = ", ".join(f"{stage} {n}" for stage, n in report.backlog_after.items()) or "none"
    console.print(
        f"runner {report.runner} ({report.workers} workers), backend {report.backend}, {report.replicas} API "
        f"replica(s), vectors {report.vectors}; acknowledged after: {report.ack}"
    )
    for name, lag in (("embedded", report.embed_lag_ms), ("through Level 1", report.level1_lag_ms)):
        if lag is not None:
            console.print(
                f"ack → {name} (ms, per batch, ledger read every {report.lag_sample_s:g} s): p50 {lag.p50:.0f}, "
                f"p95 {lag.p95:.0f}, max {lag.max:.0f} ({lag.finished}/{lag.batches} batches)"
            )
    drained = "drained" if report.drained else "[red]not drained[/]"
    console.print(f"backlog {drained} {report.drain_s:.1f} s after the traffic; pending at the stop: {pending}")
    if report.backlog_peak:
        embedded = "every batch embedded" if report.embed_drained else "[red]not every batch embedded[/]"
        console.print(
            f"backlog peak: {report.backlog_peak.get('embed', 0)} turns to embed, "
            f"{report.backlog_peak.get('level1', 0)} to Level 1; {embedded}"
        )
    elif report.backlog_over_time:
        peak = max(report.backlog_over_time, key=lambda p: p.embed + p.level1)
        console.print(f"backlog peak: {peak.embed} turns to embed, {peak.level1} to Level 1 (at {peak.at:.1f} s)")
    for sample in report.error_samples:
        console.print(f"  {sample}", markup=False)
    loads = "; ".join(f"{when} {a:.2f}/{b:.2f}/{c:.2f}" for when, (a, b, c) in report.load_average.items())
    console.print(f"load average (1/5/15 min): {loads}")
    verdict = "[green]PASS[/]" if report.exactly_once else "[red]FAIL[/]"
    console.print(f"exactly-once ({len(report.spaces)} spaces, {sum(report.spaces.values())} turns stored): {verdict}")
    for problem in report.exactly_once_problems:
        console.print(f"  {problem}", markup=False)


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
    _print_table(console, table)
    reasons = ", ".join(f"{k} {v}" for k, v in report.refused_by_reason.items()) or "none"
    console.print(f"proposed {report.proposed}, accepted {report.accepted}; refused by reason: {_data(reasons)}")
    console.print(f"polarity: {_data(report.by_polarity)}; modality: {_data(report.by_modality)}")
    console.print(
        f"extraction + validation: {report.seconds:.2f} s wall ({report.turns_per_s:.0f} turns/s), "
        f"{report.cpu_seconds:.2f} s CPU ({report.turns_per_cpu_s:.0f} turns/CPU-s)"
    )



def render_chaos(report: ChaosReport, console: Console) -> None:
    """The chaos run's figures, one per line, and its verdict."""
    console.print(f"chaos ({report.mode}): {report.writers} writers, {report.elapsed_s:.1f} s")
    for fault in report.faults:
        console.print(f"  fault: {fault}", markup=False)
    console.print(f"turns acknowledged: {report.turns_acknowledged}")
    console.print(f"turns stored: {report.turns_stored}")
    console.print(f"duplicated: {report.duplicated}")
    console.print(f"lost: {report.lost}")
    console.print(
        f"batches retried: {report.retried_batches} ({_data(', '.join(report.failures_retried) or 'no failure')}), "
        f"never acknowledged: {report.unacknowledged_batches}"
    )
    for refusal in report.refusals:
        console.print(f"  refused: {refusal}", markup=False)
    console.print(f"server errors (5xx other than a 503 problem+json): {report.server_errors}")
    for sample in report.server_error_samples:
        console.print(f"  {sample}", markup=False)
    stages = ", ".join(f"{stage} {n}" for stage, n in report.backlog_by_stage.items())
    console.print(f"backlog at the end: {report.backlog} ({stages}; drained in {report.drain_s:.1f} s)")
    loads = "; ".join(f"{when} {a:.2f}/{b:.2f}/{c:.2f}" for when, (a, b, c) in report.load_average.items())
    console.print(f"load average (1/5/15 min): {loads}")
    console.print(f"chaos: {'[green]PASS[/]' if report.passed else '[red]FAIL[/]'}")


def render_loco(report: LocoReport, console: Console) -> None:
    """Variants by conversation, the LOCO folds and estimate, ablations, abstention.

    The tables have a column per conversation: give ``console`` room (about 130 columns)."""
    variants = Table(title="recall@k (cats 1-4, points) by variant", box=box.SIMPLE_HEAD, pad_edge=False)
    columns = ["overall", "cat1", "cat2", "cat3", "cat4", *report.samples]
    variants.add_column("variant", no_wrap=True)
    for name in columns:
        variants.add_column(name, justify="right", no_wrap=True)
    for name, figures in report.variants.items():
        variants.add_row(name, *(f"{figures[c]:.1f}" for c in columns))
    _print_table(console, variants)

    folds = Table(title="leave one conversation out", box=box.SIMPLE_HEAD, pad_edge=False)
    for name in ("held out", "chosen on the others", "train", "held-out", "cat1", "cat2", "cat3", "cat4"):
        folds.add_column(name, justify="left" if name in ("held out", "chosen on the others") else "right")
    for fold in report.folds:
        folds.add_row(
            fold.held_out, fold.chosen, f"{fold.train_recall:.1f}", f"{fold.held_out_recall:.1f}",
            *("-" if (v := fold.held_out_by_category[c]) is None else f"{v:.1f}" for c in (1, 2, 3, 4)),
        )  # fmt: skip
    _print_table(console, folds)
    by_cat = ", ".join(f"cat{c} {v:.1f}" for c, v in report.estimate_by_category.items())
    console.print(f"LOCO estimate (pooled held-out questions): {report.estimate:.1f} ({by_cat})")

    if report.ablations:
        table = Table(title=f"ablation against {report.baseline} (points)", box=box.SIMPLE_HEAD, pad_edge=False)
        table.add_column("variant", no_wrap=True)
        for name in ("overall", "cat1", "cat2", "cat3", "cat4", *report.samples, "kept"):
            table.add_column(name, justify="right", no_wrap=True)
        for ab in report.ablations:
            table.add_row(
                ab.variant, f"{ab.overall:+.1f}", *(f"{ab.by_category[c]:+.1f}" for c in (1, 2, 3, 4)),
                *(f"{ab.by_conversation[s]:+.1f}" for s in report.samples),
                "yes" if ab.kept else "no",
            )  # fmt: skip
        _print_table(console, table)
    for name, folds_ in report.abstention.items():
        parts = "; ".join(
            f"{f.held_out} AUC {f.auc if f.auc is not None else '-'} thr {f.threshold} "
            f"bal.acc {f.balanced_accuracy if f.balanced_accuracy is not None else '-'}"
            for f in folds_
        )
        console.print(f"abstention ({name}): AUC over all {report.abstention_auc.get(name)}; {parts}", soft_wrap=True,
                      markup=False)  # held-out sample ids are data
