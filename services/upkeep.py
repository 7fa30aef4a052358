"""What the API process runs beside requests: periodic reconciliation and the Redis probe.

``PeriodicReconcile`` calls ``Memory.reconcile`` every ``EYWA_RECONCILE_INTERVAL_S`` on a
daemon thread while the app runs: it embeds what the workers derived (``embed_belief``
marks), retries stages that failed (an extractor endpoint that was down), and finishes what
a crash of this process left. ``RedisProbe`` tells ``/readyz`` whether Redis keeps its data
across a restart (``CONFIG GET appendonly`` / ``save``): without persistence a restart drops
every queued message, which the ledger then has to re-derive.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from redis import Redis
from redis.exceptions import RedisError, ResponseError

from eywa.errors import EywaError
from eywa.memory import Memory

__all__ = ["PeriodicReconcile", "RedisProbe"]

log = logging.getLogger(__name__)


class PeriodicReconcile:
    """A daemon thread that reconciles the memory every ``interval_s`` until stopped."""

    def __init__(self, memory: Memory, interval_s: float) -> None:
        self._memory = memory
        self._interval_s = interval_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start the thread (once)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="eywa-reconcile-timer", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop the thread and wait for a pass in progress to end."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=60)

    def _run(self) -> None:
        while not self._stop.wait(self._interval_s):
            try:
                report = self._memory.reconcile(background=True)  # no request waits for it
            except EywaError as exc:  # a store down: say so, try again next time
                log.warning("periodic reconciliation failed: %s", exc)
                continue
            if report.total:
                log.info("periodic reconciliation", extra=report.summary())


_PROBE_KEY = "eywa:readyz:probe"
"""The key ``RedisProbe`` writes (for a second) to learn whether Redis still takes writes."""
_FULL_MARGIN_BYTES = 64 * 1024
"""How near its ``maxmemory`` (or 1% of it, the larger) a Redis is full: what the buffers of a
few requests move ``used_memory`` by, so that it swings across the limit as requests come."""


class RedisProbe:
    """Reachability and persistence of the Redis at ``url``, for ``/readyz``; each waits at
    most ``timeout_s`` (``EYWA_REDIS_TIMEOUT_S``) for a connect or a command."""

    def __init__(self, url: str, timeout_s: float) -> None:
        self._client = Redis.from_url(url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s)

    def status(self) -> dict[str, Any]:
        """``{"reachable", "full", "persistent", "appendonly", "save"}`` (``{"reachable":
        False, "persistent": None}`` when it does not answer); ``persistent`` is None when the
        server refuses ``CONFIG GET`` (managed Redis often does), ``full`` None when it
        refuses ``INFO memory``.

        ``full``: Redis is at its ``maxmemory`` with the ``noeviction`` policy, so it answers
        PING (the jobs and rate-limit checks pass) and refuses every write: each job's
        wake-up is logged as not queued, the beat's messages are refused too, and the rate
        limiter lets every request through; the writes are still acknowledged and stored
        (the ledger keeps their work) and nothing runs Level 1 until Redis has room again.
        Found probing a 3 MB Redis filled up: ``/readyz`` said ready and said nothing else.
        """
        try:
            self._client.ping()
        except (RedisError, OSError):
            return {"reachable": False, "persistent": None}
        full = self._full()
        try:
            appendonly = str(self._client.config_get("appendonly").get("appendonly", "no"))
            save = str(self._client.config_get("save").get("save", ""))
        except (RedisError, OSError):
            return {"reachable": True, "full": full, "persistent": None}
        aof = appendonly.lower() == "yes"
        return {"reachable": True, "full": full, "persistent": aof or bool(save.strip()), "appendonly": aof, "save": save}

    def _full(self) -> bool | None:
        """Whether Redis refuses writes for want of memory (None: it does not say).

        ``used_memory`` at ``maxmemory`` says so, but Redis refuses a write when its memory is
        over the limit at that moment, and what it reports a moment later may be just under
        it again (the refused requests' buffers freed: seen in a loaded CI run, the rate
        limiter refused while ``INFO`` read a few KB under). So within ``_FULL_MARGIN_BYTES`` of the
        limit is full, and under that a tiny write that expires by itself is tried: its
        out-of-memory refusal is the answer."""
        try:
            memory = self._client.info("memory")
        except (RedisError, OSError):
            return None
        limit = int(memory.get("maxmemory", 0) or 0)
        used = int(memory.get("used_memory", 0) or 0)
        if limit <= 0 or str(memory.get("maxmemory_policy", "")) != "noeviction":
            return False
        if used >= limit - max(_FULL_MARGIN_BYTES, limit // 100):
            return True
        try:
            self._client.set(_PROBE_KEY, b"1", px=1000)
        except ResponseError as exc:
            return "OOM" in str(exc) or "maxmemory" in str(exc)
        except (RedisError, OSError):
            return None
        return False

    def close(self) -> None:
        """Close the connection pool."""
        self._client.close()
