"""Group commit on Neo4j: Level 0 batches written at the same moment share one transaction.

Why: every acknowledged API write is one Level 0 transaction, and under concurrent agents
the commit was the largest part of a write's time (session 38, 16 agents, inside the API:
COMMIT and after p50 94 / p95 338 ms of a 302 / 685 ms request; a JFR profile of Neo4j's
JVM put a third of its work per write in the commit, a tenth in the full-text index
refreshing its Lucene searcher at every commit). Sixteen writers paid sixteen commits and
sixteen refreshes, and their transactions contended for the same space's ``:Backlog``
counter and entities.

How: an ``add`` joins a queue. When no group is being written, the caller leads: it takes
every batch queued by then (its own and those that came while the previous group was
written, up to ``MAX_GROUP``, all with the same quota) and writes them as one batch, one read
and one write statement (``evidence._add`` over the batches' rows together: ``level0``'s
statements take any number of spaces, sessions and jobs), in one transaction, one commit.
Then it hands the lead to the first batch queued since and wakes its group's callers, each
with its own batch's outcome (the ids new in the group that the batch holds, a turn sent
by two batches of one group counted as new for the first only): a write is acknowledged
only once it is committed. One group is written at a time per store: a caller that finds
the store idle writes at once, alone, as without grouping; under load the group grows with
the queue, so N waiting writes pay one commit and one index refresh instead of N.

Written together, the batches end as they would one after the other: each turn's context
is derived from its session's turns, the group's included (``contexts_around``; batches
prepared at once for one session, which hold different turns at the same seq, are written
in parts one after the other in the transaction: ``evidence._parts``); an entity
mentioned by two batches is upserted once with its aliases united (``person`` winning), as
two upserts would leave it; co-mention weights add up per turn; marks and jobs are per
batch; the quota is checked per space over the group's new turns (with the spaces'
``:Backlog`` locks held). The locks are taken in ``level0``'s order across the whole group
(sessions, then entities, by id), so a group keeps the order that keeps concurrent writers
(other replicas, Level 1) free of deadlock cycles.

Failures stay with their batch. Neo4j has no savepoints, so a group that fails (one batch's
turn tombstoned, the group over a quota, Neo4j refusing a statement) is rolled back whole,
and each of its batches is then written alone by its own caller, in its own thread, as
without grouping: the batch that fails again fails alone, the others are committed and
acknowledged. A group of one is written alone already: its failure is its caller's. A
refusal found before anything is written is no failure of the group: a batch whose session
received turns from another writer since it was numbered (``numbered``: ``evidence._add``
checks it after the read, before the write) is left out of the group's write and its
caller gets ``SessionBusyError`` while the others commit, in the one transaction.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from eywa.contract import SpaceQuota
from eywa.models import Entity

__all__ = ["MAX_GROUP", "GroupCommit", "Level0Batch", "Outcome"]

log = logging.getLogger(__name__)

MAX_GROUP = 32
"""The most batches one transaction writes (the rest wait for the next group)."""


@dataclass(frozen=True)
class Level0Batch:
    """One ``add`` call's arguments, as ``evidence._add`` takes them."""

    rows: list[dict[str, Any]]
    signals: dict[str, list[dict[str, Any]]]
    mentions: list[tuple[str, Entity]]
    jobs: list[dict[str, Any]]
    quota: SpaceQuota | None
    numbered: bool = False  # check that its first new seq still comes next in each session


Outcome = list[str] | Exception
"""One batch's outcome in a group: its new ids, or the refusal that left it out of the
group's write (``SessionBusyError``) while the others were written."""


@dataclass(eq=False)
class _Slot:
    """One caller's batch and, once its group is done, its outcome."""

    batch: Level0Batch
    result: list[str] | None = None
    error: BaseException | None = None
    alone: bool = False  # its group failed: the caller writes its batch alone
    done: bool = False  # the outcome is set (or ``alone``): the caller may go on
    woken: threading.Event = field(default_factory=threading.Event)  # done, or the lead is its


class GroupCommit:
    """Concurrent Level 0 batches written together (see the module docstring).

    Args:
        write_group: writes batches in one transaction and returns each one's outcome, in
            order (its new ids, or the refusal that left it out of the write); raises
            (nothing committed) when the transaction fails.
        write_alone: writes one batch in a transaction of its own.
    """

    def __init__(
        self,
        write_group: Callable[[Sequence[Level0Batch]], Sequence[Outcome]],
        write_alone: Callable[[Level0Batch], list[str]],
    ) -> None:
        self._write_group = write_group
        self._write_alone = write_alone
        self._lock = threading.Lock()
        self._queue: list[_Slot] = []
        self._leading = False  # a caller leads: the others wait to be woken

    def add(self, batch: Level0Batch) -> list[str]:
        """Write ``batch`` (with the batches queued beside it) and return its new ids, once
        committed.

        Raises:
            Exception: what writing the batch raised: alone, or in a group of one.
        """
        slot = _Slot(batch)
        if not self._join(slot):
            slot.woken.wait()  # its group is done, or the lead was handed to it
        if not slot.done:
            self._lead()
        if slot.alone:
            return self._write_alone(batch)
        if slot.error is not None:
            raise slot.error
        assert slot.result is not None  # done without error: the result is set
        return slot.result

    def _join(self, slot: _Slot) -> bool:
        """Queue ``slot``; whether its caller leads (no group was being written)."""
        with self._lock:
            self._queue.append(slot)
            idle, self._leading = not self._leading, True
        return idle

    def _lead(self) -> None:
        """Take a group from the queue, write it, hand the lead on, wake the group."""
        with self._lock:
            group = self._take()
        try:
            self._commit(group)
        except BaseException as exc:  # noqa: BLE001 - interrupted (KeyboardInterrupt…): each caller gets it
            for slot in group:
                if not slot.done:
                    slot.error, slot.done = exc, True
            raise
        finally:
            with self._lock:
                if self._queue:
                    self._queue[0].woken.set()  # the next leader (not yet done: it leads)
                else:
                    self._leading = False
            for slot in group:
                slot.done = True
                slot.woken.set()

    def _take(self) -> list[_Slot]:
        """The first queued batch and those after it with the same quota, up to
        ``MAX_GROUP`` (under the lock); the others stay queued, in order."""
        quota = self._queue[0].batch.quota
        group = [s for s in self._queue if s.batch.quota == quota][:MAX_GROUP]
        taken = set(map(id, group))
        self._queue = [s for s in self._queue if id(s) not in taken]
        return group

    def _commit(self, group: Sequence[_Slot]) -> None:
        """Write ``group`` in one transaction; set each slot's outcome, or mark every slot
        to be written alone when a group of several failed (``_lead`` marks them done)."""
        try:
            results = self._write_group([s.batch for s in group])
        except Exception as exc:  # noqa: BLE001 - alone, the batch meets its own error
            if len(group) == 1:
                group[0].error = exc
            else:
                log.warning("a group of %d Level 0 batches failed (%s); each is written alone", len(group), exc)
                for slot in group:
                    slot.alone = True
        else:
            for slot, result in zip(group, results, strict=True):
                if isinstance(result, Exception):
                    slot.error = result
                else:
                    slot.result = result
