"""The service benchmark: many agents at once over HTTP, then an exactly-once audit.

What it answers (issue 7): how many requests and turns per second one API process takes
from N concurrent agents, at what latency per route, with how many errors; and whether
every turn the API acknowledged is stored exactly once under concurrency.

The run is self-contained and local: the API runs as its own process, ``eywa serve`` on a
free port of 127.0.0.1, over the memory the settings name (embedded in a temporary
directory unless ``data_dir``; the Neo4j server when ``EYWA_NEO4J_URI`` is set), with the
in-process job runner and no rate limit. One key, created through the runtime's key store
before the server starts, has ``read`` and ``write`` on exactly the spaces of the run. Each agent is a thread with its own
``eywa.Client``; it alternates small write batches (synthetic turns, each with a unique
``external_id``, mostly to its own space, every fourth batch to a shared space) and recall
questions, until the time is up. Spaces carry a per-run prefix, so a reused ``data_dir``
does not disturb the audit.

With a ``rate`` the agents are replaced by an open-loop writer (``eywa.bench.open_loop``):
batches of the same synthetic turns go out at that many turns per second on ``agents``
sender threads whatever the answers, writes refused by backpressure (503 ``overloaded``) are
counted apart and must be missing from the store, and the report adds the backlog's peak.
This is how the sustained rate the embedders keep up with is found: sweep ``rate`` and read
the embedding lag's p95, the peak and whether the backlog drained.

With a ``request_rate`` the agents are replaced by a paced mixed schedule
(``eywa.bench.open_loop.send_paced``): that many requests per second in total, a write batch
and a recall in turn (the same spaces and questions as the agents'), evenly spaced, on
``agents`` sender threads whatever the answers. Latencies count from each request's due
time, a request no sender could take within one interval is counted late, and none is
dropped. In the closed loop latency is about the agents over the throughput; this is how it
is read at a fixed offered load: sweep ``request_rate`` and read the per-route p95.

The audit runs on the graph stores directly (``eywa.runtime.open_graph_stores``), after the
server stopped and closed its memory: per space, the number of stored turns equals the number of distinct acknowledged
ids (plus any turns of a failed request that the server stored anyway), each acknowledged id
resolves to a turn with the ``external_id`` it was sent with, and each id is the one the
deterministic id scheme gives that ``external_id``.

Example:
    >>> report = run_service_bench(agents=4, seconds=5)  # doctest: +SKIP
    >>> report.exactly_once  # doctest: +SKIP
    True
"""

from __future__ import annotations

import itertools
import math
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime, timedelta
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import httpx
from pydantic import BaseModel, ConfigDict

from eywa.batches import evidence_id
from eywa.bench.lag import BacklogPoint, LagFigures, LagSampler
from eywa.bench.metrics import percentile
from eywa.bench.open_loop import Agent, PlannedBatch, PlannedRecall, WriteLog, send_open_loop, send_paced
from eywa.bench.synthetic import generate_corpus, generate_queries
from eywa.errors import EywaError, InvalidInputError, StoreError
from eywa.models import Turn
from eywa.runtime import Backend, backend_of, load_settings, open_graph_stores, open_key_store
from eywa.settings import EywaSettings, as_environment
from eywa.stores.bundle import GraphStores

if TYPE_CHECKING:
    from eywa.bench.service_stack import Runner

__all__ = ["RouteFigures", "ServiceBenchReport", "free_port", "run_service_bench", "serve_api", "start_api", "stop_api"]

ROUTES = ("turns", "recall")
Acknowledgement = Literal["level0", "level1"]
BATCH_SIZE = 4
SHARED_EVERY = 4  # every fourth write batch of an agent goes to the shared space
MAX_ERROR_SAMPLES = 5
START_TIMEOUT_S = 120.0  # the server loads the embedding model before it answers
STOP_TIMEOUT_S = 60.0
# The lag sampler's period under --rate and --request-rate: its ledger reads grow with the
# backlog, which a paced run lets grow, and on Neo4j every mark read is decoded by the driver
# in the bench's process, on the cores the server under test shares.
OPEN_LOOP_SAMPLE_S = 0.25


class RouteFigures(BaseModel):
    """Requests of one route: count, failures and latency percentiles (ms)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    requests: int
    errors: int
    p50: float
    p95: float
    p99: float


class ServiceBenchReport(BaseModel):
    """Everything one run measured; ``--json`` writes it as is."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    agents: int
    seconds: float
    elapsed_s: float
    requests: int
    requests_per_s: float
    turns_acknowledged: int
    turns_per_s: float
    errors: int
    routes: dict[str, RouteFigures]
    error_samples: list[str]
    spaces: dict[str, int]
    exactly_once: bool
    exactly_once_problems: list[str]
    load_average: dict[str, tuple[float, float, float]]
    ack: Acknowledgement = "level1"
    """When POST /turns answered: after Level 1 (``level1``) or once Level 0 was committed."""
    backlog_after: dict[str, int] = {}
    """Turns of the run's spaces still owing their embedding / Level 1 when the servers
    stopped (other runs' leftovers in a shared Neo4j are not counted)."""
    runner: str = "inline"
    backend: str = "embedded"
    replicas: int = 1
    workers: int = 0
    vectors: str = "shared"
    """``per replica`` when several replicas run without a Qdrant server (local-mode folders)."""
    embed_lag_ms: LagFigures | None = None
    """Acknowledgement → no turn of the batch owes its embedding (per batch)."""
    level1_lag_ms: LagFigures | None = None
    """Acknowledgement → no turn of the batch owes Level 1 or its dimension update."""
    lag_sample_s: float = 0.1
    """How often the lag sampler read the ledger: each lag is exact to within this. Longer
    under ``rate`` and ``request_rate`` (``OPEN_LOOP_SAMPLE_S``)."""
    drained: bool = True
    """Whether every acknowledged batch was through both stages within the drain time."""
    drain_s: float = 0.0
    backlog_over_time: list[BacklogPoint] = []
    """Turns owing embedding / Level 1, sampled through the run and the drain."""
    rate: float | None = None
    """Open loop (``--rate``): turns per second offered, in batches of ``BATCH_SIZE``; None:
    closed-loop agents alternating writes and recalls."""
    batches_offered: int = 0
    late_batches: int = 0
    """Open loop: batches sent more than one interval after their due time (no sender free)."""
    request_rate: float | None = None
    """Paced mixed schedule (``--request-rate``): requests per second offered in total, a write
    batch and a recall in turn; latencies count from each request's due time."""
    requests_offered: int = 0
    late_requests: int = 0
    """Paced: requests sent more than one interval after their due time (no sender free)."""
    send_delay_ms: dict[str, float] = {}
    """Paced: how long after its due time a request was sent (p50, p95, max)."""
    refused_batches: int = 0
    """Writes refused by backpressure (503 ``overloaded``); not counted in ``errors``."""
    refused_turns: int = 0
    backlog_peak: dict[str, int] = {}
    """The largest backlog sampled: turns owing their embedding (``embed``) / Level 1."""
    embed_drained: bool = True
    """Whether every acknowledged batch was embedded within the drain time."""
    api_cpu_s: float | None = None
    """User + system CPU seconds the API process(es) used during the traffic (``/proc``; None
    where it cannot be read). With the inline runner this includes the stages after Level 0
    that ran in the API process meanwhile (embedding, Level 1)."""
    api_cpu_ms_per_request: float | None = None
    """``api_cpu_s`` per request of the run, in milliseconds: what one request costs the API."""
    api_cpu_drain_s: float | None = None
    """CPU seconds of the API process(es) after the traffic, while the backlog drained."""
    worker_cpu_s: float | None = None
    """CPU seconds of the ``eywa worker`` processes (and their pools), traffic and drain."""
    client_cpu_s: float | None = None
    """CPU seconds of the benchmark's own process during the traffic (agents, lag sampler):
    it shares the machine's cores with the API."""


@dataclass
class _AgentLog:
    """What one agent saw; only its own thread writes it."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    samples: list[str] = field(default_factory=list)
    acked: dict[str, dict[str, str]] = field(default_factory=lambda: defaultdict(dict))  # space -> ext -> id
    unacked: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # space -> ext

    def fail(self, route: str, exc: BaseException) -> None:
        self.errors[route] += 1
        if len(self.samples) < MAX_ERROR_SAMPLES:
            self.samples.append(f"{route}: {type(exc).__name__}: {exc}")


def _turns(run: str, agent: int) -> Iterator[dict[str, Any]]:
    """Endless synthetic turns for one agent, each with a unique ``external_id``."""
    for n in itertools.count():
        for _, turn in generate_corpus(500, seed=agent * 1_000_003 + n):
            turn["session"] = f"agent-{agent}-{n}-{turn['session']}"
            turn["external_id"] = f"{run}-a{agent}-{n}-{turn['metadata']['turn']}"
            yield turn


def _agent(
    agent: int, base_url: str, key: str, run: str, own: str, shared: str, deadline: float, log: _AgentLog,
    *, sampler: LagSampler | None = None,
) -> None:
    """Alternate a write batch and a recall until ``deadline``; record everything in ``log``.

    The first round (one write, one recall) always runs: on a loaded machine an agent
    thread may start after a short run's deadline, and a run in which no agent sent anything
    measures nothing (its exactly-once audit would fail for want of a single turn).
    """
    from eywa.client import Client

    turns = _turns(run, agent)
    questions = itertools.cycle(generate_queries(seed=agent, n=60))
    with Client(base_url, key, timeout=60.0) as client:
        for step in itertools.count():
            if step > 0 and time.monotonic() >= deadline:
                return
            space = shared if step % SHARED_EVERY == SHARED_EVERY - 1 else own
            batch = [next(turns) for _ in range(BATCH_SIZE)]
            started = time.perf_counter()
            try:
                ids = client.remember(space, batch)
            except EywaError as exc:
                log.fail("turns", exc)
                log.unacked[space].update(t["external_id"] for t in batch)
            else:
                log.latencies["turns"].append((time.perf_counter() - started) * 1000)
                if len(ids) != len(batch):
                    log.fail("turns", InvalidInputError(f"{len(ids)} ids for {len(batch)} turns"))
                for turn, ident in zip(batch, ids, strict=False):
                    log.acked[space][turn["external_id"]] = ident
                if sampler is not None:
                    sampler.acknowledged(space, ids, time.monotonic())
            if step > 0 and time.monotonic() >= deadline:
                return
            target = shared if step % SHARED_EVERY == 1 else own
            started = time.perf_counter()
            try:
                client.recall(target, next(questions).text, k=10)
            except EywaError as exc:
                log.fail("recall", exc)
            else:
                log.latencies["recall"].append((time.perf_counter() - started) * 1000)


def _audit(
    stores: GraphStores, acked: dict[str, dict[str, str]], unacked: dict[str, set[str]]
) -> tuple[dict[str, int], list[str]]:
    """Stored turns per space, and every way the store differs from what was acknowledged.

    Raises:
        StoreError: a store cannot be read.
    """
    problems: list[str] = []
    stored: dict[str, int] = {}
    for space in sorted(set(acked) | set(unacked)):
        ids = acked.get(space, {})
        count = stores.evidence.count(space)
        stored[space] = count
        distinct = set(ids.values())
        if len(distinct) != len(ids):
            problems.append(f"{space}: {len(ids)} external ids acknowledged under {len(distinct)} ids")
        wrong = [ext for ext, i in ids.items() if i != evidence_id(space, Turn(text="-", external_id=ext), 0)]
        if wrong:
            problems.append(f"{space}: {len(wrong)} acknowledged ids differ from their deterministic id")
        found = {e.id: e for e in stores.evidence.get(space, sorted(distinct))}
        missing = distinct - set(found)
        if missing:
            problems.append(f"{space}: {len(missing)} acknowledged ids do not resolve")
        mismatched = [ext for ext, i in ids.items() if i in found and found[i].external_id != ext]
        if mismatched:
            problems.append(f"{space}: {len(mismatched)} ids resolve to another external id")
        maybe = {evidence_id(space, Turn(text="-", external_id=ext), 0) for ext in unacked.get(space, set())}
        extra = len(stores.evidence.existing(space, sorted(maybe - distinct))) if maybe else 0
        if count != len(distinct) + extra:
            problems.append(f"{space}: {count} turns stored for {len(distinct)} acknowledged (+{extra} unacked)")
    return stored, problems


def free_port(host: str) -> int:
    """A TCP port of ``host`` that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def start_api(
    settings: EywaSettings, log: Path, host: str, port: int, timeout: float = START_TIMEOUT_S
) -> subprocess.Popen[bytes]:
    """Start ``eywa serve`` with exactly ``settings`` (through its environment) on
    ``host:port``, its output appended to ``log``; returns once it answers ``/healthz``
    (within ``timeout`` seconds).

    Raises:
        StoreError: the server exited or did not answer ``/healthz`` in time (the message
            ends with the tail of its log).
    """
    environment = {k: v for k, v in os.environ.items() if not k.startswith("EYWA_")}
    environment.update(as_environment(settings))
    command = [sys.executable, "-m", "eywa.cli", "serve", "--host", host, "--port", str(port)]
    with log.open("ab") as output:
        process = subprocess.Popen(command, env=environment, stdout=output, stderr=subprocess.STDOUT)
    try:
        _wait_until_healthy(process, f"http://{host}:{port}", log, timeout)
    except StoreError:
        stop_api(process)
        raise
    return process


def stop_api(process: subprocess.Popen[bytes]) -> None:
    """Ask the server to stop (SIGINT: uvicorn shuts down and the API closes its memory);
    kill it if it does not within ``STOP_TIMEOUT_S``."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=STOP_TIMEOUT_S)


@contextmanager
def serve_api(settings: EywaSettings, log: Path, host: str = "127.0.0.1") -> Iterator[str]:
    """Run ``eywa serve`` with ``settings`` as a child process; yields its base URL.

    The child gets exactly these settings through its environment. It is asked to stop
    (SIGINT: uvicorn shuts down and the API closes its memory) when the block ends, and
    killed if it does not within ``STOP_TIMEOUT_S``.

    Raises:
        StoreError: the server exited or did not answer ``/healthz`` in time (the message
            ends with the tail of its log).
    """
    port = free_port(host)
    log.write_bytes(b"")
    process = start_api(settings, log, host, port)
    try:
        yield f"http://{host}:{port}"
    finally:
        stop_api(process)


def _wait_until_healthy(
    process: subprocess.Popen[bytes], base_url: str, log: Path, timeout: float = START_TIMEOUT_S
) -> None:
    deadline = time.monotonic() + timeout
    with httpx.Client(base_url=base_url, timeout=2.0) as client:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                break
            try:
                if client.get("/healthz").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.2)
    tail = " | ".join(log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-5:])
    state = f"exited with {process.returncode}" if process.poll() is not None else "did not answer /healthz"
    raise StoreError("http", "serve", f"eywa serve {state}: {tail}")


def _warm_up(base_url: str, key: str, space: str) -> None:
    """One untimed recall, so the server's one-off model load is not in the figures.

    Raises:
        EywaError: the server refused or failed the request.
    """
    from eywa.client import Client

    with Client(base_url, key, timeout=START_TIMEOUT_S) as client:
        client.recall(space, "warm up", k=1)


def run_service_bench(
    agents: int = 16,
    seconds: float = 20.0,
    data_dir: Path | None = None,
    *,
    settings: EywaSettings | None = None,
    ack: Acknowledgement = "level1",
    runner: Runner = "inline",
    backend: Backend | None = None,
    replicas: int = 1,
    workers: int = 2,
    drain_s: float = 60.0,
    rate: float | None = None,
    request_rate: float | None = None,
) -> ServiceBenchReport:
    """Serve the API locally, drive it with ``agents`` concurrent clients, audit the store.

    ``ack`` ``level0`` runs the server with ``EYWA_LEVEL1_WAIT=false``: POST /turns answers
    once Level 0 is committed and the stages after it run later. ``runner`` ``celery`` runs
    ``workers`` ``eywa worker`` processes on a Redis (its own one unless ``EYWA_REDIS_URL``);
    ``backend`` ``server`` runs on Neo4j (its own one unless ``EYWA_NEO4J_URI``), with
    ``replicas`` API processes (agents spread over them). After the traffic the run waits up
    to ``drain_s`` for every acknowledged batch to be embedded and through Level 1, and
    reports those lags (``eywa.bench.lag``) and the backlog left (``backlog_after``). The
    run's key expires after the run and is revoked at its end, wherever keys live. With
    ``rate`` (turns per second) an open-loop writer on ``agents`` sender threads replaces the
    agents; with ``request_rate`` (requests per second) a paced mixed schedule does (see the
    module docstring).

    Raises:
        InvalidInputError: ``agents`` below 1, ``seconds``, ``rate`` or ``request_rate`` not
            positive, both rates given, or several replicas on the embedded backend.
        ConfigurationError: a bad ``EYWA_*`` value, or a server to start outside a checkout.
        StoreError: the store, the key store or a process cannot be opened or started.
    """
    from eywa.bench.service_stack import ServiceStack  # deferred: it imports this module

    if agents < 1:
        raise InvalidInputError("agents must be at least 1")
    if seconds <= 0:
        raise InvalidInputError("seconds must be positive")
    if rate is not None and rate <= 0:
        raise InvalidInputError("rate must be positive (turns per second)")
    if request_rate is not None and request_rate <= 0:
        raise InvalidInputError("request_rate must be positive (requests per second)")
    if rate is not None and request_rate is not None:
        raise InvalidInputError("rate (writes only) and request_rate (writes and recalls) exclude each other")
    base = settings or load_settings()
    server = (backend or backend_of(base)) == "server"
    with tempfile.TemporaryDirectory(prefix="eywa-service-bench-") as scratch_dir:
        scratch = Path(scratch_dir)
        directory = data_dir if data_dir is not None else scratch / "memory"
        update: dict[str, object] = {
            "data_dir": directory, "api_keys_path": scratch / "keys.sqlite", "rate_limit_per_minute": 0,
            "level1_wait": ack == "level1",
        }  # fmt: skip
        if not server:
            update["neo4j_uri"] = None
        with ServiceStack(
            scratch, base.model_copy(update=update), runner=runner, server=server, replicas=replicas, workers=workers
        ) as stack:
            chosen = stack.start_servers()
            run = uuid.uuid4().hex[:8]
            own = [f"svc-{run}-agent-{i:02d}" for i in range(agents)]
            shared = f"svc-{run}-shared"
            logs = [_AgentLog() for _ in range(agents)]
            plan = _plan(run, own, shared, rate * seconds) if rate is not None else []
            paced = _paced_plan(run, own, shared, request_rate * seconds) if request_rate is not None else []
            writes = WriteLog()
            loads = {"before": os.getloadavg()}
            keys = open_key_store(chosen)
            try:  # the key must not outlive the run where keys live on (Neo4j)
                record, key = keys.create(
                    [*own, shared], ["read", "write"], name="service-bench",
                    expires_at=datetime.now(UTC) + timedelta(seconds=seconds + drain_s + 3600),
                )  # fmt: skip
            finally:
                keys.close()
            try:
                urls = stack.start_processes()
                for url in urls:
                    _warm_up(url, key, shared)
                watched = open_graph_stores(chosen)
                sample_s = 0.1 if rate is None and request_rate is None else OPEN_LOOP_SAMPLE_S
                sampler = LagSampler(watched, interval_s=sample_s)
                try:
                    sampler.start()
                    cpu = [stack.cpu_seconds()]
                    client_cpu = time.process_time()
                    started = time.monotonic()
                    deadline = started + seconds
                    if rate is not None:  # open loop: writes on a schedule, whatever the answers
                        send_open_loop(
                            plan, BATCH_SIZE / rate, agents, _writers(urls, key), writes, on_ack=sampler.acknowledged
                        )
                        logs = [_writes_as_log(writes)]
                    elif request_rate is not None:  # paced: writes and recalls on a schedule
                        send_paced(paced, 1 / request_rate, agents, _writers(urls, key), writes,
                                   on_ack=sampler.acknowledged)  # fmt: skip
                        logs = [_writes_as_log(writes)]
                    else:  # closed loop: agents alternate writes and recalls
                        _closed_loop(urls, key, run, own, shared, deadline, logs, sampler)
                    elapsed = time.monotonic() - started
                    cpu.append(stack.cpu_seconds())
                    client_cpu = time.process_time() - client_cpu
                    loads["after"] = os.getloadavg()
                    drained = sampler.drain(drain_s)
                    drain_elapsed = time.monotonic() - started - elapsed
                    cpu.append(stack.cpu_seconds())
                finally:
                    sampler.stop()
                    stack.stop_processes()  # first: the API may still be writing what the sampler reads
                    watched.close()
                acked: dict[str, dict[str, str]] = defaultdict(dict)
                unacked: dict[str, set[str]] = defaultdict(set)
                for log in logs:
                    for space, ids in log.acked.items():
                        acked[space].update(ids)
                    for space, exts in log.unacked.items():
                        unacked[space].update(exts)
                stores = open_graph_stores(chosen)
                try:
                    stored, problems = _audit(stores, acked, unacked)
                    problems += _refused_stored(stores, writes.refused)
                    owed = [stores.ledger.space_backlog(space) for space in [*own, shared]]
                    backlog = {k: v for k, v in {"embed": sum(b.embed for b in owed),
                                                 "level1": sum(b.level1 for b in owed)}.items() if v}
                finally:
                    stores.close()
            finally:
                _revoke(chosen, record.id)
            vectors = stack.vectors
    embed_lag, level1_lag = sampler.figures()
    report = _report(agents, seconds, elapsed, logs, acked, stored, problems, loads)
    return report.model_copy(update={
        "ack": ack, "backlog_after": backlog, "runner": runner, "backend": "server" if server else "embedded",
        "replicas": replicas, "workers": workers if runner == "celery" else 0, "vectors": vectors,
        "embed_lag_ms": embed_lag, "level1_lag_ms": level1_lag, "lag_sample_s": sample_s, "drained": drained,
        "drain_s": round(drain_elapsed, 2), "backlog_over_time": _thin(sampler.backlog),
        "rate": rate, "batches_offered": len(plan), "late_batches": writes.late if rate is not None else 0,
        "request_rate": request_rate, "requests_offered": len(paced),
        "late_requests": writes.late if request_rate is not None else 0,
        "send_delay_ms": _delays(writes.send_delays_ms) if request_rate is not None else {},
        "refused_batches": writes.refused_batches, "refused_turns": sum(len(t) for t in writes.refused.values()),
        "backlog_peak": {"embed": max((p.embed for p in sampler.backlog), default=0),
                         "level1": max((p.level1 for p in sampler.backlog), default=0)},
        "embed_drained": embed_lag.finished == embed_lag.batches,
        **_cpu_figures(cpu, report.requests), "client_cpu_s": round(client_cpu, 2),
    })  # fmt: skip


def _cpu_figures(cpu: list[dict[str, float] | None], requests: int) -> dict[str, float | None]:
    """The report's CPU fields from the stack's readings before the traffic, after it and
    after the drain (all None when ``/proc`` could not be read)."""
    before, after, drained = cpu
    if before is None or after is None or drained is None:
        return {}
    api = after["api"] - before["api"]
    return {
        "api_cpu_s": round(api, 2), "api_cpu_ms_per_request": round(1000 * api / requests, 2) if requests else None,
        "api_cpu_drain_s": round(drained["api"] - after["api"], 2),
        "worker_cpu_s": round(drained["workers"] - before["workers"], 2),
    }  # fmt: skip


def _closed_loop(
    urls: list[str], key: str, run: str, own: list[str], shared: str, deadline: float, logs: list[_AgentLog],
    sampler: LagSampler,
) -> None:  # fmt: skip
    """One thread per agent (``own`` names their spaces, ``logs`` their logs), each running
    ``_agent`` against a replica until ``deadline``; returns once all have stopped."""
    threads = [
        threading.Thread(
            target=_agent, args=(i, urls[i % len(urls)], key, run, space, shared, deadline, logs[i]),
            kwargs={"sampler": sampler}, name=f"agent-{i}", daemon=True,
        )
        for i, space in enumerate(own)
    ]  # fmt: skip
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(deadline - time.monotonic(), 0) + 120)


def _plan(run: str, own: list[str], shared: str, turns: float) -> list[PlannedBatch]:
    """The open loop's batches: ``turns`` (rounded up to whole batches) of unique synthetic
    turns, spread over the agents' spaces with every ``SHARED_EVERY``-th to the shared one;
    built before the clock starts so that generating them costs the schedule nothing."""
    source = _turns(run, 0)
    batches = max(1, -(-int(turns) // BATCH_SIZE))
    return [
        PlannedBatch(shared if i % SHARED_EVERY == SHARED_EVERY - 1 else own[i % len(own)],
                     [next(source) for _ in range(BATCH_SIZE)])
        for i in range(batches)
    ]  # fmt: skip


def _paced_plan(run: str, own: list[str], shared: str, requests: float) -> list[PlannedBatch | PlannedRecall]:
    """The paced schedule's ``requests`` (rounded up, at least one write and one recall): a
    write batch and a recall in turn, to the spaces an agent would use (pair ``j`` writes to
    agent ``j``'s space, every ``SHARED_EVERY``-th to the shared one, and asks agent ``j``'s
    space, or the shared one when an agent would), with the agents' questions; built before
    the clock starts."""
    source = _turns(run, 0)
    questions = itertools.cycle(generate_queries(seed=0, n=60))
    plan: list[PlannedBatch | PlannedRecall] = []
    for i in range(max(2, math.ceil(requests))):
        pair, mine = divmod(i, 2)
        if mine == 0:
            space = shared if pair % SHARED_EVERY == SHARED_EVERY - 1 else own[pair % len(own)]
            plan.append(PlannedBatch(space, [next(source) for _ in range(BATCH_SIZE)]))
        else:
            space = shared if pair % SHARED_EVERY == 1 else own[pair % len(own)]
            plan.append(PlannedRecall(space, next(questions).text))
    return plan


def _delays(delays_ms: list[float]) -> dict[str, float]:
    """The paced senders' delays after the due times: p50, p95 and the largest (ms)."""
    if not delays_ms:
        return {}
    return {"p50": round(percentile(delays_ms, 50), 2), "p95": round(percentile(delays_ms, 95), 2),
            "max": round(max(delays_ms), 2)}  # fmt: skip


def _writers(urls: list[str], key: str) -> Callable[[], Agent]:
    """One ``eywa.Client`` per sender thread, without retries (a refusal is an answer), the
    senders spread over the API replicas."""
    from eywa.client import Client

    turn = itertools.count()
    lock = threading.Lock()

    def build() -> Agent:
        with lock:
            url = urls[next(turn) % len(urls)]
        return Client(url, key, timeout=60.0, retries=0)

    return build


def _writes_as_log(writes: WriteLog) -> _AgentLog:
    """The open loop's answers as one agent's log (refusals stay in ``writes``)."""
    log = _AgentLog(samples=list(writes.samples))
    log.latencies["turns"] = list(writes.latencies_ms)
    log.errors["turns"] = writes.errors
    log.latencies["recall"] = list(writes.recall_latencies_ms)
    log.errors["recall"] = writes.recall_errors
    for space, ids in writes.acked.items():
        log.acked[space].update(ids)
    for space, exts in writes.unacked.items():
        log.unacked[space].update(exts)
    return log


def _refused_stored(stores: GraphStores, refused: dict[str, set[str]]) -> list[str]:
    """A problem per space where a turn of a batch refused by backpressure was stored anyway.

    Raises:
        StoreError: a store cannot be read.
    """
    problems: list[str] = []
    for space, exts in sorted(refused.items()):
        ids = sorted({evidence_id(space, Turn(text="-", external_id=ext), 0) for ext in exts})
        stored = stores.evidence.existing(space, ids)
        if stored:
            problems.append(f"{space}: {len(stored)} turns of refused batches were stored")
    return problems


def _revoke(settings: EywaSettings, key_id: str) -> None:
    """Revoke the run's key (a store that cannot be reached leaves it to its expiry)."""
    with suppress(StoreError):
        keys = open_key_store(settings)
        try:
            keys.revoke(key_id)
        finally:
            keys.close()


def _thin(points: list[BacklogPoint], most: int = 60) -> list[BacklogPoint]:
    """At most ``most`` evenly spaced points of the backlog series (the last one kept)."""
    if len(points) <= most:
        return points
    step = len(points) / most
    return [points[int(i * step)] for i in range(most - 1)] + [points[-1]]


def _report(
    agents: int,
    seconds: float,
    elapsed: float,
    logs: list[_AgentLog],
    acked: dict[str, dict[str, str]],
    stored: dict[str, int],
    problems: list[str],
    loads: dict[str, tuple[float, float, float]],
) -> ServiceBenchReport:
    routes: dict[str, RouteFigures] = {}
    for route in ROUTES:
        values = [v for log in logs for v in log.latencies[route]]
        failed = sum(log.errors[route] for log in logs)
        routes[route] = RouteFigures(
            requests=len(values) + failed, errors=failed,
            **{f"p{q}": round(percentile(values, q), 2) for q in (50, 95, 99)},
        )
    requests = sum(r.requests for r in routes.values())
    turns = sum(len(ids) for ids in acked.values())
    return ServiceBenchReport(
        agents=agents,
        seconds=seconds,
        elapsed_s=round(elapsed, 3),
        requests=requests,
        requests_per_s=round(requests / elapsed, 2),
        turns_acknowledged=turns,
        turns_per_s=round(turns / elapsed, 2),
        errors=sum(r.errors for r in routes.values()),
        routes=routes,
        error_samples=[s for log in logs for s in log.samples][:MAX_ERROR_SAMPLES],
        spaces=stored,
        exactly_once=not problems and turns > 0,
        exactly_once_problems=problems if turns > 0 else [*problems, "no turn was acknowledged"],
        load_average=loads,
    )
