"""An API write's Level 1 job is committed with its Level 0 batch (README "Server backends",
issue #14's acknowledgement path): ``Memory.remember_job`` hands the job to
``EvidenceStore.add(..., job=)``, which stores it in the batch's own transaction.

Before, the job was a second transaction after Level 0's commit: on Neo4j one more pooled
connection, liveness check, statement and commit on every acknowledged write, and a crash
between the two left stored turns with no job (``GET /v1/jobs/{id}`` of an id the caller
never received, the reconciler still owing the turns' work from the ledger).
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from eywa import Memory, crashpoints
from eywa.crashpoints import CrashPoint
from eywa.errors import ErasedError
from eywa.stores.ledger import JobRecord

TURNS = [
    {"text": "Ana adopted a kitten called Miso.", "speaker": "Ana", "session": "s", "external_id": "t1"},
    {"text": "Ben took Miso to the vet.", "speaker": "Ben", "session": "s", "external_id": "t2"},
]


class Crash(Exception):
    """Stands for the process dying at a crash point."""


def _fixed_job_id(monkeypatch: pytest.MonkeyPatch, hex_id: str) -> str:
    """Make the next job ids ``job_<hex_id>`` (so a test can look up a job it never got)."""
    monkeypatch.setattr(uuid, "uuid4", lambda: uuid.UUID(hex_id))
    return f"job_{hex_id}"


def test_a_crash_right_after_level0_leaves_the_job_recorded(memory: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Level 0 and the job commit together: when the process dies right after Level 0's
    commit (before the answer), the job is there with the batch's turns."""
    job_id = _fixed_job_id(monkeypatch, "0" * 31 + "1")

    def crash(point: CrashPoint) -> None:
        if point == "level0_committed":
            raise Crash(point)

    monkeypatch.setattr(crashpoints, "reached", crash)
    with pytest.raises(Crash):
        memory.remember_job("crash", TURNS, author="key-1", wait=False)
    monkeypatch.undo()
    record = memory._stores.jobs.get_job(job_id)  # noqa: SLF001 - the store is what is checked
    assert isinstance(record, JobRecord)  # before: None, the job's transaction never ran
    stored = memory._stores.evidence.ids("crash")  # noqa: SLF001
    assert len(stored) == 2 and list(record.evidence_ids) == stored
    assert (record.space, record.author) == ("crash", "key-1")


def test_a_resent_batch_records_its_job_and_a_refused_one_none(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch whose turns are all stored already still gets its job (no Level 0 write, the
    job alone); a batch refused because a turn is erased commits neither turns nor job."""
    ids, first = memory.remember_job("again", TURNS, author="k", wait=False)
    memory.wait()
    again, resent = memory.remember_job("again", TURNS, author="k", wait=False)
    assert again == ids and resent.id != first.id
    record: Any = memory._stores.jobs.get_job(resent.id)  # noqa: SLF001
    assert record is not None and list(record.evidence_ids) == ids
    memory.forget("again", evidence_ids=[ids[0]])
    job_id = _fixed_job_id(monkeypatch, "0" * 31 + "2")
    with pytest.raises(ErasedError):
        memory.remember_job("again", TURNS[:1], author="k", wait=False)
    assert memory._stores.jobs.get_job(job_id) is None  # noqa: SLF001
