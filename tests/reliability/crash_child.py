"""A child process for the crash tests: remember a batch, and SIGKILL yourself at a commit boundary.

Usage: ``python -m tests.reliability.crash_child DATA_DIR POINT N TURNS [reprocess | rederive | forget SPEAKER
| correct | import FILE | retain NOW | backup DEST]``:
remember TURNS turns (or, with ``reprocess``, reprocess them with ``RulesV2``; with
``rederive``, reprocess a store an older release's Level 0 wrote, seven turns per chunk; with ``forget``,
erase what SPEAKER said from a store that already holds them; with ``correct``, run
``support.correct`` on a store ``support.remember_corrigible`` filled; with ``import``, import the
JSONL export FILE into the empty store; with ``retain``, apply a one-day retention to every space
as of NOW (ISO time); with ``backup``, back the store up into DEST). Before any work it
replaces ``eywa.crashpoints.reached`` (a no-op in production) with a function that kills
this process with SIGKILL the N-th time the write path reaches ``POINT``: no ``finally``, no
flush, no atexit, exactly like a power cut or the OOM killer. It exits 0 if the point was
never reached (the test then fails: a crash point it meant to hit does not exist).

A POINT of the form ``after:MODULE:FUNCTION`` kills the process when the N-th call of that
module-level function returns instead: for steps with no named point inside a transaction
(an import half-written) or in code that names none (a backup's file copies).
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


def kill_after_call(target: str, occurrence: int) -> None:
    """Wrap ``MODULE:FUNCTION`` so that its ``occurrence``-th call SIGKILLs the process as it
    returns (the module calls it through its globals, so the wrapper is what it calls)."""
    import importlib

    module_name, name = target.split(":")
    module = importlib.import_module(module_name)
    original = getattr(module, name)
    calls = 0

    def wrapped(*args: object, **kwargs: object) -> object:
        nonlocal calls
        result = original(*args, **kwargs)
        calls += 1
        if calls == occurrence:
            os.kill(os.getpid(), signal.SIGKILL)
        return result

    setattr(module, name, wrapped)


def main() -> None:
    directory, point, occurrence, turns = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    if point.startswith("after:"):
        kill_after_call(point.removeprefix("after:"), occurrence)
    elif point not in CRASH_POINTS:
        raise SystemExit(f"unknown crash point {point!r}")
    else:
        kill_at(point, occurrence)  # ``in CRASH_POINTS`` narrowed ``point`` to a CrashPoint
    from tests.reliability.support import SPACE, RulesV2, Slips, correct, corpus, open_memory, targets

    mode = sys.argv[5:6]
    if mode == ["correct"]:
        with open_memory(directory, extractor=Slips()) as mem:
            correct(mem, targets(mem))
        return
    if mode == ["import"]:
        with open_memory(directory) as mem:
            mem.import_space(SPACE, Path(sys.argv[6]).read_text().splitlines(), wait=True)
        return
    if mode == ["retain"]:
        with open_memory(directory) as mem:
            mem.apply_retention({"*": 1.0}, now=sys.argv[6])
        return
    if mode == ["backup"]:
        with open_memory(directory) as mem:
            mem.backup(sys.argv[6])
        return

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
