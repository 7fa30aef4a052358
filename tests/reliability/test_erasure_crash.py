"""Crash injection inside an erasure: a child process erases a speaker from a stored corpus and
is SIGKILLed at each step boundary of the cascade (``eywa.crashpoints``: after the turns went,
after the dimension replay, after the beliefs went, after the vectors were rebuilt). On the
embedded store the turns, beliefs and dimension replay are one transaction, so a kill before
its commit leaves nothing erased (no record, every turn there) and re-running the erasure
finishes it; a kill after it leaves a ``pending`` record that the reconciler finishes on
open. Either way the result equals an uninterrupted erasure and the proof shows zero residue.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.reliability.support import SPACE, open_memory, snapshot, store_corpus
from tests.reliability.test_crash_recovery import TURNS, crash

SPEAKER = "Greta"
POINTS = ["erasure_begun", "erasure_dimensions_replayed", "erasure_beliefs_removed", "erasure_vectors_rebuilt"]
IN_TRANSACTION = {"erasure_begun", "erasure_dimensions_replayed", "erasure_beliefs_removed"}  # embedded


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding the corpus, copied for each crash."""
    return store_corpus(tmp_path_factory, TURNS)


@pytest.fixture(scope="module")
def clean(stored: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    directory = tmp_path_factory.mktemp("clean") / "mem"
    shutil.copytree(stored, directory)
    with open_memory(directory) as mem:
        report = mem.forget(SPACE, speaker=SPEAKER)
        assert report.counts["turns"] == 40 and report.counts["beliefs"] > 0
        assert mem.erasure_proof(SPACE, report.erasure_id).total == 0
        return snapshot(mem)


@pytest.mark.parametrize("point", POINTS)
def test_an_interrupted_erasure_finishes_on_open(tmp_path: Path, stored: Path, clean: dict[str, Any], point: str) -> None:
    directory = tmp_path / "mem"
    shutil.copytree(stored, directory)
    crash(directory, point, 1, "forget", SPEAKER)
    with open_memory(directory) as mem:
        mem.wait()
        records = mem.erasures(SPACE)
        if point in IN_TRANSACTION:  # rolled back whole: nothing erased, so erase again
            assert records == [] and mem.stats(SPACE)["evidence"] == TURNS
            records = [mem.erasures(SPACE)[0] for _ in [mem.forget(SPACE, speaker=SPEAKER)]]
        (record,) = records
        assert mem.erasures(SPACE)[0].state == "done"
        proof = mem.erasure_proof(SPACE, record.id)
        assert proof.turns == 40 and proof.total == 0, proof.residue
        assert snapshot(mem) == clean
