"""The erasure aggregate: what an erasure selects, the record it leaves, and the store steps.

An erasure (``eywa.erasure``) removes turns and everything derived from them. The store's
part is split so that every step is one transaction and safe to repeat:

1. ``ErasureStore.begin`` — in ONE transaction: the erasure record (state ``pending``, with
   one keyed hash per erased turn), the tombstones of the erased ids (a re-sent turn is
   refused, queued work for it does nothing), the turns themselves with their signals,
   mentions and keyword rows, the keyword context of the turns around them rebuilt by the
   shared builder (``eywa.stores.context``), co-mention weights taken back, entities left
   without mentions removed, and ``embed_evidence`` marks for the erased ids (their vectors
   go) and for the turns next to them (the vectors of the turn before and the turn after
   an erased one hold its text: ``eywa.stores.context.vector_windows``; they are rebuilt). From its commit, no keyword search, evidence lookup or hydration can return the
   erased text.
2. the cascade (outside the store): beliefs and candidates citing the turns, deltas and
   dimension replay, vectors — each idempotent.
3. ``ErasureStore.release`` deletes the bookkeeping the erased turns left without a use:
   sessions without turns and, once the space holds no turn (a drop), its jobs, usage and
   backlog counters and space node; then ``ErasureStore.finish`` marks the record ``done``
   with its counts. What stays of an erased space is its audit trail alone: the erasure
   records, the tombstones and the correction records (reasons cleared); ``remains``
   lists everything else still carrying the space.

The record never holds content: only ids (already kept by the tombstones) and
``content_mac`` = HMAC-SHA256(secret, ``content_hash``) per turn. The secret is per
deployment (``secret()``), so a short turn cannot be confirmed by hashing guesses without it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Literal, Protocol

from eywa.models import Frozen

__all__ = [
    "ErasedTurn",
    "ErasureRecord",
    "ErasureSelector",
    "ErasureState",
    "ErasureStore",
]

ErasureState = Literal["pending", "done"]


class ErasureSelector(Frozen):
    """Which turns of a space to erase; the given fields combine with AND.

    ``speaker`` selects the turns that speaker said; ``before`` compares ``observed_at``;
    ``recorded_before`` compares ``recorded_at`` (retention uses it).
    """

    evidence_ids: tuple[str, ...] | None = None
    external_ids: tuple[str, ...] | None = None
    speaker: str | None = None
    session: str | None = None
    before: datetime | None = None
    recorded_before: datetime | None = None

    @property
    def empty(self) -> bool:
        """True when no field is given (such a selector would select the whole space)."""
        return all(
            value is None
            for value in (
                self.evidence_ids, self.external_ids, self.speaker, self.session, self.before, self.recorded_before,
            )
        )  # fmt: skip


class ErasedTurn(Frozen):
    """One erased turn as the record keeps it: its id and the keyed hash of its content."""

    evidence_id: str
    content_mac: str


class ErasureRecord(Frozen):
    """Who erased what and when, and how far the cascade got. Never holds content."""

    id: str
    space: str
    at: datetime
    author: str | None
    selector: ErasureSelector
    state: ErasureState
    turns: tuple[ErasedTurn, ...] = ()
    belief_ids: tuple[str, ...] = ()
    candidate_ids: tuple[str, ...] = ()
    counts: dict[str, int] = {}
    done_at: datetime | None = None


class ErasureStore(Protocol):
    """The store steps of an erasure (see the module docstring). Every method is idempotent."""

    def secret(self) -> bytes:
        """The per-deployment HMAC secret, created on first use and kept beside the store."""
        ...

    def select(self, space: str, selector: ErasureSelector) -> list[str]:
        """Ids of the stored turns of ``space`` matching every given field of ``selector``."""
        ...

    def content_hashes(self, space: str, evidence_ids: Sequence[str] | None = None) -> dict[str, str]:
        """Evidence id -> ``content_hash`` of the stored turns (of ``evidence_ids`` when given)."""
        ...

    def begin(self, record: ErasureRecord) -> dict[str, int]:
        """Step 1 in one transaction (module docstring); returns counts per kind removed
        (``turns``, ``signals``, ``mentions``, ``entities``). Repeating it removes nothing more."""
        ...

    def progress(self, erasure_id: str, counts: Mapping[str, int]) -> None:
        """Keep the counts a ``pending`` erasure has reached (after step 1, after step 2), so
        that one resumed after a crash reports what the interrupted run removed, not only what
        was left to remove. A ``done`` record is left as it is."""
        ...

    def finish(self, erasure_id: str, counts: Mapping[str, int], at: datetime) -> None:
        """Mark the erasure ``done`` with its final counts."""
        ...

    def release(self, space: str) -> int:
        """Delete the bookkeeping of ``space`` nothing uses any more (module docstring, step
        3): sessions without turns, and once the space holds no turn, its jobs, counters and
        space node. A turn written meanwhile keeps what it needs. Returns how many items
        went; repeating it deletes nothing more."""
        ...

    def remains(self, space: str) -> dict[str, int]:
        """Items per kind the store still holds of ``space`` besides its audit trail (erasure
        records, tombstones, correction records, the access log): ``turns``, ``beliefs``,
        ``jobs``, … (a kind both backends keep has one name), kinds holding none left out;
        empty after a drop. Reads each kind's index or table once: for audits and tests."""
        ...

    def scrub(self) -> bool:
        """Remove, where the backend can, the copies of erased content its files still hold
        after the rows are deleted (embedded: keyword index segments merged, WAL checkpointed
        and truncated; Neo4j: nothing it can do, README "Erasure"). Idempotent; returns
        whether it completed (False: a later scrub or the store's close finishes it)."""
        ...

    def atomic(self) -> AbstractContextManager[None]:
        """A scope in which the graph stores' writes commit together where the backend can
        (the embedded stores share one SQLite connection: one transaction for the turns, the
        beliefs and the dimension replay); a no-op scope where each write is its own
        transaction (Neo4j), whose steps are each idempotent instead."""
        ...

    def get(self, erasure_id: str) -> ErasureRecord | None:
        """The record (with its erased turns), or None."""
        ...

    def erasures(self, space: str | None = None, state: ErasureState | None = None) -> list[ErasureRecord]:
        """Records (of one space, in one state, when given), oldest first."""
        ...
