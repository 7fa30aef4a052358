"""The service benchmark's CPU reading: ``/proc/<pid>/stat`` of a process and its children."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from eywa.bench.service_stack import process_cpu_seconds

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="needs Linux /proc")


def test_reads_this_process_cpu_as_it_grows() -> None:
    before = process_cpu_seconds(os.getpid())
    started = time.process_time()
    while time.process_time() - started < 0.3:  # burn 0.3 s of CPU
        pass
    spent = process_cpu_seconds(os.getpid()) - before
    assert 0.2 <= spent <= 2.0  # clock ticks are 10 ms; other threads may add a little


def test_children_count_only_when_asked() -> None:
    burner = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.4: pass\ntime.sleep(30)"
    parent = subprocess.Popen(
        [sys.executable, "-c", f"import subprocess, sys; subprocess.run([sys.executable, '-c', {burner!r}])"],
        start_new_session=True,  # its own process group: the child is killed with it
    )
    try:
        deadline = time.monotonic() + 20
        while process_cpu_seconds(parent.pid, children=True) - process_cpu_seconds(parent.pid) < 0.3:
            assert time.monotonic() < deadline, "the child's CPU never showed"
            time.sleep(0.1)
    finally:
        os.killpg(parent.pid, signal.SIGKILL)
        parent.wait()
    with pytest.raises(OSError):
        process_cpu_seconds(parent.pid)  # reaped: no /proc entry
