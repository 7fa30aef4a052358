"""Fixtures for the worker tests: a real Redis (``tests.redis_server``), embedded stores
with turns, real workers."""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
import redis
from celery import Celery

from eywa.jobs import JobStatus, celery_config
from eywa.memory import Memory
from eywa.reconcile import StoreJobBook
from eywa.settings import EywaSettings
from eywa.stores.bundle import GraphStores
from eywa.stores.embedded.factory import open_embedded_graph
from services.queue import CeleryJobRunner

ROOT = Path(__file__).resolve().parents[2]
SPACE = "home"
_DBS = itertools.count(1)


class ConstantEmbedder:
    """One unit vector for every text: the workers never read vectors, so any will do."""

    model_id = "constant"
    dim = 8

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        vector = np.zeros((len(texts), self.dim), dtype=np.float32)
        vector[:, 0] = 1.0
        return vector


TURNS = [
    {"text": "I live in Paris.", "speaker": "Cecilia", "session": "s1", "observed_at": datetime(2023, 1, 5, tzinfo=UTC)},
    {"text": "I work at Google now.", "speaker": "Cecilia", "session": "s2",
     "observed_at": datetime(2023, 2, 5, tzinfo=UTC)},
    {"text": "I live in Lyon.", "speaker": "Cecilia", "session": "s3", "observed_at": datetime(2023, 5, 5, tzinfo=UTC)},
    {"text": "I live in Berlin.", "speaker": "Cecilia", "session": "s4",
     "observed_at": datetime(2023, 9, 5, tzinfo=UTC)},
]


def write_turns(directory: Path, turns: Sequence[dict[str, object]], extractor: str = "none") -> list[str]:
    """Level 0 through the embedded Memory (Level 1 left to the workers unless ``extractor``)."""
    settings = EywaSettings(extractor=extractor)  # type: ignore[arg-type]
    with Memory.open(directory, settings=settings, embedder=ConstantEmbedder()) as mem:
        return [i for turn in turns for i in mem.remember(SPACE, [turn])]


@pytest.fixture
def broker(redis_url: str) -> str:  # noqa: F811
    """A Redis database of its own for this test (queues and results start empty)."""
    base = redis_url.rsplit("/", 1)[0]
    url = f"{base}/{next(_DBS) % 15 + 1}"
    client = redis.Redis.from_url(url)
    client.flushdb()
    client.close()
    return url


class LazyBook:
    """Job records in graph stores opened on first use (the test writes the turns first)."""

    def __init__(self, opener: Callable[[], GraphStores]) -> None:
        self._opener = opener
        self.stores: GraphStores | None = None

    def _book(self) -> StoreJobBook:
        if self.stores is None:
            self.stores = self._opener()
        return StoreJobBook(self.stores, max_attempts=8)

    def record_job(self, space: str, evidence_ids: Sequence[str], *, author: str | None = None,
                   request_id: str | None = None) -> str:  # fmt: skip
        return self._book().record_job(space, evidence_ids, author=author, request_id=request_id)

    def job(self, job_id: str) -> JobStatus:
        return self._book().job(job_id)

    def close(self) -> None:
        if self.stores is not None:
            self.stores.close()


RunnerFactory = Callable[[Callable[[], GraphStores]], CeleryJobRunner]


@pytest.fixture
def make_runner(broker: str) -> Iterator[RunnerFactory]:
    """API-side job runners against the test broker, recording jobs in the stores given."""
    app = Celery("eywa-test", set_as_current=False)
    app.conf.update(celery_config(EywaSettings(redis_url=broker)))
    client = redis.Redis.from_url(broker)
    books: list[LazyBook] = []

    def make(opener: Callable[[], GraphStores]) -> CeleryJobRunner:
        books.append(LazyBook(opener))
        return CeleryJobRunner(app, client, books[-1])

    yield make
    for book in books:
        book.close()
    client.close()
    app.close()


@pytest.fixture
def runner(make_runner: RunnerFactory, tmp_path: Path) -> CeleryJobRunner:
    """The API-side job runner, with job records in the embedded store at ``tmp_path/mem``."""
    return make_runner(lambda: open_embedded_graph(tmp_path / "mem"))


WorkerFactory = Callable[..., subprocess.Popen[bytes]]


@pytest.fixture
def start_worker(broker: str, tmp_path: Path) -> Iterator[WorkerFactory]:
    """Starts real ``celery worker`` processes (own session); kills them all afterwards."""
    started: list[subprocess.Popen[bytes]] = []

    def start(data_dir: Path, app: str = "workers.app", concurrency: int = 2, **env: str) -> subprocess.Popen[bytes]:
        environ = {k: v for k, v in os.environ.items() if not k.startswith("EYWA_")}
        environ.update(EYWA_REDIS_URL=broker, EYWA_DATA_DIR=str(data_dir), EYWA_CELERY_VISIBILITY_TIMEOUT_S="4",
                       PYTHONPATH=str(ROOT), **env)
        with (tmp_path / f"worker-{len(started)}.log").open("wb") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", app, "worker", "--pool=prefork", f"--concurrency={concurrency}",
                 "-l", "info", "--without-gossip", "--without-mingle", "--without-heartbeat"],
                cwd=ROOT, env=environ, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )
        started.append(proc)
        return proc

    yield start
    for proc in started:
        kill_group(proc)


def kill_group(proc: subprocess.Popen[bytes], sig: int = signal.SIGKILL) -> None:
    """Kill a worker's whole process group (main process and pool children)."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
    proc.wait(timeout=30)


def wait_for(check: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll ``check`` until true; fail the test after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout}s waiting for {what}")
        time.sleep(0.1)
