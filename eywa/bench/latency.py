"""The latency benchmark: ingest a synthetic corpus, run a fixed query mix, report percentiles.

What it answers (issue 5): how fast is Level 0 alone, with embedding, and with Level 1;
how long does recall take at p50/p95/p99 and in which stage; how much memory does the
process peak at; and how far the full read path is from its slowest single route, in the
same run (the read path should cost at most a few routes, not a pile of overheads).

Ingest is measured in three separately labelled passes, each on a fresh store, so that no
figure is inferred from another:

- ``level0``: Level 0 with no extractor and, embedded, a constant "null" embedder (it
  exists only for this figure; recall numbers never use it). On a server the passes share
  the recall store's database, whose recorded embedder is the deployment's: opening it with
  the null embedder would mark every space's vectors stale, and the next open would re-embed
  them all behind the timed recalls. So there Level 0 is timed as the API acknowledges it
  when workers embed: the configured embedder, the vectors left pending (``embed_writes=False``).
- ``level0_embed``: Level 0 with the configured embedder, no extractor.

What earlier runs left pending is finished before the queries are timed, so no recall is
timed beside background work (the report says how many marks that was). On a server the
variant passes (and ``crowd``'s spaces, after their timing) write to spaces of their own,
named per run, and each is dropped (``Memory.drop_space``) once its figure is taken: left
there, their vectors and Level 1 were pending work of the shared database (the ``level0``
pass's, and ``crowd``'s), or stood counted as embedded in a scratch Qdrant (``level0_embed``
without ``EYWA_QDRANT_URL``), and this run or a later one on a kept store embedded them and
ran Level 1 on all of them first (30+ min at 100k). The drop is the erasure cascade with its
record and tombstones, which is why the names carry a per-run token; it is not free: 2,000
turns took 5.7 s (Level 0 pass), 11.8 s (embedding pass, its vectors too) and 3.0 s (crowd),
nice 15 on a shared two-core machine, so minutes at 100k (``--no-embed-pass`` skips the
costliest). The crowd's spaces are dropped after the crowded timing, by the recall store's
memory: the crowd's own is closed before the timing, as it was.
- ``full``: the configured default (embedder and extractor, Level 1 awaited). The recall
  phase runs on this store.

With ``crowd`` (server backend), the same queries run a second time after ``crowd`` more
turns were written to other spaces of the same database (Level 0 alone, vectors pending): the
keyword route's p95 crowded over alone shows whether a space's search cost grows with the
rest of the database (issue #14 asks for at most 1.5x at 10k in one space, 90k in others).

Example:
    >>> report = run_latency_bench(10_000, queries=200)  # doctest: +SKIP
    >>> report.recall["wall"].p95  # doctest: +SKIP
"""

from __future__ import annotations

import os
import re
import resource
import sqlite3
import tempfile
import time
import uuid
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict
from rich.console import Console

from eywa.bench.metrics import percentile
from eywa.bench.synthetic import generate_corpus, generate_queries
from eywa.errors import InvalidInputError
from eywa.runtime import Backend, load_settings, open_memory
from eywa.runtime.ingest import progress_bar
from eywa.settings import EywaSettings

if TYPE_CHECKING:
    from eywa.embedding import Embedder
    from eywa.memory import Memory

__all__ = [
    "Backend",
    "CrowdReport",
    "IngestPass",
    "LatencyReport",
    "NullEmbedder",
    "Percentiles",
    "TARGETS",
    "run_latency_bench",
]

# (turns) -> {figure: ceiling in ms}; "ratio" is full read p50 over slowest route p50.
TARGETS: dict[int, dict[str, float]] = {
    10_000: {"p50": 10.0, "p95": 25.0, "ratio": 3.0},
    100_000: {"p95": 60.0, "ratio": 3.0},
}
# Server mode, Neo4j routes measured for real, vector route disabled (no Qdrant server runs
# where this is measured; qdrant-client's local mode is a brute-force stand-in).
SERVER_TARGETS: dict[int, dict[str, float]] = {10_000: {"p95": 50.0}, 100_000: {"p95": 120.0}}
# Keyword p95 with the other spaces written over the same space alone.
CROWD_TARGET = 1.5
CROWD_SPACES = 9
WARMUP_QUERIES = 20
# The scheduler's account of the calling thread (Linux): nanoseconds on a CPU, nanoseconds
# runnable but waiting for one, and time slices.
_SCHEDSTAT = Path("/proc/thread-self/schedstat")


class NullEmbedder:
    """A constant unit vector for every text: isolates Level 0 cost in the ``level0`` pass."""

    model_id = "null"

    def __init__(self, dim: int = 384) -> None:
        self._vector = np.zeros(dim, dtype=np.float32)
        self._vector[0] = 1.0

    @property
    def dim(self) -> int:
        """Vector width (matches the default embedder so stores are built alike)."""
        return int(self._vector.shape[0])

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """``len(texts)`` copies of the constant vector."""
        return np.tile(self._vector, (len(texts), 1))


class Percentiles(BaseModel):
    """p50/p95/p99 (ms) over the queries that reported the stage."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    n: int
    p50: float
    p95: float
    p99: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Percentiles:
        """Percentiles of ``values`` rounded to microseconds."""
        return cls(n=len(values), **{f"p{q}": round(percentile(values, q), 3) for q in (50, 95, 99)})


class IngestPass(BaseModel):
    """One ingest pass: its label, turns stored and wall time inside ``remember``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    label: str
    turns: int
    seconds: float
    turns_per_s: float


class CrowdReport(BaseModel):
    """The same queries again after other spaces were written (see the module docstring)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    other_spaces: int
    ingest: IngestPass
    keyword_alone: Percentiles
    keyword_crowded: Percentiles
    wall_crowded: Percentiles
    keyword_p95_ratio: float
    target: float
    met: bool


class LatencyReport(BaseModel):
    """Everything one run measured; ``--json`` writes it as is.

    ``full_over_slowest_route`` divides the full read's p50 by the largest p50 among the
    ``route.*`` stages as the reader times them. The vector route cannot run without the
    query embedding, so ``full_over_slowest_standalone_route`` also counts ``embed`` as part
    of the vector route (``route.vector+embed``): what that route would cost alone.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    backend: Backend
    turns: int
    queries: int
    seed: int
    ingest: dict[str, IngestPass]
    recall: dict[str, Percentiles]
    by_shape_p50: dict[str, float]
    slowest_route: str | None
    full_over_slowest_route: float | None
    slowest_standalone_route: str | None
    full_over_slowest_standalone_route: float | None
    peak_rss_mib: dict[str, float]
    load_average: dict[str, tuple[float, float, float]]
    targets: dict[str, dict[str, Any]]
    crowd: CrowdReport | None = None
    sqlite: str | None = None
    """The SQLite library the embedded store ran on (None on the server backend): FTS5's
    BM25 over the same 10k turns took ~30% less CPU on 3.51 than on 3.40 (docs/latency.md),
    so figures from machines with other versions differ by that much."""
    finished_before_timing: int = 0
    """Pending marks (of this or earlier runs' passes) finished before the queries were timed."""
    vector_index: dict[str, VectorShardIndex] | None = None
    """Per embedded vector shard, its points and how many an HNSW graph held while the
    queries ran (None on the server backend, whose Qdrant indexes by itself): an unindexed
    shard is scanned by every search (``eywa index-vectors``)."""


class VectorShardIndex(BaseModel):
    """One vector shard's points and how many of them were indexed (HNSW)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    points: int
    indexed: int


def run_latency_bench(
    turns: int,
    queries: int = 200,
    backend: Backend = "embedded",
    data_dir: Path | None = None,
    *,
    embed_pass: bool = True,
    seed: int = 0,
    batch_size: int = 500,
    crowd: int = 0,
    settings: EywaSettings | None = None,
    console: Console | None = None,
) -> LatencyReport:
    """Ingest ``turns`` synthetic turns, run ``queries`` recalls, and measure both.

    ``data_dir`` keeps the recall store (default: a temporary directory). If its space
    already holds the corpus, no ingest pass runs (the report's ``ingest`` is empty),
    which makes re-running queries at 100k cheap. ``embed_pass=False`` skips the separate
    Level 0 + embedding pass, which embeds the corpus a second time. ``crowd`` turns are
    then written to other spaces and the queries timed again (server backend only).

    Raises:
        InvalidInputError: ``turns`` or ``queries`` below 1, ``batch_size`` below 1, or
            ``crowd`` negative or set for the embedded backend (one directory, one writer).
        ConfigurationError: ``backend="server"`` without ``EYWA_NEO4J_URI``, or a bad
            ``EYWA_*`` value.
    """
    if turns < 1 or queries < 1 or batch_size < 1:
        raise InvalidInputError("turns, queries and batch_size must be at least 1")
    if crowd < 0 or (crowd and backend != "server"):
        raise InvalidInputError("--crowd takes a number of turns and needs --backend server")
    settings = settings or load_settings()
    console = console or Console(stderr=True)
    space = f"synthetic-{turns}"
    run = uuid.uuid4().hex[:8]  # the throwaway spaces' names: dropped ones leave tombstones
    corpus = [turn for _, turn in generate_corpus(turns, seed=seed)]
    no_level1 = settings.model_copy(update={"extractor": "none"})
    ingest: dict[str, IngestPass] = {}
    peaks: dict[str, float] = {}
    loads: dict[str, tuple[float, float, float]] = {"start": _load()}
    with ExitStack() as stack:

        def scratch() -> Path:
            return Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="eywa-latency-")))

        _reset_peak()
        mem = stack.enter_context(_open(backend, settings, data_dir or scratch(), None))
        if space not in mem.spaces() or mem.stats(space)["evidence"] < turns:
            # Variant passes get their own space too: on a server they share one database.
            with _level0_memory(backend, no_level1, scratch()) as scratch_mem:
                ingest["level0"] = _ingest(
                    scratch_mem, f"{space}-level0-{run}", corpus, batch_size, _LEVEL0_LABEL[backend], console
                )
                _drop(backend, scratch_mem, [f"{space}-level0-{run}"], console)
            if embed_pass:
                with _open(backend, no_level1, scratch(), None) as scratch_mem:
                    ingest["level0_embed"] = _ingest(
                        scratch_mem, f"{space}-embed-{run}", corpus, batch_size, "Level 0 + embedding (no Level 1)",
                        console,
                    )  # fmt: skip
                    _drop(backend, scratch_mem, [f"{space}-embed-{run}"], console)
            label = f"Level 0 + embedding + Level 1 ({settings.extractor})"
            ingest["full"] = _ingest(mem, space, corpus, batch_size, label, console)
        peaks["ingest"] = _peak_rss_mib()

        finished = sum(r.total for r in mem.wait())  # no recall timed beside background work
        _wait_keyword_index(mem, console)
        _wait_vector_docs(mem, console)
        _reset_peak()
        loads["recall"] = _load()
        samples = _recall(mem, space, seed, queries, console)
        peaks["recall"] = _peak_rss_mib()
        loads["end"] = _load()
        crowded: CrowdReport | None = None
        if crowd:
            with _level0_memory(backend, no_level1, scratch()) as other:
                crowd_pass, others = _ingest_others(other, f"{space}-other-{run}", crowd, seed, batch_size, console)
            loads["crowded"] = _load()
            crowded = _crowd_report(crowd_pass, samples, _recall(mem, space, seed, queries, console))
            _drop(backend, mem, others, console)  # after the timing, by the recall store's memory
        index = _vector_index(mem) if backend == "embedded" else None
        _keyword_counts(mem, console)
    report = _report(backend, turns, queries, seed, ingest, samples, peaks, loads, settings)
    return report.model_copy(update={"crowd": crowded, "finished_before_timing": finished, "vector_index": index})


def _wait_keyword_index(mem: Memory, console: Console) -> None:
    """Wait for the embedded store's in-memory keyword index (built in the background after
    open; FTS5 answers until then), so that recalls are timed with it, not with the fallback."""
    wait = getattr(mem._stores.keyword, "wait_ready", None)  # noqa: SLF001 - the embedded index only
    _wait_for("keyword index", wait, "ready", "not in use (EYWA_KEYWORD_INDEX=fts5, or its build failed): FTS5 answers", console)


def _wait_vector_docs(mem: Memory, console: Console) -> None:
    """Wait for the embedded vector shards' doc ids (read into memory in the background after
    open; searches read each hit's payload until then), so that recalls are timed as a
    memory that has been open a while answers them."""
    wait = getattr(mem._stores.vectors, "docs_ready", None)  # noqa: SLF001 - the embedded shards only
    _wait_for("vector doc ids", wait, "in memory", "not all read (searches read payloads)", console)


def _wait_for(what: str, wait: Callable[[float], bool] | None, ready: str, not_ready: str, console: Console) -> None:
    """Call ``wait`` (a store's wait for its background work after open, absent on a backend
    without it) and print how it ended and how long it took."""
    if wait is not None:
        began = time.perf_counter()
        state = ready if wait(600.0) else not_ready
        console.print(f"{what}: {state} after {time.perf_counter() - began:.1f} s of waiting")


def _keyword_counts(mem: Memory, console: Console) -> None:
    counts = getattr(mem._stores.keyword, "memory_counts", None)  # noqa: SLF001
    if counts is not None:
        console.print(f"keyword index: evidence searches {counts()}")


def _vector_index(mem: Memory) -> dict[str, VectorShardIndex]:
    return {state.kind: VectorShardIndex(points=state.points, indexed=state.indexed) for state in mem.vector_index()}


def _recall(
    mem: Memory, space: str, seed: int, queries: int, console: Console
) -> list[tuple[str, float, dict[str, float]]]:
    """Warm up, then time ``queries`` recalls: (shape, wall ms, the trace's stage timings,
    ``cpu``, the recall's process CPU ms, and ``cpu.thread``, the CPU ms of the thread that
    asked: the read path without the query embedding, which runs in threads of its own).

    Where the scheduler says (Linux), the asking thread's wall time is also split: besides
    its CPU, ``wait.core`` (runnable, waiting for a core: the machine's load) and
    ``wait.blocked`` (the rest: waiting for the query embedding, for Qdrant Edge's search
    threads, a lock or I/O). On a shared machine the first tells how much of a figure is
    other work's; the second is the read path's own critical path beyond its CPU."""
    for query in generate_queries(seed + 1, WARMUP_QUERIES):
        mem.recall(space, query.text)
    samples: list[tuple[str, float, dict[str, float]]] = []
    with progress_bar(console, transient=True) as bar:
        task = bar.add_task("recall", total=queries)
        for query in generate_queries(seed, queries):
            sched = thread_schedstat()
            began, cpu, thread = time.perf_counter(), time.process_time(), time.thread_time()
            result = mem.recall(space, query.text)
            wall = (time.perf_counter() - began) * 1000.0
            thread_ms = (time.thread_time() - thread) * 1000.0
            after = thread_schedstat()
            timings = dict(result.trace.get("timings_ms", {}))
            # The process's CPU time (the query embedding may use onnxruntime's threads): on a shared
            # machine, wall time also counts waiting for a core.
            timings["cpu"] = (time.process_time() - cpu) * 1000.0
            timings["cpu.thread"] = thread_ms
            if sched is not None and after is not None:
                timings.update(wall_split(wall, sched, after))
            samples.append((query.shape, wall, timings))
            bar.advance(task)
    return samples


def thread_schedstat() -> tuple[int, int] | None:
    """The calling thread's (ns on a CPU, ns runnable waiting for one) from the scheduler, or
    None where ``/proc/thread-self/schedstat`` is not there (not Linux, no schedstats)."""
    try:
        run, wait, _ = _SCHEDSTAT.read_text(encoding="ascii").split()
        return int(run), int(wait)
    except (OSError, ValueError):
        return None


def wall_split(wall_ms: float, before: tuple[int, int], after: tuple[int, int]) -> dict[str, float]:
    """A thread's wall time over an interval beside its CPU: ``wait.core`` (runnable,
    waiting for a core) and ``wait.blocked`` (neither running nor runnable: sleeping on a
    future, a lock, I/O), from two ``thread_schedstat`` readings (ms; never below 0)."""
    run_ms = (after[0] - before[0]) / 1e6
    core_ms = max(0.0, (after[1] - before[1]) / 1e6)
    return {"wait.core": core_ms, "wait.blocked": max(0.0, wall_ms - run_ms - core_ms)}


def _ingest_others(
    mem: Memory, prefix: str, turns: int, seed: int, batch_size: int, console: Console
) -> tuple[IngestPass, list[str]]:
    """``turns`` synthetic turns spread over ``CROWD_SPACES`` other spaces (another seed),
    named ``<prefix>-<n>``; and those names."""
    corpus = [turn for _, turn in generate_corpus(turns, seed=seed + 1)]
    share = -(-turns // CROWD_SPACES)
    spaces = [f"{prefix}-{n}" for n in range(len(range(0, turns, share)))]
    passes = [
        _ingest(mem, name, corpus[start : start + share], batch_size, "other spaces", console)
        for name, start in zip(spaces, range(0, turns, share), strict=True)
    ]
    seconds = sum(p.seconds for p in passes)
    crowded = IngestPass(
        label=f"Level 0 into {len(passes)} other spaces (vectors left pending, no Level 1)",
        turns=turns,
        seconds=round(seconds, 3),
        turns_per_s=round(turns / seconds, 1) if seconds > 0 else 0.0,
    )
    return crowded, spaces


def _drop(backend: Backend, mem: Memory, spaces: Sequence[str], console: Console) -> None:
    """On a server, drop the throwaway ``spaces`` (see the module docstring): they share the
    recall store's database. An embedded pass's directory goes with its scratch folder."""
    if backend != "server":
        return
    began = time.perf_counter()
    dropped = sum(mem.drop_space(name).counts.get("turns", 0) for name in spaces)
    took = time.perf_counter() - began
    console.print(f"dropped the throwaway spaces {', '.join(spaces)}: {dropped} turns in {took:.1f} s")


def _crowd_report(
    ingest: IngestPass,
    alone: Sequence[tuple[str, float, dict[str, float]]],
    crowded: Sequence[tuple[str, float, dict[str, float]]],
) -> CrowdReport:
    def keyword(samples: Sequence[tuple[str, float, dict[str, float]]]) -> Percentiles:
        return Percentiles.of([t["route.keyword"] for _, _, t in samples if "route.keyword" in t])

    before, after = keyword(alone), keyword(crowded)
    ratio = round(after.p95 / before.p95, 2) if before.p95 > 0 else 0.0
    return CrowdReport(
        other_spaces=CROWD_SPACES,
        ingest=ingest,
        keyword_alone=before,
        keyword_crowded=after,
        wall_crowded=Percentiles.of([wall for _, wall, _ in crowded]),
        keyword_p95_ratio=ratio,
        target=CROWD_TARGET,
        met=ratio <= CROWD_TARGET,
    )


def _open(backend: Backend, settings: EywaSettings, directory: Path, embedder: Embedder | None) -> Memory:
    """A memory of ``backend`` for one pass, its local files in ``directory``.

    Each pass needs its own directory: the embedded store's, or in server mode without a
    Qdrant server, qdrant-client's local-mode folder (``<data_dir>/qdrant-local``), which one
    client locks.
    """
    scoped = settings.model_copy(update={"data_dir": directory, "qdrant_path": None})
    return open_memory(scoped, backend=backend, embedder=embedder)


_LEVEL0_LABEL: dict[Backend, str] = {
    "embedded": "Level 0 (null embedder, no Level 1)",
    "server": "Level 0 (vectors left to workers, no Level 1)",
}


def _level0_memory(backend: Backend, settings: EywaSettings, directory: Path) -> Memory:
    """The memory of a Level 0 pass: embedded, the null embedder in a directory of its own;
    on a server, the configured embedder with the vectors left pending, so the database the
    passes share keeps its recorded embedder (see the module docstring)."""
    if backend == "embedded":
        return _open(backend, settings, directory, NullEmbedder())
    scoped = settings.model_copy(update={"data_dir": directory, "qdrant_path": None})
    return open_memory(scoped, backend=backend, embed_writes=False)


def _ingest(
    mem: Memory, space: str, corpus: Sequence[dict[str, Any]], batch_size: int, label: str, console: Console
) -> IngestPass:
    elapsed = 0.0
    with progress_bar(console, transient=True) as bar:
        task = bar.add_task(label, total=len(corpus))
        for start in range(0, len(corpus), batch_size):
            chunk = corpus[start : start + batch_size]
            began = time.perf_counter()
            mem.remember(space, chunk, wait=True)
            elapsed += time.perf_counter() - began
            bar.advance(task, len(chunk))
    rate = len(corpus) / elapsed if elapsed > 0 else 0.0
    return IngestPass(label=label, turns=len(corpus), seconds=round(elapsed, 3), turns_per_s=round(rate, 1))


def _report(
    backend: Backend,
    turns: int,
    queries: int,
    seed: int,
    ingest: dict[str, IngestPass],
    samples: Sequence[tuple[str, float, dict[str, float]]],
    peaks: dict[str, float],
    loads: dict[str, tuple[float, float, float]],
    settings: EywaSettings,
) -> LatencyReport:
    stages: dict[str, list[float]] = {"wall": [s[1] for s in samples]}
    for _, _, timings in samples:
        for stage, ms in timings.items():
            stages.setdefault(stage, []).append(float(ms))
    recall = {stage: Percentiles.of(values) for stage, values in stages.items()}
    routes = {stage: p.p50 for stage, p in recall.items() if stage.startswith("route.")}
    slowest = max(routes, key=lambda name: routes[name]) if routes else None
    ratio = round(recall["wall"].p50 / routes[slowest], 2) if slowest and routes[slowest] > 0 else None
    standalone = [t.get("embed", 0.0) + t["route.vector"] for _, _, t in samples if "route.vector" in t]
    if standalone:
        routes["route.vector+embed"] = round(percentile(standalone, 50), 3)
    slowest_alone = max(routes, key=lambda name: routes[name]) if routes else None
    ratio_alone = (
        round(recall["wall"].p50 / routes[slowest_alone], 2) if slowest_alone and routes[slowest_alone] > 0 else None
    )
    shapes = sorted({s[0] for s in samples})
    by_shape = {shape: round(percentile([s[1] for s in samples if s[0] == shape], 50), 3) for shape in shapes}
    return LatencyReport(
        backend=backend,
        turns=turns,
        queries=queries,
        seed=seed,
        ingest=ingest,
        recall=recall,
        by_shape_p50=by_shape,
        slowest_route=slowest,
        full_over_slowest_route=ratio,
        slowest_standalone_route=slowest_alone,
        full_over_slowest_standalone_route=ratio_alone,
        peak_rss_mib=peaks,
        load_average=loads,
        targets=_check_targets(backend, turns, recall["wall"], ratio, "vector" in settings.disabled_stages),
        sqlite=sqlite3.sqlite_version if backend == "embedded" else None,
    )


def _check_targets(
    backend: Backend, turns: int, wall: Percentiles, ratio: float | None, vector_disabled: bool
) -> dict[str, dict[str, Any]]:
    """The issues' ceilings for this size and whether they hold: the embedded default's
    (#5), and the server's with the vector route disabled (#14)."""
    if backend == "embedded":
        table = TARGETS.get(turns, {})
    else:
        table = SERVER_TARGETS.get(turns, {}) if vector_disabled else {}
    measured: dict[str, float | None] = {"p50": wall.p50, "p95": wall.p95, "ratio": ratio}
    checks: dict[str, dict[str, Any]] = {}
    for name, ceiling in table.items():
        value = measured[name]
        checks[name] = {"target": ceiling, "measured": value, "met": value is not None and value <= ceiling}
    return checks


def _load() -> tuple[float, float, float]:
    """The 1/5/15-minute load average: other jobs on the machine skew latency."""
    try:
        return os.getloadavg()
    except OSError:  # pragma: no cover - platforms without it
        return (0.0, 0.0, 0.0)


_HWM = re.compile(r"^VmHWM:\s+(\d+)\s+kB", re.M)


def _peak_rss_mib() -> float:
    """Peak resident memory since the last reset (Linux VmHWM), else the process peak."""
    try:
        found = _HWM.search(Path("/proc/self/status").read_text(encoding="ascii"))
    except OSError:
        found = None
    kib = int(found.group(1)) if found else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(kib / 1024.0, 1)


def _reset_peak() -> None:
    """Reset VmHWM (Linux ``clear_refs`` 5) so each phase reports its own peak."""
    try:
        Path("/proc/self/clear_refs").write_text("5", encoding="ascii")
    except OSError:
        pass  # not Linux, or not permitted: peaks are then cumulative

