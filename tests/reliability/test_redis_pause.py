"""A Redis that stops answering (paused with SIGSTOP: a hung server, or one behind a black
hole) behind an API in Celery mode: writes and reads go on (a turn is acknowledged once
stored; the wake-up message is the sender thread's to deliver), a job poll answers the
store's state, ``/readyz`` says the broker is unreachable, each within a bounded time, and
all of it works again once Redis answers.

Before ``EYWA_REDIS_TIMEOUT_S`` (``EywaSettings.redis_timeout_s``, 2 s), the API's Redis connections had no socket
timeout: ``GET /v1/jobs/{id}`` held its request thread for as long as Redis did not answer
(still waiting after 60 s; every poll took another thread of the server's pool), and each
``/readyz`` left a thread pinging.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from eywa.memory import Memory
from eywa.settings import EywaSettings
from eywa.stores.embedded.keys import SqliteKeyStore
from services.api.app import create_app, serve_in_thread
from services.queue import celery_job_runner
from tests.reliability.redis_process import RedisProcess
from tests.reliability.support import HashEmbedder

pytestmark = pytest.mark.redis

SPACE = "paused-broker"
SLACK_S = 3.0  # scheduling on a loaded machine


def _timed(call: Callable[[], httpx.Response]) -> tuple[httpx.Response, float]:
    started = time.monotonic()
    response = call()
    return response, time.monotonic() - started


def test_a_paused_redis_bounds_job_polls_and_readiness_and_leaves_reads_and_writes_alone(tmp_path: Path) -> None:
    broker = RedisProcess(tmp_path / "redis", persistent=False).start()
    settings = EywaSettings(data_dir=tmp_path / "mem", redis_url=broker.url, job_runner="celery",
                            rate_limit_per_minute=0, extractor="none")  # fmt: skip
    keys = SqliteKeyStore(tmp_path / "keys.sqlite")
    _, secret = keys.create([SPACE], ["read", "write"])
    try:
        with Memory.open(tmp_path / "mem", settings=settings, embedder=HashEmbedder()) as memory, serve_in_thread(
            create_app(memory, settings, keys, celery_job_runner(settings, memory))
        ) as url, httpx.Client(base_url=url, headers={"Authorization": f"Bearer {secret}"}, timeout=60.0) as http:
            posted = http.post(f"/v1/spaces/{SPACE}/turns", json={"turns": [{"speaker": "Ana", "text": "I moved to Lisbon."}]})
            assert posted.status_code == 201, posted.text
            job = posted.json()["job"]["id"]
            assert http.get(f"/v1/jobs/{job}").json()["status"] == "pending"
            bound = settings.redis_timeout_s * 2 + SLACK_S  # a connect and a command, at most
            with broker.paused():
                polled, took_poll = _timed(lambda: http.get(f"/v1/jobs/{job}"))
                ready, took_ready = _timed(lambda: http.get("/readyz"))
                written, _ = _timed(lambda: http.post(f"/v1/spaces/{SPACE}/turns",
                                                      json={"turns": [{"speaker": "Ana", "text": "I moved to Porto."}]}))  # fmt: skip
                recalled, _ = _timed(lambda: http.post(f"/v1/spaces/{SPACE}/recall", json={"query": "Where did Ana move?"}))
            assert polled.status_code == 200 and polled.json()["status"] == "pending", polled.text
            assert took_poll < bound, took_poll
            assert ready.status_code == 503 and ready.json()["detail"] == "unreachable: jobs", ready.text
            assert took_ready < bound, took_ready
            assert written.status_code == 201, written.text  # stored; the wake-up waits for the sender
            assert recalled.status_code == 200 and recalled.json()["items"], recalled.text
            assert http.get("/readyz").status_code == 200  # Redis answers again: ready at once
            assert http.get(f"/v1/jobs/{written.json()['job']['id']}").status_code == 200
    finally:
        keys.close()
        broker.close()
