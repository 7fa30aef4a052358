"""An erasure interrupted between store commits, on every backend: a fault injected at each
step boundary of the cascade (``eywa.crashpoints``, in-process: on Neo4j each step is its own
transaction, so the faults leave the graph half-way between commits), then the memory is
opened again. What the fault left is finished — by the next open for a ``pending`` record,
by running the erasure again when nothing was committed (the embedded store rolls steps 1
and 2 back together) — and the proof shows zero residue with the erased word in no read.

The SIGKILL version of this test (``tests/reliability/test_erasure_crash.py``) runs on the
embedded store; Neo4j is not killed here, the process using it is interrupted.
"""

from __future__ import annotations

import pytest

from eywa import crashpoints
from eywa.crashpoints import CrashPoint
from tests.conformance.conftest import MemoryFactory
from tests.conformance.test_erasure import TURNS, WORD, ScriptedExtractor

POINTS: tuple[CrashPoint, ...] = (
    "erasure_begun", "erasure_dimensions_replayed", "erasure_beliefs_removed", "erasure_vectors_rebuilt",
)  # fmt: skip


class Interrupted(Exception):
    """The injected fault: the process stops at a commit boundary."""


def test_an_erasure_interrupted_between_commits_is_finished(
    open_memory: MemoryFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem = open_memory(ScriptedExtractor())
    for point in POINTS:  # one small space per interruption point
        mem.remember(point, [{**t, "session": f"{point}-{t['session']}"} for t in TURNS], wait=True)

    stop_at: list[CrashPoint] = []

    def reached(point: CrashPoint) -> None:
        if stop_at and point == stop_at[0]:
            raise Interrupted(point)

    monkeypatch.setattr(crashpoints, "reached", reached)
    for point in POINTS:
        stop_at[:] = [point]
        with pytest.raises(Interrupted):
            mem.forget(point, speaker="Bo")
    stop_at.clear()
    mem.close()

    again = open_memory(ScriptedExtractor())  # the open finishes what is pending
    again.wait()
    for point in POINTS:
        records = again.erasures(point)
        if not records:  # nothing was committed: erasing again is the way to finish
            again.forget(point, speaker="Bo")
            records = again.erasures(point)
        (record,) = records
        assert record.state == "done", point
        proof = again.erasure_proof(point, record.id)
        assert proof.turns == 2 and proof.total == 0, (point, proof.residue)
        reads = [again.recall(point, WORD, k=20).context, *(b.statement for b in again.beliefs(point, status=None)),
                 *(str(d.distribution) for d in again.dimensions(point))]  # fmt: skip
        assert not any(WORD in text for text in reads), point
