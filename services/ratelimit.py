"""Per-caller rate limiting in Redis: a fixed one-minute window per key.

Fixed windows are one INCR and one EXPIRE per request, shared by every API process through
Redis; the cost is that a client may burst up to twice the limit across a window boundary,
which is acceptable for abuse protection. Without ``EYWA_REDIS_URL`` (or with
``EYWA_RATE_LIMIT_PER_MINUTE=0``) the limiter is off, so ``eywa serve`` works on the
embedded default with nothing else running.

The HTTP API and the MCP server count every call, refused ones included: a valid key under
its id, a request without a valid key under its client address (:func:`caller_of`), so
guessing keys is rate-limited too.

When Redis cannot be reached the limiter **fails open** (:class:`FailOpenRateLimiter`): the
call proceeds, a warning is logged (at most once a minute) and
``eywa_rate_limiter_errors_total`` counts it, and ``/readyz`` reports the limiter down. The
limiter protects the service from abuse; an outage of Redis should not take every agent's
memory offline with it.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from pydantic import BaseModel, ConfigDict

from eywa.errors import StoreError
from eywa.settings import EywaSettings

if TYPE_CHECKING:
    from redis import Redis

__all__ = [
    "Decision", "FailOpenRateLimiter", "NoRateLimiter", "RateLimiter", "RedisRateLimiter", "build_rate_limiter",
    "caller_of",
]  # fmt: skip

_log = logging.getLogger("eywa.ratelimit")
WARN_EVERY_S = 60.0


class Decision(BaseModel):
    """Whether one request may proceed and, if not, after how many seconds to retry."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    allowed: bool
    limit: int
    remaining: int
    retry_after: int = 0


class RateLimiter(Protocol):
    """Counts requests per key."""

    @property
    def in_process(self) -> bool:
        """Whether ``hit`` answers without waiting on a server (see ``KeyStore.in_process``)."""
        ...

    def hit(self, key_id: str) -> Decision:
        """Count one request of ``key_id``.

        Raises:
            StoreError: the backing store cannot be reached.
        """
        ...

    def ping(self) -> bool:
        """Whether the backing store answers (``/readyz``)."""
        ...


class NoRateLimiter:
    """No limit: every request is allowed."""

    in_process = True

    def hit(self, key_id: str) -> Decision:
        """Always allowed."""
        return Decision(allowed=True, limit=0, remaining=0)

    def ping(self) -> bool:
        """Nothing to reach."""
        return True


class RedisRateLimiter:
    """``per_minute`` requests per key per wall-clock window of ``window_s`` seconds."""

    in_process = False  # a count is a round trip to Redis

    def __init__(
        self,
        client: Redis,
        per_minute: int,
        *,
        window_s: int = 60,
        prefix: str = "eywa:rl",
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._client = client
        self._limit = per_minute
        self._window = window_s
        self._prefix = prefix
        self._clock = clock

    def hit(self, key_id: str) -> Decision:
        """Count one request; refuse it once the window's count exceeds the limit.

        Raises:
            StoreError: Redis cannot be reached.
        """
        import redis

        now = self._clock()
        window = int(now // self._window)
        name = f"{self._prefix}:{key_id}:{window}"
        try:
            pipe = self._client.pipeline()
            pipe.incr(name)
            pipe.expire(name, self._window + 1)
            count = int(pipe.execute()[0])
        except redis.RedisError as exc:
            raise StoreError("redis", "rate limit", str(exc)) from exc
        if count <= self._limit:
            return Decision(allowed=True, limit=self._limit, remaining=self._limit - count)
        retry_after = max(1, math.ceil((window + 1) * self._window - now))
        return Decision(allowed=False, limit=self._limit, remaining=0, retry_after=retry_after)

    def ping(self) -> bool:
        """Whether Redis answers PING."""
        import redis

        try:
            return bool(self._client.ping())
        except redis.RedisError:
            return False


class FailOpenRateLimiter:
    """Wraps a limiter so that a store failure lets the call through (see module docstring).

    Args:
        inner: the limiter whose store may fail.
        on_error: called with each failure (a metric), besides the throttled warning.
    """

    def __init__(
        self,
        inner: RateLimiter,
        on_error: Callable[[StoreError], None] = lambda exc: None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._inner = inner
        self._on_error = on_error
        self._clock = clock
        self._warned_at: float | None = None
        self._lock = threading.Lock()

    @property
    def in_process(self) -> bool:
        """The inner limiter's."""
        return self._inner.in_process

    def hit(self, key_id: str) -> Decision:
        """The inner decision, or an allowance when the inner store failed."""
        try:
            return self._inner.hit(key_id)
        except StoreError as exc:
            self._on_error(exc)
            with self._lock:
                now = self._clock()
                if self._warned_at is None or now - self._warned_at >= WARN_EVERY_S:
                    self._warned_at = now
                    _log.warning("rate limiter unreachable, requests are allowed unlimited: %s", exc)
            return Decision(allowed=True, limit=0, remaining=0)

    def ping(self) -> bool:
        """Whether the inner store answers."""
        return self._inner.ping()


def caller_of(key_id: str | None, address: str | None) -> str:
    """The subject a call is counted under: its key id, else its client address."""
    return key_id if key_id is not None else f"addr:{address or 'unknown'}"


def build_rate_limiter(settings: EywaSettings) -> RateLimiter:
    """A Redis limiter when ``redis_url`` is set and the limit is positive; otherwise none."""
    if settings.redis_url is None or settings.rate_limit_per_minute == 0:
        return NoRateLimiter()
    import redis

    timeout = settings.redis_timeout_s
    client = redis.Redis.from_url(settings.redis_url, socket_timeout=timeout, socket_connect_timeout=timeout)
    return RedisRateLimiter(client, settings.rate_limit_per_minute)
