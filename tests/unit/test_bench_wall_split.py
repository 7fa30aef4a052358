"""``eywa bench latency`` splits the asking thread's wall time with the scheduler's account:
CPU, waiting for a core, blocked. A sleep is blocked time whatever the load; a busy loop is
CPU time (and, on a loaded machine, waiting for a core), never blocked time."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from eywa.bench.latency import thread_schedstat, wall_split

pytestmark = pytest.mark.skipif(thread_schedstat() is None, reason="no /proc/thread-self/schedstat here")


def _timed(work: Callable[[], None]) -> tuple[float, dict[str, float], float]:
    before, began, cpu = thread_schedstat(), time.perf_counter(), time.thread_time()
    work()
    wall, cpu_ms, after = (time.perf_counter() - began) * 1000.0, (time.thread_time() - cpu) * 1000.0, thread_schedstat()
    assert before is not None and after is not None
    return wall, wall_split(wall, before, after), cpu_ms


def test_a_sleep_is_blocked_time() -> None:
    wall, split, cpu_ms = _timed(lambda: time.sleep(0.2))
    assert split["wait.blocked"] >= 150.0
    assert cpu_ms + split["wait.core"] + split["wait.blocked"] == pytest.approx(wall, abs=5.0)


def test_a_busy_loop_is_cpu_or_waiting_for_a_core_not_blocked() -> None:
    def spin() -> None:
        end = time.thread_time() + 0.2
        while time.thread_time() < end:
            pass

    wall, split, cpu_ms = _timed(spin)
    assert cpu_ms >= 200.0
    assert split["wait.blocked"] <= 0.25 * wall  # preemption is waiting for a core, not blocking
    assert cpu_ms + split["wait.core"] + split["wait.blocked"] == pytest.approx(wall, abs=5.0)


def test_the_split_never_goes_below_zero() -> None:
    # Readings a hair apart can put the scheduler's run time above the wall clock's interval.
    assert wall_split(1.0, (0, 0), (2_000_000, 0)) == {"wait.core": 0.0, "wait.blocked": 0.0}
