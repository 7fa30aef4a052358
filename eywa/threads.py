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
"""

from __future__ import annotations

import logging
import os
import sys
import threading

__all__ = ["current_nice", "lower_priority"]

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
