"""A memory closed while other threads call it answers them with ``ClosedError``.

README, the input contract: "Nothing raised to a caller comes from below", and ``close``
says "further calls raise ``ClosedError``". ``close`` joins the reconciler's threads before
it marks the memory closed, so a call that passed the open check meanwhile met the shut-down
pool's ``RuntimeError`` ("cannot schedule new futures after shutdown"): found by probing
(s30), about one call in thirty beside a close, from ``remember``, ``forget`` and
``export_space``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from eywa import Memory
from eywa.errors import ClosedError
from tests.contract.conftest import open_memory


def test_calls_beside_a_close_end_in_closed_error_only(tmp_path: Path) -> None:
    memory = open_memory(tmp_path / "mem")
    memory.remember("s", [{"text": f"I live in Porto, street {i}.", "speaker": "Ana"} for i in range(20)])
    calls: list[Callable[[Memory, int], object]] = [
        lambda m, i: m.remember("s", [{"text": f"I moved to Lyon, day {i}.", "speaker": "Ana"}]),
        lambda m, i: m.forget("s", speaker="Nobody"),
        lambda m, i: list(m.export_space("s")),
        lambda m, i: m.recall("s", "Where does Ana live?"),
    ]
    stop = threading.Event()
    other: list[BaseException] = []
    refused = [0]

    def loop(call: Callable[[Memory, int], object]) -> None:
        i = 0
        while not stop.is_set():
            i += 1
            try:
                call(memory, i)
            except ClosedError:
                refused[0] += 1
            except BaseException as exc:  # noqa: BLE001 - the test reports it
                other.append(exc)
                return

    threads = [threading.Thread(target=loop, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    memory.close()
    time.sleep(0.3)
    stop.set()
    for thread in threads:
        thread.join()
    assert other == [], [f"{type(e).__name__}: {e}" for e in other]
    assert refused[0] > 0


def test_close_lets_a_call_in_progress_finish_and_refuses_the_next(tmp_path: Path) -> None:
    """README, "Shared by threads": a call in progress in another thread finishes before the
    stores close (closing a SQLite reader under a query crashed the process)."""
    memory = open_memory(tmp_path / "mem")
    entered, release = threading.Event(), threading.Event()

    def held(done: int) -> None:  # ``remember``'s progress callback: the call is in progress
        entered.set()
        release.wait(10)

    stored: list[list[str]] = []
    writer = threading.Thread(target=lambda: stored.append(
        memory.remember("s", [{"text": "I live in Porto.", "speaker": "Ana"}], progress=held)))
    writer.start()
    assert entered.wait(10)
    closer = threading.Thread(target=memory.close)
    closer.start()
    closer.join(0.5)
    assert closer.is_alive()  # waiting for the write in progress
    release.set()
    writer.join(10)
    closer.join(10)
    assert not closer.is_alive() and len(stored) == 1 and len(stored[0]) == 1
    with pytest.raises(ClosedError):
        memory.recall("s", "Where does Ana live?")
    with open_memory(tmp_path / "mem") as reopened:  # the write that finished is kept
        assert reopened.stats("s")["evidence"] == 1
