"""``EYWA_REDIS_TIMEOUT_S`` bounds every Redis client the API builds: the job runner's broker
producer, result backend and ping, the rate limiter and the readiness probe.

It was written three times (``services.queue.REDIS_COMMAND_TIMEOUT_S`` and a literal 2.0 in
the rate limiter and the probe), so an operator could not change it, and changing one would
have left the others at 2 s. The clients connect lazily: nothing here needs a Redis.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from eywa import Memory
from eywa.settings import EywaSettings
from services.queue import celery_job_runner
from services.ratelimit import RedisRateLimiter, build_rate_limiter
from services.upkeep import RedisProbe
from tests.reliability.support import HashEmbedder

URL = "redis://127.0.0.1:6399/0"


def _timeouts(client: Any) -> tuple[float, float]:
    """A redis-py client's (command, connect) socket timeouts."""
    kwargs = client.connection_pool.connection_kwargs
    return kwargs["socket_timeout"], kwargs["socket_connect_timeout"]


def test_the_redis_timeout_setting_reaches_every_api_client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EYWA_REDIS_TIMEOUT_S", "0.7")
    settings = EywaSettings(data_dir=tmp_path / "mem", redis_url=URL, job_runner="celery", extractor="none")
    assert settings.redis_timeout_s == 0.7
    limiter = build_rate_limiter(settings)
    assert isinstance(limiter, RedisRateLimiter)
    assert _timeouts(limiter._client) == (0.7, 0.7)
    assert _timeouts(RedisProbe(URL, settings.redis_timeout_s)._client) == (0.7, 0.7)
    with Memory.open(tmp_path / "mem", settings=settings, embedder=HashEmbedder()) as memory:
        runner = celery_job_runner(settings, memory)
        try:
            conf = runner._app.conf
            assert (conf.redis_socket_timeout, conf.redis_socket_connect_timeout) == (0.7, 0.7)
            transport = conf.broker_transport_options
            assert (transport["socket_timeout"], transport["socket_connect_timeout"]) == (0.7, 0.7)
            assert _timeouts(runner._redis) == (0.7, 0.7)
        finally:
            runner.close()


def test_the_redis_timeout_defaults_to_two_seconds_and_must_be_positive() -> None:
    assert EywaSettings().redis_timeout_s == 2.0
    with pytest.raises(ValueError, match="redis_timeout_s"):
        EywaSettings(redis_timeout_s=0)
