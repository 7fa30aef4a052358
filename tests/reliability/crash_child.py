"""A child process for the crash tests: remember a batch, and SIGKILL yourself at a commit boundary.

Usage: ``python -m tests.reliability.crash_child DATA_DIR POINT N TURNS [reprocess | rederive | forget SPEAKER]``:
remember TURNS turns (or, with ``reprocess``, reprocess them with ``RulesV2``; with
``rederive``, reprocess a store an older release's Level 0 wrote, seven turns per chunk; with ``forget``,
erase what SPEAKER said from a store that already holds them). Before any work it
replaces ``eywa.crashpoints.reached`` (a no-op in production) with a function that kills
this process with SIGKILL the N-th time the write path reaches ``POINT``: no ``finally``, no
flush, no atexit, exactly like a power cut or the OOM killer. It exits 0 if the point was
never reached (the test then fails: a crash point it meant to hit does not exist).
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import eywa.crashpoints
from eywa.crashpoints import CRASH_POINTS, CrashPoint


def kill_at(at: CrashPoint, occurrence: int) -> None:
    seen = 0

    def reached(point: CrashPoint) -> None:  # named as eywa.crashpoints.reached's parameter
        nonlocal seen
        if point == at:
            seen += 1
            if seen == occurrence:
                os.kill(os.getpid(), signal.SIGKILL)

    eywa.crashpoints.reached = reached


def main() -> None:
    directory, point, occurrence, turns = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    if point not in CRASH_POINTS:
        raise SystemExit(f"unknown crash point {point!r}")
    kill_at(point, occurrence)  # ``in CRASH_POINTS`` narrowed ``point`` to a CrashPoint
    from tests.reliability.support import SPACE, RulesV2, corpus, open_memory

    if sys.argv[5:6] == ["forget"]:
        with open_memory(directory) as mem:
            mem.forget(SPACE, speaker=sys.argv[6])
        return
    if sys.argv[5:] == ["rederive"]:  # the signals of an older release, a few turns per chunk
        import eywa.rederive

        eywa.rederive.CHUNK = 7
        with open_memory(directory) as mem:
            mem.reprocess(SPACE)
        return
    if sys.argv[5:] == ["reprocess"]:
        with open_memory(directory, extractor=RulesV2()) as mem:
            mem.reprocess(SPACE)
        return
    with open_memory(directory) as mem:
        mem.remember(SPACE, corpus(turns))


if __name__ == "__main__":
    main()
