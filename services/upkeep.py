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
from redis.exceptions import RedisError

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
        """Whether Redis refuses writes for want of memory (None: it does not say)."""
        try:
            memory = self._client.info("memory")
        except (RedisError, OSError):
            return None
        limit = int(memory.get("maxmemory", 0) or 0)
        used = int(memory.get("used_memory", 0) or 0)
        return limit > 0 and used >= limit and str(memory.get("maxmemory_policy", "")) == "noeviction"

    def close(self) -> None:
        """Close the connection pool."""
        self._client.close()
