"""The stage ledger: what each stored item still owes, job records, and tombstones.

Level 0 is one transaction; everything derived from a turn comes later (its vector, Level 1,
the dimension update, its beliefs' vectors) and may be cut short by a crash, a killed worker
or a lost broker message. So the store records, for every item, which later stages are still
*pending*, written in the same transaction as the item itself:

- ``EvidenceStore.add`` marks each new turn ``embed_evidence``, ``level1`` and ``nous``;
- ``BeliefStore.add`` clears ``level1`` of the turns whose extraction it stores (same
  transaction as the beliefs) and marks each new belief ``embed_belief``;
- a stage that writes elsewhere (vectors) or in several transactions (one per dimension)
  clears its mark after its writes are durable; its writes are idempotent, so a crash in
  between only repeats them.

A reconciler (``eywa.reconcile``) finishes what is pending: on open, on a re-sent batch, in
the workers' beat. Pending marks are found through an index on (stage, due time), never by
scanning the items. ``due_at`` is when a mark may next be picked up by a periodic
reconciler: failures push it back, and a worker that starts on a mark "touches" it so the
beat does not hand the same work to a second worker meanwhile.

Jobs (``JobRecords``) are records in the same store: a job's status is derived from the
marks of its turns, so it survives a broker restart and reads the same on every API replica.

Tombstones (``Tombstones``) record erased turn ids: a tombstoned id is refused by
``EvidenceStore.add`` (``ErasedError``) and pending work for it does nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Final, Literal, Protocol

from eywa.models import Frozen

__all__ = [
    "DERIVED_STAGES",
    "EMBED_STAGES",
    "PENDING_STAGES",
    "TURN_STAGES",
    "JobRecord",
    "JobRecords",
    "MarkReason",
    "PendingMark",
    "PendingStage",
    "SpaceBacklog",
    "StageDone",
    "StageLedger",
    "Tombstones",
]

PendingStage = Literal["embed_evidence", "level1", "nous", "embed_belief"]
PENDING_STAGES: Final[tuple[PendingStage, ...]] = ("embed_evidence", "level1", "nous", "embed_belief")
"""Every stage, in the order a reconciler runs them."""
TURN_STAGES: Final[tuple[PendingStage, ...]] = ("embed_evidence", "level1", "nous")
"""What every new turn owes; ``EvidenceStore.add`` marks them in the Level 0 transaction."""
DERIVED_STAGES: Final[tuple[PendingStage, ...]] = ("level1", "nous")
"""Stages that derive beliefs and dimensions: a turn with one pending is in the Level 1 backlog."""
EMBED_STAGES: Final[tuple[PendingStage, ...]] = ("embed_evidence", "embed_belief")
"""Stages that only the process holding the vector store can finish."""

MarkReason = Literal["new", "reprocess", "embedder", "lost", "signals"]
"""Why a mark exists: a new item, ``eywa reprocess``, a change of embedder, a vector the
vector store lost (found at open: ``eywa.stores.embedded.lost_vectors``), or signals detected
again under a newer ``eywa.signals.version`` that changed (``eywa.rederive``): Level 1 then
replaces what any version of the extractor proposed about the turn, not only another
version's."""


class PendingMark(Frozen):
    """One stage one item still owes. ``item_id`` is an evidence id, or a belief id for
    ``embed_belief``."""

    space: str
    item_id: str
    stage: PendingStage
    reason: MarkReason
    since: datetime
    due_at: datetime
    attempts: int = 0
    error: str | None = None


class StageDone(Frozen):
    """Turns whose Level 1 a ``BeliefStore.add`` completes, and the extractor that did it
    (``name@version``); their ``level1`` marks are cleared in the same transaction."""

    space: str
    evidence_ids: tuple[str, ...]
    done_by: str


class JobRecord(Frozen):
    """A Level 1 job: which turns of which space, submitted when and by whom."""

    id: str
    space: str
    evidence_ids: tuple[str, ...]
    submitted_at: datetime
    author: str | None = None
    request_id: str | None = None


class SpaceBacklog(Frozen):
    """Turns of one space whose later stages are still pending (the recall trace's ``pending``)."""

    embed: int = 0
    """Turns without their vector yet (the vector route cannot find them)."""
    level1: int = 0
    """Turns whose Level 1 or dimension update has not finished."""


class StageLedger(Protocol):
    """Pending marks per (space, item, stage). Every method is idempotent."""

    def pending(
        self, stage: PendingStage, *, limit: int, space: str | None = None, due_before: datetime | None = None
    ) -> list[PendingMark]:
        """Up to ``limit`` marks of ``stage`` (of one space when given) due by ``due_before``
        (any when None), earliest due first; found through an index, never a scan."""
        ...

    def pending_for(self, space: str, item_ids: Sequence[str]) -> list[PendingMark]:
        """The marks of ``item_ids`` of ``space``, any stage."""
        ...

    def mark(
        self, space: str, stage: PendingStage, item_ids: Sequence[str], reason: MarkReason, at: datetime
    ) -> int:
        """Mark items pending (due at once); a mark that exists is kept. Returns marks added."""
        ...

    def complete(self, space: str, stage: PendingStage, item_ids: Sequence[str]) -> int:
        """Clear the marks (the stage is done); returns how many existed."""
        ...

    def touch(self, space: str, stage: PendingStage, item_ids: Sequence[str], due_at: datetime) -> None:
        """Set when the marks are next due (a worker took them; the beat waits until then)."""
        ...

    def fail(
        self, space: str, stage: PendingStage, item_ids: Sequence[str], error: str, due_at: datetime
    ) -> None:
        """Record a failed attempt: one more attempt, the error, and the next due time."""
        ...

    def backlog(self) -> dict[PendingStage, int]:
        """Marks per stage (every stage present, zero included)."""
        ...

    def level1_backlog(self) -> int:
        """Distinct turns with ``level1`` or ``nous`` pending: what Level 1 has yet to finish."""
        ...

    def space_backlog(self, space: str) -> SpaceBacklog:
        """What the turns of ``space`` still owe: not yet embedded, not yet through Level 1
        (``level1`` or ``nous`` pending); counted through the ledger's index on space."""
        ...

    def mark_outdated(self, space: str, done_by: str, at: datetime) -> int:
        """Mark ``level1`` and ``nous`` pending (reason ``reprocess``) for every turn of
        ``space`` whose Level 1 was not done by ``done_by`` (``name@version`` of an
        extractor) and is not pending already. Returns the turns marked."""
        ...

    def embedder(self) -> str | None:
        """The embedder the stored vectors were made with (None: never recorded)."""
        ...

    def switch_embedder(self, embedder_id: str, at: datetime) -> int:
        """Record ``embedder_id`` as the vectors' embedder. When it differs from the
        recorded one, every turn and belief is marked ``embed_*`` (reason ``embedder``) in the
        same transaction; returns the marks added (0 when nothing changed)."""
        ...


class JobRecords(Protocol):
    """Level 1 jobs as records in the store."""

    def add_job(self, job: JobRecord) -> None:
        """Store a job (a job whose id exists is kept)."""
        ...

    def get_job(self, job_id: str) -> JobRecord | None:
        """The job, or None."""
        ...

    def prune_jobs(self, before: datetime) -> int:
        """Delete jobs submitted before ``before``; returns how many."""
        ...


class Tombstones(Protocol):
    """Erased turn ids. The erasure cascade writes them; Level 0 and the reconciler read them."""

    def add_tombstones(self, space: str, evidence_ids: Sequence[str], at: datetime) -> int:
        """Tombstone ids and clear their ``level1``/``nous`` marks in one transaction;
        returns tombstones added."""
        ...

    def tombstoned(self, space: str, evidence_ids: Sequence[str]) -> set[str]:
        """The subset of ``evidence_ids`` that is tombstoned in ``space``."""
        ...
