"""Thread priorities: the stages after Level 0 give the cores to requests.

An API process that acknowledges writes after Level 0 embeds and runs Level 1 on a thread
of its own, beside the threads serving requests, on the same cores. Linux schedules threads,
not processes: the nice value belongs to each thread (``setpriority(PRIO_PROCESS, tid)``
changes that thread alone), and a new thread starts with the nice value of the thread that
created it. So the background thread lowers its own priority (``lower_priority``) and the
request threads keep theirs: when both want a core, the kernel runs the request first, and
the background work takes what is left. Native threads it creates inherit the lowered
priority: onnxruntime's intra-op pool is made with its session, which is why the MiniLM
embedder keeps one session per priority (``current_nice``).

An unprivileged thread may lower its priority but not raise it back (``RLIMIT_NICE``), so
work a caller waits for never runs on a lowered thread (``eywa.reconcile.Reconciler``). Where
the platform has no per-thread priority (not Linux), these functions do nothing.

Nice values share the cores; they do not share a lock. Stage work runs one unit at a time
(``PriorityTurn``), and a plain lock lets the thread that releases it take it straight back:
a caller waiting for its write would wait behind the whole background backlog, not one unit
of it. ``PriorityTurn`` hands the turn to waiting urgent work first, and background work
waits while any is queued.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["PriorityTurn", "current_nice", "lower_priority"]

log = logging.getLogger(__name__)


def _per_thread() -> bool:
    return sys.platform == "linux" and hasattr(os, "setpriority")


def current_nice() -> int:
    """The nice value of the calling thread (0 where priorities are not per thread)."""
    if not _per_thread():
        return 0
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


def lower_priority(nice: int) -> int:
    """Lower the calling thread's priority to ``nice`` (never raise it); returns the nice
    value the thread runs at. A refusal by the system is logged, not raised: the work
    still runs, at the priority it had."""
    if nice <= 0 or not _per_thread():
        return current_nice()
    tid = threading.get_native_id()
    try:
        if os.getpriority(os.PRIO_PROCESS, tid) < nice:
            os.setpriority(os.PRIO_PROCESS, tid, nice)
    except OSError as exc:
        log.warning("cannot lower the priority of thread %s to nice %d: %s", tid, nice, exc)
    return os.getpriority(os.PRIO_PROCESS, tid)


class PriorityTurn:
    """A lock whose waiting urgent holders go before any background one.

    ``hold(urgent=True)`` waits only for the current holder; ``hold(urgent=False)`` also
    waits while urgent holders are queued, so background work split into small units
    yields between two of them to every caller that started waiting meanwhile. Not
    re-entrant.
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._held = False
        self._urgent_waiting = 0

    @property
    def urgent_waiting(self) -> int:
        """Urgent holders waiting for the turn now (for monitoring and tests)."""
        with self._cond:
            return self._urgent_waiting

    @contextmanager
    def hold(self, *, urgent: bool) -> Iterator[None]:
        """Hold the turn for the block; urgent holders first (see the class docstring)."""
        with self._cond:
            if urgent:
                self._urgent_waiting += 1
                try:
                    self._cond.wait_for(lambda: not self._held)
                finally:
                    self._urgent_waiting -= 1
            else:
                self._cond.wait_for(lambda: not self._held and not self._urgent_waiting)
            self._held = True
        try:
            yield
        finally:
            with self._cond:
                self._held = False
                self._cond.notify_all()
