"""``eywa beat`` and ``eywa worker --metrics-port`` as real processes on a real Redis: the
periodic tasks run on the configured intervals, and ``/metrics`` serves the worker metrics
gathered from the prefork children (multiprocess mode) plus the live queue depth."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from prometheus_client.parser import text_string_to_metric_families

from tests.services.conftest import free_port
from tests.workers.conftest import ROOT, SPACE, TURNS, kill_group, wait_for, write_turns
from eywa.jobs import QUEUE
from workers.metrics import METRIC_NAMES, REJECTIONS, STORE_ERRORS, TASK_RETRIES
from services.queue import CeleryJobRunner

pytestmark = pytest.mark.redis

TIMEOUT = 60.0
INTERVAL_S = "2"
# Samples that only exist once something went wrong (a retry, a store error, a refusal).
ONLY_ON_TROUBLE = {f"{m._name}_total" for m in (TASK_RETRIES, STORE_ERRORS, REJECTIONS)}


@pytest.fixture
def eywa_process(broker: str, tmp_path: Path) -> Iterator[Any]:
    """Starts ``python -m eywa.cli ARGS`` in its own session; kills every one afterwards."""
    started: list[subprocess.Popen[bytes]] = []

    def start(name: str, *args: str, **env: str) -> subprocess.Popen[bytes]:
        environ = {k: v for k, v in os.environ.items() if not k.startswith(("EYWA_", "PROMETHEUS_"))}
        environ.update(EYWA_REDIS_URL=broker, PYTHONPATH=str(ROOT), **env)
        with (tmp_path / f"{name}.log").open("wb") as log:
            proc = subprocess.Popen([sys.executable, "-m", "eywa.cli", *args], cwd=ROOT, env=environ, stdout=log,
                                    stderr=subprocess.STDOUT, start_new_session=True)
        started.append(proc)
        return proc

    yield start
    for proc in started:
        kill_group(proc)


def _scrape(port: int) -> dict[str, list[tuple[dict[str, str], float]]] | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2) as response:
            text = response.read().decode()
    except (urllib.error.URLError, OSError):
        return None
    samples: dict[str, list[tuple[dict[str, str], float]]] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples.setdefault(sample.name, []).append((dict(sample.labels), sample.value))
    return samples


def _results(broker: str) -> list[dict[str, Any]]:
    """Every task result in the backend (``result_extended`` stores the task name)."""
    client = redis.Redis.from_url(broker)
    try:
        raw = [client.get(key) for key in client.scan_iter("celery-task-meta-*")]
    finally:
        client.close()
    return [json.loads(r) for r in raw if r]


def _succeeded(broker: str, task: str) -> list[Any]:
    return [r["result"] for r in _results(broker) if r.get("name") == task and r.get("status") == "SUCCESS"]


def test_beat_runs_the_periodic_tasks_and_the_worker_serves_its_metrics(
    tmp_path: Path, broker: str, runner: CeleryJobRunner, eywa_process: Any
) -> None:
    data = tmp_path / "mem"
    ids = write_turns(data, TURNS)  # Level 0 only: the job below runs Level 1
    port = free_port()
    (tmp_path / "prom").mkdir()
    env = {"EYWA_DATA_DIR": str(data), "EYWA_CELERY_VISIBILITY_TIMEOUT_S": "4",
           "EYWA_DECAY_INTERVAL_S": INTERVAL_S, "EYWA_REPAIR_INTERVAL_S": INTERVAL_S}
    worker = eywa_process("worker", "worker", "--concurrency", "2", "--metrics-port", str(port),
                          PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "prom"), **env)
    wait_for(lambda: worker.poll() is not None or _scrape(port) is not None, TIMEOUT, "the worker's /metrics")
    assert worker.poll() is None, (tmp_path / "worker.log").read_text(errors="replace")[-3000:]
    eywa_process("beat", "beat", "--schedule", str(tmp_path / "beat-schedule"), **env)

    job = runner.submit(SPACE, ids)
    wait_for(lambda: runner.status(job).status in {"done", "failed"}, TIMEOUT, f"job {job}")
    assert runner.status(job).status == "done", runner.status(job).detail

    # Beat: decay materialisation sees the job's two dimensions; repair went over the space.
    wait_for(lambda: any(r.get(SPACE, {}).get("dimensions") == 2 for r in _succeeded(broker, "eywa.materialise_decay")),
             TIMEOUT, "a materialise_decay run after the job")
    decay = next(r for r in _succeeded(broker, "eywa.materialise_decay") if r.get(SPACE, {}).get("dimensions") == 2)
    assert decay[SPACE]["entropy_bits_mean"] >= 0.0
    wait_for(lambda: bool(_succeeded(broker, "eywa.repair_candidates")), TIMEOUT, "a repair_candidates run")
    repairs = _succeeded(broker, "eywa.repair_candidates")
    assert all(set(r) == {"repaired"} and set(r["repaired"]) <= {SPACE} for r in repairs), repairs
    assert any(r["repaired"] == {SPACE: 0} for r in repairs), repairs  # nothing to repair here

    # Metrics: the children's samples (multiprocess files) reach the parent's endpoint.
    def gauge_published() -> bool:
        samples = _scrape(port) or {}
        return any(labels == {"space": SPACE} and value == 2.0 for labels, value in samples.get("eywa_dimensions", []))

    wait_for(gauge_published, TIMEOUT, "the eywa_dimensions gauge on /metrics")
    samples = _scrape(port)
    assert samples is not None
    assert METRIC_NAMES - ONLY_ON_TROUBLE <= set(samples), sorted(METRIC_NAMES - ONLY_ON_TROUBLE - set(samples))
    done = {(labels["task"], labels["state"]): value for labels, value in samples["eywa_worker_tasks_total"]}
    assert done[("eywa.extract_and_validate", "success")] == 1.0
    assert done[("eywa.materialise_decay", "success")] >= 1.0
    assert done[("eywa.repair_candidates", "success")] >= 1.0
    accepted = [v for labels, v in samples["eywa_level1_candidates_total"] if labels == {"outcome": "accepted"}]
    assert accepted and accepted[0] >= 4
    lag = [v for labels, v in samples["eywa_worker_queue_lag_seconds_count"]
           if labels == {"task": "eywa.extract_and_validate"}]
    assert lag == [1.0]
    assert ({"queue": QUEUE}, 0.0) in samples["eywa_queue_depth"]
