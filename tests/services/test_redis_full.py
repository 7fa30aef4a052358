"""A Redis at its ``maxmemory`` (policy ``noeviction``) under the API (docs/service.md, Outages).

It answers PING and refuses every write. Probed: a write is still acknowledged and stored,
its job recorded (pending) and its wake-up logged as not queued, recall answers, and the
rate limiter lets requests through (it says so) — but ``/readyz`` said ready and nothing
else, while no Level 1 could run until Redis had room again. ``/readyz``'s ``redis`` now
says ``"full": true``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import redis
from fastapi.testclient import TestClient

from eywa.memory import Memory
from eywa.settings import EywaSettings
from eywa.stores.embedded.keys import SqliteKeyStore
from services.api.app import create_app
from services.queue import celery_job_runner
from services.ratelimit import build_rate_limiter
from services.upkeep import RedisProbe
from tests.reliability.redis_process import RedisProcess
from tests.reliability.support import HashEmbedder

pytestmark = pytest.mark.redis


def _fill(client: redis.Redis) -> None:
    client.config_set("maxmemory", "3mb")
    client.config_set("maxmemory-policy", "noeviction")
    with pytest.raises(redis.exceptions.ResponseError, match="maxmemory"):
        for i in range(10_000):
            client.set(f"filler:{i}", "x" * 10_000)


def test_a_full_redis_is_said_by_readyz_and_writes_are_still_stored(tmp_path: Path) -> None:
    server = RedisProcess(tmp_path / "redis", persistent=False).start()
    client = redis.Redis.from_url(server.url)
    settings = EywaSettings(data_dir=tmp_path / "mem", redis_url=server.url, job_runner="celery", extractor="none",
                            rate_limit_per_minute=1000)  # fmt: skip
    memory = Memory.open(tmp_path / "mem", settings=settings, embedder=HashEmbedder())
    keys = SqliteKeyStore(tmp_path / "keys.sqlite")
    headers = {"Authorization": f"Bearer {keys.create(['full'], ['read', 'write'])[1]}"}
    runner = celery_job_runner(settings, memory)
    try:
        with TestClient(create_app(memory, settings, keys, runner, build_rate_limiter(settings))) as api:
            assert api.get("/readyz").json()["redis"]["full"] is False
            _fill(client)
            written = api.post("/v1/spaces/full/turns", json={"turns": [{"text": "I live in Lyon.", "speaker": "Ana"}]},
                               headers=headers)  # fmt: skip
            assert written.status_code == 201, written.text
            job = api.get(f"/v1/jobs/{written.json()['job']['id']}", headers=headers)
            assert (job.status_code, job.json()["status"]) == (200, "pending")
            assert memory.stats("full")["evidence"] == 1
            ready = api.get("/readyz")
            assert ready.status_code == 200 and ready.json()["redis"]["full"] is True, ready.text
            client.flushall()
            assert api.get("/readyz").json()["redis"]["full"] is False
    finally:
        runner.close()
        memory.close()
        keys.close()
        client.close()
        server.kill()


def test_a_redis_a_few_requests_from_its_limit_is_full_and_one_with_room_is_not(tmp_path: Path) -> None:
    """Redis refuses a write when its memory is over ``maxmemory`` at that moment, and reads a
    few KB under it a moment later (the refused requests' buffers freed): a CI run saw the rate
    limiter refused while ``/readyz`` said not full. Within a margin of the limit is full."""
    server = RedisProcess(tmp_path / "redis", persistent=False).start()
    client = redis.Redis.from_url(server.url)
    probe = RedisProbe(server.url, timeout_s=2.0)
    try:
        client.config_set("maxmemory-policy", "noeviction")
        assert probe.status()["full"] is False  # no limit yet; the probe's connection is open
        used = int(client.info("memory")["used_memory"])
        client.config_set("maxmemory", str(used + 48 * 1024))
        assert probe.status()["full"] is True
        client.config_set("maxmemory", str(used + 50 * 1024 * 1024))
        assert probe.status()["full"] is False
        assert client.get("eywa:readyz:probe") in (None, b"1")  # the probe's key expires by itself
    finally:
        probe.close()
        client.close()
        server.kill()
