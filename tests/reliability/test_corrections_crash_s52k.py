"""Crash injection in corrections and identity merges: a child process makes six corrections
(``support.correct``: retract a belief, confirm one, accept a refused candidate, dismiss
another, merge two entities, undo the merge) and is SIGKILLed right after the commit of one of
them (``correction_recorded`` / ``merge_recorded``), before its answer reaches the caller. The
parent reopens the store and sends all six again, as a client that lost the answer does. The
corrections made before the crash answer with their records (none is made twice: a second
confirmation would raise the reliability again), the rest are made, and the result equals a
clean run: beliefs, candidates, dimensions and deltas, vectors, records and merges.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.reliability.support import SPACE, Slips, correct, corrected, open_memory, remember_corrigible, targets
from tests.reliability.test_crash_recovery import TURNS, crash

CRASHES = [*(("correction_recorded", n) for n in range(1, 5)), ("merge_recorded", 1), ("merge_recorded", 2)]


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A store holding what ``correct`` corrects, copied for each crash, and its targets."""
    directory = tmp_path_factory.mktemp("stored") / "mem"
    with open_memory(directory, extractor=Slips()) as mem:
        remember_corrigible(mem, TURNS)
        return directory, targets(mem)


@pytest.fixture(scope="module")
def clean(stored: tuple[Path, dict[str, str]], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    directory = tmp_path_factory.mktemp("clean") / "mem"
    shutil.copytree(stored[0], directory)
    with open_memory(directory, extractor=Slips()) as mem:
        correct(mem, stored[1])
        mem.reconcile(SPACE)
        found = corrected(mem)
    assert [c[0] for c in found["corrections"]] == [
        "retract_belief", "confirm_belief", "accept_candidate", "dismiss_candidate"]  # fmt: skip
    assert found["merges"] == [("priya", "priyah", 0.9, "key_3", False, "key_3")]
    return found


@pytest.mark.parametrize(("point", "occurrence"), CRASHES, ids=[f"{p}-{n}" for p, n in CRASHES])
def test_corrections_killed_after_a_commit_then_sent_again_equal_a_clean_run(
    tmp_path: Path, stored: tuple[Path, dict[str, str]], clean: dict[str, Any], point: str, occurrence: int
) -> None:
    directory = tmp_path / "mem"
    shutil.copytree(stored[0], directory)
    crash(directory, point, occurrence, "correct")
    with open_memory(directory, extractor=Slips()) as mem:
        before = [c.id for c in mem.corrections(SPACE)]
        assert len(before) == min(occurrence if point == "correction_recorded" else 4, 4)
        correct(mem, stored[1])  # the client's retry of every call
        mem.reconcile(SPACE)
        assert [c.id for c in mem.corrections(SPACE)][: len(before)] == before  # answered, not made again
        assert corrected(mem) == clean
