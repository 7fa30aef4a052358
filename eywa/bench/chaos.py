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

After the writers stop the run waits, up to ``drain_s``, for ``/readyz`` to report an empty
ledger, stops the server, and audits the store directly (``eywa.runtime.open_graph_stores``):
acknowledged turns that do not resolve are ``lost``; stored turns beyond the distinct
acknowledged ones (and those of batches never acknowledged, which a killed request may
have stored) are ``duplicated``; ``backlog`` is what the ledger still owes.

Server mode (Celery workers, Redis and Neo4j restarted during the run) is not measured by
this command yet; ``tests/reliability`` covers those restarts.

Example:
    >>> report = run_chaos_bench(writers=2, seconds=4, kills=1)  # doctest: +SKIP
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import httpx
from pydantic import BaseModel, ConfigDict

from eywa.batches import evidence_id
from eywa.bench.service import START_TIMEOUT_S, free_port, start_api, stop_api
from eywa.errors import InvalidInputError
from eywa.models import Turn
from eywa.runtime import load_settings, open_graph_stores, open_key_store
from eywa.settings import EywaSettings

__all__ = ["ChaosReport", "run_chaos_bench"]

HOST = "127.0.0.1"  # loopback only: the run starts and kills its own server
BATCH_SIZE = 4
RETRY_PAUSE_S = 0.2
REQUEST_TIMEOUT_S = 30.0
RETRY_GRACE_S = 60.0  # after the run, how long a failing batch is still re-sent


class ChaosReport(BaseModel):
    """What one chaos run measured; ``--json`` writes it as is."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    mode: Literal["embedded"]
    writers: int
    seconds: float
    elapsed_s: float
    kills: int
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
    load_average: dict[str, tuple[float, float, float]]

    @property
    def passed(self) -> bool:
        """Nothing duplicated, nothing lost, the ledger drained, something acknowledged."""
        return (
            self.duplicated == 0 and self.lost == 0 and self.backlog == 0
            and self.turns_acknowledged > 0 and not self.refusals
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
            log.seen.add(f"HTTP {response.status_code}")
            if response.status_code < 500:
                log.failure = f"writer {writer}: {response.status_code} {response.text[:200]}"
                return False
        log.retried += attempt == 0
        if clock.expired:
            log.gave_up += 1
            return False
        time.sleep(RETRY_PAUSE_S)
    return False  # unreachable: itertools.count() never ends


def _warm_up(base_url: str, key: str, space: str) -> None:
    """One recall before the clock starts, so the first model load is not downtime.

    Raises:
        EywaError: the server refused or failed the request.
    """
    from eywa.client import Client

    with Client(base_url, key, timeout=START_TIMEOUT_S) as client:
        client.recall(space, "warm up", k=1)


def _ledger_backlog(base_url: str) -> int | None:
    """Marks left in the ledger as ``/readyz`` reports them; ``None`` while unreachable."""
    try:
        body = httpx.get(f"{base_url}/readyz", timeout=5.0).json()
    except (httpx.TransportError, ValueError):
        return None
    stages = body.get("backlog")
    return sum(stages.values()) if isinstance(stages, dict) else None


def run_chaos_bench(
    writers: int = 8,
    seconds: float = 20.0,
    kills: int = 2,
    drain_s: float = 120.0,
    *,
    settings: EywaSettings | None = None,
) -> ChaosReport:
    """Drive a local API with ``writers`` clients, SIGKILL and restart it ``kills`` times,
    then audit what was acknowledged against what is stored.

    Raises:
        InvalidInputError: a bound out of range.
        ConfigurationError: a bad ``EYWA_*`` value.
        StoreError: the store, the key file or the server cannot be opened or started.
    """
    if writers < 1 or kills < 0 or seconds <= 0 or drain_s <= 0:
        raise InvalidInputError("writers ≥ 1, kills ≥ 0, seconds > 0 and drain > 0 are required")
    with tempfile.TemporaryDirectory(prefix="eywa-chaos-") as scratch:
        chosen = (settings or load_settings()).model_copy(
            update={
                "data_dir": Path(scratch) / "memory", "api_keys_path": Path(scratch) / "keys.sqlite",
                "rate_limit_per_minute": 0, "job_runner": "inline", "max_backlog": 0,
                "reconcile_interval_s": 1.0, "neo4j_uri": None, "qdrant_url": None, "redis_url": None,
            }
        )  # fmt: skip
        run = uuid.uuid4().hex[:8]
        spaces = [f"chaos-{run}-w{i:02d}" for i in range(writers)]
        keys = open_key_store(chosen)
        try:
            _, key = keys.create(spaces, ["read", "write"], name="chaos-bench")
        finally:
            keys.close()
        log_path = Path(scratch) / "serve.log"
        port = free_port(HOST)
        base_url = f"http://{HOST}:{port}"
        loads = {"before": os.getloadavg()}
        logs = [_WriterLog() for _ in range(writers)]
        process = start_api(chosen, log_path, HOST, port)
        try:
            _warm_up(base_url, key, spaces[0])
            clock = _Clock()
            started = time.monotonic()
            threads = [
                threading.Thread(target=_writer, args=(i, base_url, key, run, spaces[i], clock, logs[i]),
                                 name=f"chaos-writer-{i}", daemon=True)
                for i in range(writers)
            ]  # fmt: skip
            for thread in threads:
                thread.start()
            for _ in range(kills):  # traffic for a share of ``seconds`` before each kill, and after the last
                time.sleep(seconds / (kills + 1))
                process.send_signal(signal.SIGKILL)
                process.wait()
                process = start_api(chosen, log_path, HOST, port)
            time.sleep(seconds / (kills + 1))
            clock.stop()
            for thread in threads:
                thread.join(timeout=RETRY_GRACE_S + REQUEST_TIMEOUT_S)
            elapsed = time.monotonic() - started
            drained_at = time.monotonic()
            while (_ledger_backlog(base_url) or 0) > 0 and time.monotonic() - drained_at < drain_s:
                time.sleep(0.5)
            drain = time.monotonic() - drained_at
        finally:
            stop_api(process)
        loads["after"] = os.getloadavg()
        return _audit(chosen, spaces, logs, writers, seconds, elapsed, kills, drain, loads)


def _audit(
    settings: EywaSettings,
    spaces: list[str],
    logs: list[_WriterLog],
    writers: int,
    seconds: float,
    elapsed: float,
    kills: int,
    drain: float,
    loads: dict[str, tuple[float, float, float]],
) -> ChaosReport:
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
        backlog = sum(by_stage.values())
    finally:
        stores.close()
    return ChaosReport(
        mode="embedded", writers=writers, seconds=seconds, elapsed_s=round(elapsed, 3), kills=kills,
        turns_acknowledged=sum(len(log.acked) for log in logs), turns_stored=stored,
        duplicated=duplicated, lost=lost, retried_batches=sum(log.retried for log in logs),
        unacknowledged_batches=sum(log.gave_up for log in logs), backlog=backlog, backlog_by_stage=by_stage,
        drain_s=round(drain, 3), refusals=[log.failure for log in logs if log.failure],
        failures_retried=sorted(set().union(*(log.seen for log in logs))), load_average=loads,
    )  # fmt: skip
