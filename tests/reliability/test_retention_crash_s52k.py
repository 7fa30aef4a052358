"""Crash injection in a retention sweep: ``apply_retention`` erases, space by space, the turns
recorded before each space's cutoff, one erasure (author ``retention``) per space. A child
process runs the sweep over two spaces and is SIGKILLed inside the first space's erasure,
between the two, or inside the second's. The parent reopens the store (the reconciler
finishes an erasure the kill left ``pending``) and runs the same sweep again, as the next
scheduled run does. The result equals an uninterrupted sweep: one record per space, each
``done`` and proving zero residue, and both spaces as a clean run leaves them.
"""

from __future__ import annotations

import shutil
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from eywa.models import utc_now
from tests.reliability.support import SPACE, corpus, open_memory, snapshot
from tests.reliability.test_crash_recovery import TURNS, crash

OTHER = "crash-b"
# (point, occurrence): the first space's graph part rolled back whole; its vectors rebuilt but
# its record not yet done; the first space done and the second's graph part rolled back; the
# second's vectors rebuilt but its record not yet done.
CRASHES = [
    ("erasure_begun", 1),
    ("erasure_vectors_rebuilt", 1),
    ("erasure_begun", 2),
    ("erasure_vectors_rebuilt", 2),
]


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, datetime]:
    """Two spaces, each remembered in two batches a moment apart, and the sweep's ``now``:
    one day after the moment between them, so a one-day period erases the first batches."""
    directory = tmp_path_factory.mktemp("stored") / "mem"
    first, other = corpus(TURNS), corpus(60, seed=5)
    with open_memory(directory) as mem:
        mem.remember(SPACE, first[:120])
        mem.remember(OTHER, other[:30])
        time.sleep(0.05)
        between = utc_now()
        time.sleep(0.05)
        mem.remember(SPACE, first[120:])
        mem.remember(OTHER, other[30:])
    return directory, between + timedelta(days=1)


def swept(mem: Any) -> dict[str, Any]:
    """Both spaces' ``snapshot``, their erasure records (ids and times left out) and proofs."""
    return {
        space: {
            **snapshot(mem, space),
            "erasures": [(e.author, e.selector, e.state, len(e.turns), e.counts) for e in mem.erasures(space)],
            "proofs": [mem.erasure_proof(space, e.id).total for e in mem.erasures(space)],
        }
        for space in (SPACE, OTHER)
    }


@pytest.fixture(scope="module")
def clean(stored: tuple[Path, datetime], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    directory = tmp_path_factory.mktemp("clean") / "mem"
    shutil.copytree(stored[0], directory)
    with open_memory(directory) as mem:
        reports = mem.apply_retention({"*": 1.0}, now=stored[1])
        assert [(r.space, r.counts["turns"]) for r in reports] == [(SPACE, 120), (OTHER, 30)]
        found = swept(mem)
    assert all(found[s]["proofs"] == [0] and found[s]["erasures"][0][2] == "done" for s in found)
    return found


@pytest.mark.parametrize(("point", "occurrence"), CRASHES, ids=[f"{p}-{n}" for p, n in CRASHES])
def test_a_retention_sweep_killed_then_run_again_equals_a_clean_sweep(
    tmp_path: Path, stored: tuple[Path, datetime], clean: dict[str, Any], point: str, occurrence: int
) -> None:
    directory = tmp_path / "mem"
    shutil.copytree(stored[0], directory)
    crash(directory, point, occurrence, "retain", stored[1].isoformat())
    with open_memory(directory) as mem:
        mem.wait()
        mem.apply_retention({"*": 1.0}, now=stored[1])  # the next run of the sweep
        assert swept(mem) == clean


def test_a_forget_finished_on_open_records_the_counts_of_a_clean_one(
    tmp_path: Path, stored: tuple[Path, datetime]
) -> None:
    """The record of an erasure the reconciler finished counts what the killed run removed
    (turns, signals, beliefs, deltas…), not only the vectors left to it: it counted zero
    turns and zero beliefs, as though the erasure had found nothing."""
    clean, directory = tmp_path / "clean", tmp_path / "mem"
    shutil.copytree(stored[0], clean)
    shutil.copytree(stored[0], directory)
    with open_memory(clean) as mem:
        expected = mem.forget(SPACE, speaker="Greta").counts
    assert expected["turns"] > 0 and expected["beliefs"] > 0 and expected["deltas"] > 0
    crash(directory, "erasure_vectors_rebuilt", 1, "forget", "Greta")
    with open_memory(directory) as mem:
        (record,) = mem.erasures(SPACE)
        assert record.state == "done" and record.counts == expected
        assert mem.forget(SPACE, speaker="Greta").counts == expected  # the client's retry, answered by it
