"""Crash injection in ``import_space``: a child process restores a space from its JSONL export
and is SIGKILLed half-way through the write (after the turns, before the beliefs: inside the
one transaction of the embedded store), or after the write's commit while the imported turns
and beliefs are embedded. The parent reopens the store and sends the same import again, as a
client that lost the answer does. Killed inside the transaction, nothing was written and the
retry imports the whole export; killed after it, the retry is answered ``already_imported``
and writes nothing. Either way the space equals a clean import: every record an export of it
gives, beliefs, dimensions, deltas, vectors, an empty backlog, and its erasure proof.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from eywa.portability import record_json
from tests.reliability.support import SPACE, Slips, correct, open_memory, remember_corrigible, snapshot, targets
from tests.reliability.test_crash_recovery import TURNS, crash

# (point, occurrence, whether the import's write committed before the kill)
CRASHES = [
    ("after:eywa.portability.restore:_keep_signals_versions", 1, False),  # the turns written, not the rest
    ("evidence_vectors_upserted", 1, True),
    ("belief_vectors_upserted", 1, True),
]


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The JSONL export of a space with corrections, a merge and an erasure in it."""
    directory = tmp_path_factory.mktemp("source") / "mem"
    with open_memory(directory, extractor=Slips()) as mem:
        remember_corrigible(mem, TURNS)
        correct(mem, targets(mem))
        mem.accept_merge(SPACE, "Priya", "Priyah", author="key_3")
        mem.forget(SPACE, speaker="Greta")
        lines = [record_json(r) for r in mem.export_space(SPACE)]
    path = directory.parent / "export.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def imported(mem: Any) -> dict[str, Any]:
    """``snapshot`` with every record an export of the space gives (its header left out: it
    holds the time of the export) and the proof of each erasure record it holds, after a
    reconciliation pass (an import leaves its erasures' marks to one: see the last test)."""
    mem.wait()
    mem.reconcile()
    return {
        **snapshot(mem),
        "export": sorted(record_json(r) for r in list(mem.export_space(SPACE))[1:]),
        "proofs": [mem.erasure_proof(SPACE, e.id).total for e in mem.erasures(SPACE)],
    }


@pytest.fixture(scope="module")
def clean(export: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    with open_memory(tmp_path_factory.mktemp("clean") / "mem") as mem:
        report = mem.import_space(SPACE, export.read_text().splitlines(), wait=True)
        assert report.counts["turn"] > 150 and report.counts["erasure"] == 1 and not report.already_imported
        found = imported(mem)
    assert found["proofs"] == [0] and found["backlog"]["level1_backlog"] == 0
    return found


@pytest.mark.parametrize(("point", "occurrence", "committed"), CRASHES, ids=[p.split(":")[-1] for p, _, _ in CRASHES])
def test_an_import_killed_then_sent_again_equals_a_clean_import(
    tmp_path: Path, export: Path, clean: dict[str, Any], point: str, occurrence: int, committed: bool
) -> None:
    directory = tmp_path / "mem"
    crash(directory, point, occurrence, "import", str(export))
    with open_memory(directory) as mem:
        assert (mem.stats(SPACE)["evidence"] > 0) == committed  # all of the write or none of it
        report = mem.import_space(SPACE, export.read_text().splitlines(), wait=True)  # the client's retry
        assert report.already_imported == committed
        assert imported(mem) == clean


def test_an_imported_erasure_proves_zero_residue_as_the_import_returns(tmp_path: Path, export: Path) -> None:
    """Not a crash: a clean import's erasure record showed 40 ``pending`` residue (and the
    backlog 40 ``embed_evidence`` marks of turns that do not exist) until a later pass: the
    import now clears the marks ``begin`` makes for a record already done."""
    with open_memory(tmp_path / "mem") as mem:
        mem.import_space(SPACE, export.read_text().splitlines(), wait=True)
        mem.wait()
        (record,) = mem.erasures(SPACE)
        assert mem.erasure_proof(SPACE, record.id).total == 0
        assert mem.backlog()["embed_evidence"] == 0
