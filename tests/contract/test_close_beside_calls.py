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
