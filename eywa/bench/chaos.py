"""The chaos benchmark: concurrent writers over HTTP while the API process is killed.

What it answers (issue 11): does every turn the API acknowledged survive a ``SIGKILL`` of
the process that holds the memory, exactly once, with its Level 1 finished once the
process is back? Mode ``embedded`` (the default deployment): one ``eywa serve`` on a free
port of 127.0.0.1 over an embedded memory in a temporary directory, with the in-process job
runner (each request runs Level 1 after its Level 0 commit, so a kill lands between the
stages of in-flight batches). ``writers`` threads each send batches of synthetic turns
(unique ``external_id`` each) to their own space; a batch that fails (connection refused
while the server is down, a 5xx) is re-sent unchanged until it is acknowledged, as a client
retry would (for at most ``RETRY_GRACE_S`` after the run). Traffic runs for
``seconds / (kills + 1)`` before each of the ``kills`` and after the last; each time the
server is ``SIGKILL``ed and started again on the same port (reopen runs the reconciler), so
restarts add to the elapsed time.

Before the clock starts, one write and one recall go to a warm-up space (not audited), so
the model load and the first query plans are not counted as downtime. Requests time out
after ``REQUEST_TIMEOUT_S``: a client that gave up sooner would leave writes landing after
the drain. After the writers stop the run waits, up to ``drain_s``, for a ready ``/readyz``
(a not-ready one is not an empty backlog) to report an empty ledger, stops the server, and audits the store directly (``eywa.runtime.open_graph_stores``):
acknowledged turns that do not resolve are ``lost``; stored turns beyond the distinct
acknowledged ones (and those of batches never acknowledged, which a killed request may
have stored) are ``duplicated``; ``backlog`` is what the ledger still owes.

Mode ``server`` (``eywa.bench.chaos_server``): Redis without persistence, Neo4j, ``eywa
serve`` with the Celery job runner, two ``eywa worker`` processes and ``eywa beat``, all on
127.0.0.1. Each of the ``kills`` rounds injects three faults, traffic running before each and
after the last: a worker's process group SIGKILLed (and a new worker started), Redis
SIGKILLed and started empty on its port (every queued message lost), Neo4j SIGKILLed and
started again on its data. The API answers once Level 0 is committed
(``EYWA_LEVEL1_WAIT=false``) and refuses writes while more than ``SERVER_EMBED_BACKLOG``
turns wait for its embedding (503 ``overloaded``). The writers are the same; what they may
see is a connection error or a 503 problem+json (``store_unavailable`` while Neo4j is down,
``overloaded``, the broker's refusal while Redis is), and they send the batch again. Any
other 5xx is counted as ``server_errors`` and fails the run: an outage must be refused
clearly. The drain waits for ``/readyz`` to answer
ready with an empty ledger (workers, beat and the API's own reconciliation finish it), then
every process stops and the same audit runs on Neo4j.

Example:
    >>> report = run_chaos_bench(writers=2, seconds=4, kills=1, backend="server")  # doctest: +SKIP
    >>> report.passed  # doctest: +SKIP
    True
"""

from __future__ import annotations

import itertools
import os
import signal
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import httpx
from pydantic import BaseModel, ConfigDict, SecretStr

from eywa.batches import evidence_id
from eywa.bench.chaos_server import Fault, ServerDeployment
from eywa.bench.service import START_TIMEOUT_S, free_port, start_api, stop_api
from eywa.errors import InvalidInputError, StoreError
from eywa.models import Turn
from eywa.runtime import load_settings, open_graph_stores, open_key_store
from eywa.settings import EywaSettings

__all__ = ["ChaosBackend", "ChaosReport", "run_chaos_bench"]

ChaosBackend = Literal["embedded", "server"]

HOST = "127.0.0.1"  # loopback only: the run starts and kills its own server
BATCH_SIZE = 4
RETRY_PAUSE_S = 0.2
# A client that gives up on a request the server is still processing leaves a write that
# lands after the run: wait long enough for a loaded machine's cold query plans.
REQUEST_TIMEOUT_S = 120.0
# After the run, how long a failing batch is still re-sent: after a Neo4j restart the first
# writes wait for cold query plans, a minute and more on a loaded machine.
RETRY_GRACE_S = 180.0
FLOWING_WAIT_S = 120.0  # the server run's wait for every writer's first acknowledgement
FAULTS: tuple[Fault, ...] = ("worker", "redis", "neo4j")  # one server-mode round
SERVER_EMBED_BACKLOG = 256  # turns waiting for the API's embedding before writes are refused
MAX_SAMPLES = 5


class ChaosReport(BaseModel):
    """What one chaos run measured; ``--json`` writes it as is."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    mode: ChaosBackend
    writers: int
    seconds: float
    elapsed_s: float
    kills: int
    faults: list[str]
    turns_acknowledged: int
    turns_stored: int
    duplicated: int
    lost: int
    retried_batches: int
    unacknowledged_batches: int
    backlog: int
    backlog_by_stage: dict[str, int]
    drain_s: float
    refusals: list[str]
    failures_retried: list[str]
    server_errors: int
    server_error_samples: list[str]
    load_average: dict[str, tuple[float, float, float]]

    @property
    def passed(self) -> bool:
        """Nothing duplicated, nothing lost, the ledger drained, something acknowledged,
        and every failure was a clear one (a connection error or a 503 problem+json)."""
        return (
            self.duplicated == 0 and self.lost == 0 and self.backlog == 0
            and self.turns_acknowledged > 0 and not self.refusals and self.server_errors == 0
        )  # fmt: skip


@dataclass
class _WriterLog:
    """What one writer saw; only its own thread writes it."""

    acked: dict[str, str] = field(default_factory=dict)  # external_id -> evidence id
    unacked: set[str] = field(default_factory=set)  # external ids of batches never acknowledged
    retried: int = 0
    gave_up: int = 0
    failure: str | None = None  # why the writer stopped early (a refused batch)
    seen: set[str] = field(default_factory=set)  # the failures it retried through
    unclear: int = 0  # 5xx answers other than a 503 problem+json
    unclear_samples: list[str] = field(default_factory=list)


def _batch(run: str, writer: int, n: int) -> list[dict[str, str]]:
    return [
        {
            "text": f"Writer {writer} says: I moved to city number {n * BATCH_SIZE + i} and I like tea.",
            "speaker": f"W{writer}",
            "session": f"{run}-w{writer}",
            "external_id": f"{run}-w{writer}-{n}-{i}",
        }
        for i in range(BATCH_SIZE)
    ]


class _Clock:
    """When writers stop starting batches, and when they stop re-sending one."""

    def __init__(self) -> None:
        self._stopped = threading.Event()
        self._give_up_at = float("inf")

    def stop(self) -> None:
        self._give_up_at = time.monotonic() + RETRY_GRACE_S
        self._stopped.set()

    @property
    def running(self) -> bool:
        return not self._stopped.is_set()

    @property
    def expired(self) -> bool:
        return time.monotonic() >= self._give_up_at


def _writer(writer: int, base_url: str, key: str, run: str, space: str, clock: _Clock, log: _WriterLog) -> None:
    """Send batches while ``clock`` runs, each until it is acknowledged (see ``_send``)."""
    headers = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=base_url, headers=headers, timeout=REQUEST_TIMEOUT_S) as client:
        n = 0
        while clock.running:
            batch = _batch(run, writer, n)
            n += 1
            if not _send(client, writer, space, batch, clock, log):
                log.unacked.update(t["external_id"] for t in batch)
                return


def _send(
    client: httpx.Client, writer: int, space: str, batch: list[dict[str, str]], clock: _Clock, log: _WriterLog
) -> bool:
    """POST ``batch``, re-sent unchanged after a connection failure or a 5xx (as a client
    retry would) until it is acknowledged (True) or ``RETRY_GRACE_S`` after the clock stopped; a 4xx is a
    refusal and ends the writer (False, ``log.failure`` says why)."""
    for attempt in itertools.count():
        try:
            response = client.post(f"/v1/spaces/{space}/turns", json={"turns": batch})
        except httpx.TransportError as exc:
            log.seen.add(type(exc).__name__)
        else:
            if response.status_code == 201:
                for turn, ident in zip(batch, response.json()["ids"], strict=True):
                    log.acked[turn["external_id"]] = ident
                return True
            log.seen.add(_failure_label(response))
            if response.status_code >= 500 and not _clear_refusal(response):
                log.unclear += 1
                if len(log.unclear_samples) < MAX_SAMPLES:
                    log.unclear_samples.append(f"writer {writer}: {response.status_code} {response.text[:200]}")
            if response.status_code < 500:
                log.failure = f"writer {writer}: {response.status_code} {response.text[:200]}"
                return False
        log.retried += attempt == 0
        if clock.expired:
            log.gave_up += 1
            return False
        time.sleep(RETRY_PAUSE_S)
    return False  # unreachable: itertools.count() never ends


def _clear_refusal(response: httpx.Response) -> bool:
    """A 503 problem+json with a ``code``: the server said clearly it cannot take the write now."""
    if response.status_code != 503 or not response.headers.get("content-type", "").startswith("application/problem+json"):
        return False
    try:
        return isinstance(response.json().get("code"), str)
    except ValueError:
        return False


def _failure_label(response: httpx.Response) -> str:
    """``HTTP 503 store_unavailable`` for a problem+json answer, else ``HTTP 500``."""
    try:
        body = response.json()
    except ValueError:
        body = None
    code = body.get("code") if isinstance(body, dict) else None
    return f"HTTP {response.status_code} {code}" if isinstance(code, str) else f"HTTP {response.status_code}"


def _warm_up(base_url: str, key: str, space: str) -> None:
    """One write and one recall in ``space`` (not audited) before the clock starts, so the
    first model load and the first query plans are not downtime.

    Raises:
        EywaError: the server refused or failed the request.
    """
    from eywa.client import Client

    with Client(base_url, key, timeout=START_TIMEOUT_S) as client:
        client.remember(space, [{"text": "Warming up: I like tea.", "speaker": "W", "external_id": "warm-up"}])
        client.recall(space, "warm up", k=1)


def _ledger_backlog(base_url: str) -> int | None:
    """Marks left in the ledger as a ready ``/readyz`` reports them; ``None`` while the API
    is unreachable or not ready (a store or the broker still coming back)."""
    try:
        response = httpx.get(f"{base_url}/readyz", timeout=5.0)
        body = response.json()
    except (httpx.TransportError, ValueError):
        return None
    stages = body.get("backlog") if response.status_code == 200 and isinstance(body, dict) else None
    return sum(stages.values()) if isinstance(stages, dict) else None


def _drain(base_url: str, drain_s: float) -> float:
    """Wait (at most ``drain_s``) until a ready API reports an empty ledger; returns the wait."""
    started = time.monotonic()
    while _ledger_backlog(base_url) != 0 and time.monotonic() - started < drain_s:
        time.sleep(0.5)
    return time.monotonic() - started


def _warm_up_space(run: str) -> str:
    return f"chaos-{run}-warm-up"


class _Traffic:
    """The writer threads of one run, started together and stopped together."""

    def __init__(self, base_url: str, key: str, run: str, spaces: list[str]) -> None:
        self.logs = [_WriterLog() for _ in spaces]
        self._clock = _Clock()
        self._threads = [
            threading.Thread(target=_writer, args=(i, base_url, key, run, space, self._clock, self.logs[i]),
                             name=f"chaos-writer-{i}", daemon=True)
            for i, space in enumerate(spaces)
        ]  # fmt: skip
        self._started = 0.0

    def start(self) -> None:
        self._started = time.monotonic()
        for thread in self._threads:
            thread.start()

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self._started

    def stop(self) -> float:
        """Stop starting batches, wait for the writers to finish theirs; returns the run's length."""
        self._clock.stop()
        for thread in self._threads:
            thread.join(timeout=RETRY_GRACE_S + REQUEST_TIMEOUT_S + 5.0)
        return self.elapsed


def run_chaos_bench(
    writers: int = 8,
    seconds: float = 20.0,
    kills: int = 2,
    drain_s: float = 120.0,
    *,
    backend: ChaosBackend = "embedded",
    settings: EywaSettings | None = None,
    neo4j_run_dir: Path | None = None,
) -> ChaosReport:
    """Drive a local API with ``writers`` clients while faults are injected, then audit what
    was acknowledged against what is stored.

    ``kills``: embedded, SIGKILLs of the API process; server, rounds of the three faults
    (a worker, Redis, Neo4j). ``neo4j_run_dir`` (server): a Neo4j that
    ``ops/neo4j/neo4j-test-server`` already runs there, restarted but left running.

    Raises:
        InvalidInputError: a bound out of range.
        ConfigurationError: a bad ``EYWA_*`` value; server mode outside a checkout.
        StoreError: the store, the key file, a server or a process cannot be opened or started.
    """
    if writers < 1 or kills < 0 or seconds <= 0 or drain_s <= 0:
        raise InvalidInputError("writers ≥ 1, kills ≥ 0, seconds > 0 and drain > 0 are required")
    with tempfile.TemporaryDirectory(prefix="eywa-chaos-") as scratch_name:
        scratch = Path(scratch_name)
        chosen = (settings or load_settings()).model_copy(
            update={
                "data_dir": scratch / "memory", "api_keys_path": scratch / "keys.sqlite",
                "rate_limit_per_minute": 0, "job_runner": "inline", "max_backlog": 0,
                "reconcile_interval_s": 1.0, "neo4j_uri": None, "qdrant_url": None, "qdrant_path": None,
                "redis_url": None,
            }
        )  # fmt: skip
        if backend == "server":
            # Acknowledged once Level 0 is committed, as the server shape answers: with Qdrant
            # in local mode (no server here) the API embeds, and a write that waited for it
            # queued behind every other writer's embedding (36 s a batch at a load of 20), so
            # that every request spanned the whole fault plan and no writer met a fault. The
            # embedding backlog is bounded (503 ``overloaded`` beyond it, re-sent like any
            # refusal) so that the drain stays short however fast Level 0 acknowledges.
            chosen = chosen.model_copy(
                update={"neo4j_password": SecretStr("chaos"), "reconcile_interval_s": 2.0, "reconcile_grace_s": 5.0,
                        "celery_visibility_timeout_s": 10, "level1_wait": False,
                        "max_embed_backlog": SERVER_EMBED_BACKLOG}
            )  # fmt: skip
        run = uuid.uuid4().hex[:8]
        spaces = [f"chaos-{run}-w{i:02d}" for i in range(writers)]

        def issue_key(where: EywaSettings) -> str:
            """A key for the writers, in the key store the API of ``where`` reads (server
            mode keeps keys in Neo4j, so it is made once Neo4j runs)."""
            keys = open_key_store(where)
            try:
                return keys.create([*spaces, _warm_up_space(run)], ["read", "write"], name="chaos-bench")[1]
            finally:
                keys.close()

        loads = {"before": os.getloadavg()}
        if backend == "embedded":
            outcome = _run_embedded(scratch, chosen, issue_key(chosen), run, spaces, seconds, kills, drain_s)
        else:
            outcome = _run_server(scratch, chosen, issue_key, run, spaces, seconds, kills, drain_s, neo4j_run_dir)
        loads["after"] = os.getloadavg()
        report = outcome.report(backend, seconds, kills, loads)
        if not report.server_errors:
            return report
        # A 500 says "it was logged": the log's words come back with the samples, since the
        # scratch directory holding the log is gone once this returns.
        logged = logged_errors(scratch / "serve.log")
        return report.model_copy(update={"server_error_samples": [*report.server_error_samples, *logged]})


def logged_errors(log: Path, most: int = MAX_SAMPLES, lines: int = 15) -> list[str]:
    """The API's first ``most`` logged unexpected errors (``services.api.errors``: "unexpected
    error on …" and its traceback, at most its last ``lines`` lines), none when the log is
    missing. A traceback runs on while its lines are indented, blank, a chain's header, or
    the exception line right after a frame; the next other line is another log record."""
    try:
        text = log.read_text(errors="replace").splitlines()
    except OSError:
        return []
    found = []
    for start in [n for n, line in enumerate(text) if "unexpected error on" in line][:most]:
        block: list[str] = []
        for line in text[start + 1 : start + 400]:
            if not line.strip() or line.startswith((" ", "Traceback", "The above exception", "During handling")):
                block.append(line)
            elif block and block[-1].startswith(" "):
                block.append(line)
            else:
                break
        found.append("\n".join([text[start], *block[-lines:]]))
    return found


@dataclass
class _Outcome:
    """What a run left to report: the audit's counts and what the writers saw."""

    logs: list[_WriterLog]
    elapsed: float
    drain: float
    faults: list[str]
    stored: int
    lost: int
    duplicated: int
    backlog_by_stage: dict[str, int]

    def report(
        self, mode: ChaosBackend, seconds: float, kills: int, loads: dict[str, tuple[float, float, float]]
    ) -> ChaosReport:
        logs = self.logs
        return ChaosReport(
            mode=mode, writers=len(logs), seconds=seconds, elapsed_s=round(self.elapsed, 3), kills=kills,
            faults=self.faults, turns_acknowledged=sum(len(log.acked) for log in logs), turns_stored=self.stored,
            duplicated=self.duplicated, lost=self.lost, retried_batches=sum(log.retried for log in logs),
            unacknowledged_batches=sum(log.gave_up for log in logs), backlog=sum(self.backlog_by_stage.values()),
            backlog_by_stage=self.backlog_by_stage, drain_s=round(self.drain, 3),
            refusals=[log.failure for log in logs if log.failure],
            failures_retried=sorted(set().union(*(log.seen for log in logs))),
            server_errors=sum(log.unclear for log in logs),
            server_error_samples=[s for log in logs for s in log.unclear_samples][:MAX_SAMPLES], load_average=loads,
        )  # fmt: skip


def _run_embedded(
    scratch: Path, chosen: EywaSettings, key: str, run: str, spaces: list[str], seconds: float, kills: int,
    drain_s: float,
) -> _Outcome:
    """One ``eywa serve`` over the embedded memory, SIGKILLed and restarted ``kills`` times.

    Raises:
        StoreError: the server did not start again, or the store cannot be audited.
    """
    log_path = scratch / "serve.log"
    port = free_port(HOST)
    base_url = f"http://{HOST}:{port}"
    traffic = _Traffic(base_url, key, run, spaces)
    faults: list[str] = []
    process = start_api(chosen, log_path, HOST, port)
    try:
        _warm_up(base_url, key, _warm_up_space(run))
        traffic.start()
        for _ in range(kills):  # traffic for a share of ``seconds`` before each kill, and after the last
            time.sleep(seconds / (kills + 1))
            at = traffic.elapsed
            process.send_signal(signal.SIGKILL)
            process.wait()
            process = start_api(chosen, log_path, HOST, port)
            faults.append(f"api SIGKILL at {at:.1f} s, back after {traffic.elapsed - at:.1f} s")
        time.sleep(seconds / (kills + 1))
        elapsed = traffic.stop()
        drain = _drain(base_url, drain_s)
    finally:
        stop_api(process)
    return _audit(chosen, spaces, traffic.logs, elapsed, drain, faults)


def _await_flowing(traffic: _Traffic, wait_s: float) -> None:
    """Wait until every writer has had a batch acknowledged, so the faults meet traffic that
    flows. Seen in CI and here (half the runs on a 2-core machine): every writer's first
    batch of a new deployment took longer than the whole fault plan, then succeeded, so the
    writers noticed no fault and the run tested nothing.

    Raises:
        StoreError: no batch of some writer was acknowledged within ``wait_s``.
    """
    deadline = time.monotonic() + wait_s
    while not all(log.acked for log in traffic.logs):
        if time.monotonic() > deadline:
            raise StoreError("chaos", "start", f"a writer had no batch acknowledged within {wait_s:.0f} s")
        time.sleep(0.05)


def _run_server(
    scratch: Path, chosen: EywaSettings, issue_key: Callable[[EywaSettings], str], run: str, spaces: list[str],
    seconds: float, kills: int, drain_s: float, neo4j_run_dir: Path | None,
) -> _Outcome:
    """A server deployment (``ServerDeployment``) through ``kills`` rounds of ``FAULTS``.

    Raises:
        ConfigurationError: not a checkout.
        StoreError: a server or process did not start, or Neo4j cannot be audited.
    """
    deployment = ServerDeployment(scratch, chosen, neo4j_run_dir)
    faults: list[str] = []
    try:
        running = deployment.start()
        key = issue_key(running)
        traffic = _Traffic(deployment.base_url, key, run, spaces)
        _warm_up(deployment.base_url, key, _warm_up_space(run))
        traffic.start()
        _await_flowing(traffic, FLOWING_WAIT_S)
        plan = [fault for _ in range(kills) for fault in FAULTS]
        for fault in plan:  # traffic for a share of ``seconds`` before each fault, and after the last
            time.sleep(seconds / (len(plan) + 1))
            at = traffic.elapsed
            deployment.inject(fault)
            faults.append(f"{fault} SIGKILL at {at:.1f} s, back after {traffic.elapsed - at:.1f} s")
        time.sleep(seconds / (len(plan) + 1))
        elapsed = traffic.stop()
        drain = _drain(deployment.base_url, drain_s)
        deployment.stop_processes()
        return _audit(running, spaces, traffic.logs, elapsed, drain, faults)
    except StoreError as exc:
        raise StoreError("chaos", "run", f"{exc}; process logs:\n{deployment.log_tail()}") from exc
    finally:
        deployment.close()


def _audit(
    settings: EywaSettings, spaces: list[str], logs: list[_WriterLog], elapsed: float, drain: float, faults: list[str]
) -> _Outcome:
    """Compare what each writer was acknowledged with what the store holds.

    Raises:
        StoreError: a store cannot be read.
    """
    stores = open_graph_stores(settings)
    try:
        stored = lost = duplicated = 0
        for space, log in zip(spaces, logs, strict=True):
            count = stores.evidence.count(space)
            acked = set(log.acked.values())
            found = set(stores.evidence.existing(space, sorted(acked))) if acked else set()
            lost += len(acked - found)
            maybe = {evidence_id(space, Turn(text="-", external_id=ext), 0) for ext in log.unacked} - acked
            stored_unacked = len(stores.evidence.existing(space, sorted(maybe))) if maybe else 0
            duplicated += max(0, count - len(found) - stored_unacked)
            stored += count
        by_stage = {str(stage): n for stage, n in stores.ledger.backlog().items()}
    finally:
        stores.close()
    return _Outcome(logs=logs, elapsed=elapsed, drain=drain, faults=faults, stored=stored, lost=lost,
                    duplicated=duplicated, backlog_by_stage=by_stage)  # fmt: skip
