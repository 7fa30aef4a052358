"""The services' side of the access log: a buffer that writes events in batches and prunes.

The HTTP API and the MCP server call :meth:`AccessRecorder.add` once per call; events are
written to the backend's ``AccessLog`` (``eywa.stores.access``) in batches: by the caller
that fills a batch of 64 (``add`` says so, and the caller flushes off the event loop), else
by a timer a second after the first event of the batch, so an idle server's last calls
reach the log too. ``close`` writes what is left (the services call it on shutdown). Events
older than the retention are pruned at most once an hour. A failing write is logged and
counted and its batch dropped: the access log never fails the call it describes.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta

from eywa.errors import EywaError
from eywa.models import utc_now
from eywa.stores.access import AccessEvent, AccessLog

__all__ = ["AccessRecorder"]

_log = logging.getLogger("eywa.access")
BATCH = 64
MAX_WAIT_S = 1.0
"""The longest an event waits in the buffer."""
PRUNE_EVERY_S = 3600.0


class AccessRecorder:
    """Buffers access events for one ``AccessLog``; thread-safe.

    Args:
        log: where events go (the memory's ``access_log``).
        retention: events older than this are pruned; ``None`` keeps them all.
        on_error: called with each write failure (a metric), after it is logged.
    """

    def __init__(
        self,
        log: AccessLog,
        retention: timedelta | None,
        *,
        on_error: Callable[[EywaError], None] = lambda exc: None,
        monotonic: Callable[[], float] = time.monotonic,
        now: Callable[[], datetime] = utc_now,
    ) -> None:
        self._log = log
        self._retention = retention
        self._on_error = on_error
        self._monotonic = monotonic
        self._now = now
        self._pending: list[AccessEvent] = []
        self._timer: threading.Timer | None = None
        self._pruned_at: float | None = None
        self._lock = threading.Lock()
        self._writing = threading.Lock()

    def add(self, event: AccessEvent) -> bool:
        """Buffer ``event``; True when a full batch is due and the caller should ``flush``."""
        with self._lock:
            if not self._pending and self._timer is None:
                self._timer = threading.Timer(MAX_WAIT_S, self.flush)
                self._timer.daemon = True
                self._timer.start()
            self._pending.append(event)
            return len(self._pending) >= BATCH

    def close(self) -> None:
        """Stop the timer and write what is left."""
        with self._lock:
            timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()
        self.flush()

    def flush(self) -> None:
        """Write what is buffered (and prune, when an hour has passed since the last time)."""
        with self._writing:
            with self._lock:
                batch, self._pending = self._pending, []
                self._timer = None
            if not batch:
                return
            try:
                self._log.record(batch)
                self._prune_if_due()
            except EywaError as exc:
                _log.warning("access log: %d events dropped: %s", len(batch), exc)
                self._on_error(exc)

    def _prune_if_due(self) -> None:
        clock = self._monotonic()
        if self._retention is None or (self._pruned_at is not None and clock - self._pruned_at < PRUNE_EVERY_S):
            return
        self._pruned_at = clock
        removed = self._log.prune(self._now() - self._retention)
        if removed:
            _log.info("access log: %d events older than %s pruned", removed, self._retention)
