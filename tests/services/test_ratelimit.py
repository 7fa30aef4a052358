"""Per-key rate limiting on a real Redis: 429 with Retry-After, keys counted apart."""

from __future__ import annotations

from pathlib import Path

import redis

from eywa.memory import Memory
from eywa.settings import EywaSettings
from services.ratelimit import NoRateLimiter, RedisRateLimiter, build_rate_limiter
from tests.services.conftest import build_service


def test_a_key_over_its_rate_gets_429_with_retry_after(memory: Memory, tmp_path: Path, redis_url: str) -> None:
    settings = EywaSettings(data_dir=tmp_path, redis_url=redis_url, rate_limit_per_minute=3)
    svc = build_service(memory, tmp_path, settings, limiter=build_rate_limiter(settings))
    limited, other = svc.headers(["rl"], "read"), svc.headers(["rl"], "read")
    codes = [svc.client.get("/v1/spaces/rl/beliefs", headers=limited).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    refused = svc.client.get("/v1/spaces/rl/beliefs", headers=limited)
    assert refused.json()["code"] == "rate_limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert svc.client.get("/v1/spaces/rl/beliefs", headers=other).status_code == 200
    assert svc.client.get("/readyz").json()["checks"]["rate_limiter"] is True
    svc.client.close()
    svc.keys.close()


def test_the_window_resets_and_a_dead_redis_is_not_ready(redis_url: str) -> None:
    now = [1_000_040.0]  # 20 s into a window that starts at 1_000_020
    client = redis.Redis.from_url(redis_url)
    limiter = RedisRateLimiter(client, 1, prefix="eywa:test-window", clock=lambda: now[0])
    assert limiter.hit("k").allowed
    blocked = limiter.hit("k")
    assert not blocked.allowed and blocked.retry_after == 40
    now[0] += 40
    assert limiter.hit("k").allowed
    client.close()
    dead = RedisRateLimiter(redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2), 1)
    assert dead.ping() is False


def test_no_redis_url_means_no_limit() -> None:
    assert isinstance(build_rate_limiter(EywaSettings()), NoRateLimiter)
    assert isinstance(build_rate_limiter(EywaSettings(redis_url="redis://x", rate_limit_per_minute=0)), NoRateLimiter)
