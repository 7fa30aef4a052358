"""The service benchmark: many agents at once over HTTP, then an exactly-once audit.

What it answers (issue 7): how many requests and turns per second one API process takes
from N concurrent agents, at what latency per route, with how many errors; and whether
every turn the API acknowledged is stored exactly once under concurrency.

The run is self-contained and local: the API (``services.api``) is served by uvicorn in a
background thread on 127.0.0.1 over an embedded Memory (a temporary directory unless
``data_dir``), with the in-process job runner and no rate limit. One admin-made key has
``read`` and ``write`` on exactly the spaces of the run. Each agent is a thread with its own
``eywa.Client``; it alternates small write batches (synthetic turns, each with a unique
``external_id``, mostly to its own space, every fourth batch to a shared space) and recall
questions, until the time is up. Spaces carry a per-run prefix, so a reused ``data_dir``
does not disturb the audit.

The audit runs on the graph stores directly, after the server stopped and the Memory
closed: per space, the number of stored turns equals the number of distinct acknowledged
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
import os
import tempfile
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from eywa.bench.metrics import percentile
from eywa.bench.synthetic import generate_corpus, generate_queries
from eywa.errors import EywaError, InvalidInputError
from eywa.models import Turn
from eywa.settings import EywaSettings
from eywa.batches import evidence_id

__all__ = ["RouteFigures", "ServiceBenchReport", "run_service_bench"]

ROUTES = ("turns", "recall")
BATCH_SIZE = 4
SHARED_EVERY = 4  # every fourth write batch of an agent goes to the shared space
MAX_ERROR_SAMPLES = 5


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
    agent: int, base_url: str, key: str, run: str, own: str, shared: str, deadline: float, log: _AgentLog
) -> None:
    """Alternate a write batch and a recall until ``deadline``; record everything in ``log``."""
    from eywa.client import Client

    turns = _turns(run, agent)
    questions = itertools.cycle(generate_queries(seed=agent, n=60))
    with Client(base_url, key, timeout=60.0) as client:
        for step in itertools.count():
            if time.monotonic() >= deadline:
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
            if time.monotonic() >= deadline:
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
    directory: Path, acked: dict[str, dict[str, str]], unacked: dict[str, set[str]]
) -> tuple[dict[str, int], list[str]]:
    """Stored turns per space, and every way the store differs from what was acknowledged.

    Raises:
        StoreError: the embedded database cannot be opened.
    """
    from eywa.stores.embedded.factory import open_embedded_graph

    problems: list[str] = []
    stored: dict[str, int] = {}
    stores = open_embedded_graph(directory)
    try:
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
    finally:
        stores.close()
    return stored, problems


def run_service_bench(
    agents: int = 16,
    seconds: float = 20.0,
    data_dir: Path | None = None,
    *,
    settings: EywaSettings | None = None,
) -> ServiceBenchReport:
    """Serve the API locally, drive it with ``agents`` concurrent clients, audit the store.

    Raises:
        InvalidInputError: ``agents`` below 1 or ``seconds`` not positive.
        StoreError: the store, the key file or the server cannot be opened or started.
    """
    if agents < 1:
        raise InvalidInputError("agents must be at least 1")
    if seconds <= 0:
        raise InvalidInputError("seconds must be positive")
    from eywa.memory import Memory
    from services.api.app import create_app, serve_in_thread
    from eywa.jobs import InlineJobRunner
    from services.keys import KeyStore

    with tempfile.TemporaryDirectory(prefix="eywa-service-bench-") as scratch:
        directory = data_dir if data_dir is not None else Path(scratch) / "memory"
        chosen = (settings or EywaSettings()).model_copy(
            update={"data_dir": directory, "rate_limit_per_minute": 0, "job_runner": "inline", "level1_wait": True}
        )
        run = uuid.uuid4().hex[:8]
        own = [f"svc-{run}-agent-{i:02d}" for i in range(agents)]
        shared = f"svc-{run}-shared"
        logs = [_AgentLog() for _ in range(agents)]
        loads = {"before": os.getloadavg()}
        memory = Memory.open(directory, settings=chosen)
        keys = KeyStore(Path(scratch) / "keys.sqlite")
        try:
            _, key = keys.create([*own, shared], ["read", "write"], name="service-bench")
            app = create_app(memory, chosen, keys, InlineJobRunner())
            with serve_in_thread(app) as base_url:
                started = time.monotonic()
                deadline = started + seconds
                threads = [
                    threading.Thread(
                        target=_agent, args=(i, base_url, key, run, own[i], shared, deadline, logs[i]),
                        name=f"agent-{i}", daemon=True,
                    )
                    for i in range(agents)
                ]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join(timeout=seconds + 120)
                elapsed = time.monotonic() - started
            loads["after"] = os.getloadavg()
        finally:
            keys.close()
            memory.close()
        acked: dict[str, dict[str, str]] = defaultdict(dict)
        unacked: dict[str, set[str]] = defaultdict(set)
        for log in logs:
            for space, ids in log.acked.items():
                acked[space].update(ids)
            for space, exts in log.unacked.items():
                unacked[space].update(exts)
        stored, problems = _audit(directory, acked, unacked)
    return _report(agents, seconds, elapsed, logs, acked, stored, problems, loads)


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
