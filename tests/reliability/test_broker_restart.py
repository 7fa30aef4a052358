"""Redis killed and restarted mid-stream, with real Celery workers (and their beat) running:
every acknowledged turn ends with its Level 1 and dimension update done, whether Redis kept
its data (append-only file) or lost every queued message. Jobs are records in the store and
the beat re-derives lost work from the stage ledger, so the messages are only wake-ups.

Before the ledger, a Redis restarted without persistence lost 9 of 10 queued turns' Level 1
for good, and finished job ids answered 404.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from celery import Celery
from redis import Redis

from eywa.errors import StoreError
from eywa.jobs import celery_config
from eywa.memory import Memory
from eywa.settings import EywaSettings
from services.queue import CeleryJobRunner
from tests.reliability.redis_process import RedisProcess
from tests.reliability.support import HashEmbedder, corpus
from tests.workers.conftest import kill_group, wait_for

pytestmark = pytest.mark.redis

ROOT = Path(__file__).resolve().parents[2]
SPACE = "stream"
BATCH = 4
TIMEOUT = 120.0


def start_worker(data: Path, url: str, log: Path) -> subprocess.Popen[bytes]:
    """A real worker with an embedded beat reconciling every second (grace 2 s)."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("EYWA_")}
    environ.update(EYWA_REDIS_URL=url, EYWA_DATA_DIR=str(data), EYWA_CELERY_VISIBILITY_TIMEOUT_S="4",
                   EYWA_RECONCILE_INTERVAL_S="1", EYWA_RECONCILE_GRACE_S="2", PYTHONPATH=str(ROOT))  # fmt: skip
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "workers.app", "worker", "-B", "-s", str(log.with_suffix(".beat")),
             "--pool=prefork", "--concurrency=1", "-l", "info", "--without-gossip", "--without-mingle",
             "--without-heartbeat"],
            cwd=ROOT, env=environ, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip


@pytest.fixture
def api(tmp_path: Path) -> Iterator[Memory]:
    """The API's memory: Level 0 and vectors here, Level 1 left to the workers."""
    data = tmp_path / "mem"
    mem = Memory.open(data, settings=EywaSettings(data_dir=data, extractor="none"), embedder=HashEmbedder())
    yield mem
    mem.close()


def runner_for(url: str, book: Memory) -> tuple[CeleryJobRunner, Celery, Redis]:
    app = Celery("eywa-test", set_as_current=False)
    app.conf.update(celery_config(EywaSettings(redis_url=url)))
    client = Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
    return CeleryJobRunner(app, client, book), app, client


def send(mem: Memory, runner: CeleryJobRunner, turns: list[dict[str, object]]) -> tuple[list[str], str]:
    """What ``POST /turns`` does in celery mode; retried (as a client would on 503) until the
    broker takes the job. Returns the acknowledged ids and the job id."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        ids = mem.remember(SPACE, turns)
        try:
            return ids, runner.submit(SPACE, ids)
        except StoreError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


# The beliefs' ids, and each dimension's distribution as sorted (value, probability) pairs.
Derived = tuple[set[str], dict[tuple[str, str], list[tuple[str, float]]]]


def reference(tmp_path: Path, turns: list[dict[str, object]]) -> Derived:
    with Memory.open(tmp_path / "ref", settings=EywaSettings(data_dir=tmp_path / "ref"), embedder=HashEmbedder()) as ref:
        for start in range(0, len(turns), BATCH):
            ref.remember(SPACE, turns[start : start + BATCH])
        return derived(ref)


def derived(mem: Memory) -> Derived:
    beliefs = {b.id for b in mem.beliefs(SPACE, status=None)}
    dims = {
        (d.entity_key, d.attribute): sorted((k, round(v, 9)) for k, v in d.distribution.items())
        for d in mem._stores.dimensions.dimensions(SPACE)
    }
    return beliefs, dims


@pytest.mark.parametrize("persistent", [False, True], ids=["no-persistence", "appendonly"])
def test_every_acknowledged_turn_gets_level1_across_redis_restarts(
    tmp_path: Path, api: Memory, persistent: bool
) -> None:
    turns = corpus(40, seed=11)
    server = RedisProcess(tmp_path / "redis", persistent=persistent).start()
    runner, app, client = runner_for(server.url, api)
    workers: list[subprocess.Popen[bytes]] = []
    acknowledged: list[str] = []
    jobs: list[str] = []
    try:
        # Queued while no worker runs, then Redis dies: without persistence the queue is gone.
        for start in range(0, 16, BATCH):
            ids, job = send(api, runner, turns[start : start + BATCH])
            acknowledged += ids
            jobs.append(job)
        server.kill()
        server.start()
        workers.append(start_worker(tmp_path / "mem", server.url, tmp_path / "worker.log"))
        # Mid-stream, workers running: Redis killed and restarted again.
        for start in range(16, len(turns), BATCH):
            if start == 28:
                server.kill()
                time.sleep(0.5)
                server.start()
            ids, job = send(api, runner, turns[start : start + BATCH])
            acknowledged += ids
            jobs.append(job)
        wait_for(lambda: api.backlog()["level1_backlog"] == 0, TIMEOUT, "the Level 1 backlog to drain")
        assert all(runner.status(job).status in {"done", "running"} for job in jobs)
        assert all(api.job(job).status == "done" for job in jobs)  # the store's own answer, no Redis
        assert api._stores.ledger.pending_for(SPACE, acknowledged) == [] or {
            m.stage for m in api._stores.ledger.pending_for(SPACE, acknowledged)
        } <= {"embed_evidence", "embed_belief"}
        assert len(set(acknowledged)) == len(turns) == api.stats(SPACE)["evidence"]
        assert derived(api) == reference(tmp_path, turns)
    finally:
        for proc in workers:
            kill_group(proc)
        client.close()
        app.close()
        server.close()
    assert (tmp_path / "worker.log").read_text(errors="replace").count("reconcile re-sent") >= 1 or persistent
