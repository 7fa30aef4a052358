"""Group commit: writes that wait for the one writing connection are committed together.

Why: an embedded store has one writing connection, and every Level 0 batch took it for a
transaction of its own, one after the other. Under concurrent agents the batches queued
for it (``eywa bench service``, 16 agents, Level 0 acknowledgement, load 2-3 on 2 cores: a
POST /turns waited 109 ms on average for the connection, then held it 14 ms, for work that
takes about 3 ms alone; the connection was held 67% of the time by request writes). Each
transaction paid BEGIN, COMMIT and the keyword index's commit hook, and each waiting thread
had to get the GIL back to take the connection in turn. Committed together, a group of
writes waits for the connection once (the wait fell to 6-8 ms on average, in groups of
3.1-3.5 writes); the work inside the transaction is still each write's own.

How: a write joins a queue. When no write of the queue is being committed, the caller
becomes the leader: it waits for the writing connection, takes every write queued by then
(its own and those that arrived while it waited), and applies them in one transaction, each
in a savepoint of its own, then commits once. Every caller gets its own write's outcome,
after the commit: a write is acknowledged only once it is committed. The other callers wait
meanwhile, each on its own event; once its group is committed, the leader hands the lead to
the first write queued since, which takes the next group as soon as the connection is free,
and wakes the callers of its group once what follows the release is done (the keyword index
applying the group's changes, ``SqliteDatabase.add_release_hook``).

Failures stay with their write:

- A *refusal* (an error of ``refusals``, raised by a write before it is applied, such as a
  tombstoned turn or a full space) rolls back that write's savepoint; the others of the
  group are committed, and the refused caller gets its error.
- Any *other* failure (SQLite refusing a statement, a failed commit) rolls the whole group
  back, and each of its writes is then retried alone, in a transaction of its own, as
  without grouping: the write that fails again fails alone, the others are committed.

A write from a thread that already holds the writing connection (inside its own
transaction) joins that transaction directly: waiting for a leader that waits for this
thread's connection would never end.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from eywa.stores.embedded.database import SqliteDatabase

__all__ = ["GroupCommit"]

log = logging.getLogger(__name__)

W = TypeVar("W")
R = TypeVar("R")

_SAVEPOINT = "group_write"


@dataclass(eq=False)
class _Slot(Generic[W, R]):
    """One caller's write and, once its group is done, its outcome."""

    item: W
    result: R | None = None
    error: BaseException | None = None
    settled: bool = False  # result or error set
    done: bool = False  # settled, and the caller may return
    woken: threading.Event = field(default_factory=threading.Event)  # done, or the lead is its

    def outcome(self) -> R:
        if self.error is not None:
            raise self.error
        return self.result  # type: ignore[return-value]  # set with done, or error is


class GroupCommit(Generic[W, R]):
    """Concurrent ``write`` calls on ``db`` committed together (see the module docstring).

    Args:
        db: the database whose writing connection the writes take.
        apply: writes one item inside the open transaction (given the writing connection)
            and returns its result; it must raise before writing anything when it refuses.
        refusals: the errors by which ``apply`` refuses a write; any other error makes the
            group's writes be retried one by one.
    """

    def __init__(
        self,
        db: SqliteDatabase,
        apply: Callable[[sqlite3.Connection, W], R],
        refusals: tuple[type[BaseException], ...],
    ) -> None:
        self._db = db
        self._apply = apply
        self._refusals = refusals
        self._lock = threading.Lock()
        self._queue: list[_Slot[W, R]] = []
        self._leading = False  # a caller leads: the others wait to be woken

    def write(self, item: W) -> R:
        """Apply ``item`` in a committed transaction (with the writes queued beside it) and
        return its result, once that transaction is committed.

        Raises:
            Exception: what ``apply`` raised for this item (a refusal, or the error it
                raised again when retried alone), or the ``StoreError`` of a transaction
                that could not begin or commit.
        """
        if self._db.holds_writer():  # inside this thread's transaction: join it
            with self._db.transaction() as conn:
                return self._apply(conn, item)
        slot: _Slot[W, R] = _Slot(item)
        with self._lock:
            self._queue.append(slot)
            lead = not self._leading
            self._leading = True
        if not lead:
            slot.woken.wait()  # its group is done, or the lead was handed to it
        if not slot.done:
            handed = False
            try:
                handed = self._lead(slot)
            finally:
                if not handed:
                    self._hand_over()
        return slot.outcome()

    def _hand_over(self) -> None:
        """The lead passes to the first write still queued (woken alone, not every waiter),
        or lapses when none is."""
        with self._lock:
            if self._queue:
                self._queue[0].woken.set()
            else:
                self._leading = False

    def _lead(self, own: _Slot[W, R]) -> bool:
        """Take the writing connection, then every write queued by then, and commit them.
        Every slot taken is done (and its caller woken) when this returns, with its outcome
        or the error that interrupted the group. Returns whether the lead was handed over.

        The lead passes on once the group is committed, before the connection is let go:
        the next leader takes it as soon as it is free, while this thread finishes what
        follows the release (the database's release hooks: the keyword index applies the
        group's changes) before the group's callers are woken."""
        group: list[_Slot[W, R]] = []
        handed = False
        try:
            with self._db.locked():
                with self._lock:
                    group, self._queue = self._queue, []
                self._commit(group)
                self._hand_over()
                handed = True
        except BaseException as exc:  # noqa: BLE001 - each caller raises its own write's outcome
            with self._lock:
                if not group:  # no connection (closed): this write fails; the queued ones lead in turn
                    self._queue.remove(own)
                    group = [own]
            for slot in group:
                if not slot.settled:
                    slot.error, slot.settled = exc, True
        finally:
            for slot in group:
                slot.done = True
                slot.woken.set()
        return handed

    def _commit(self, group: Sequence[_Slot[W, R]]) -> None:
        """Apply ``group`` in one transaction, a savepoint each; on a failure that is no
        refusal, roll it all back and apply each write alone. Sets every slot's outcome."""
        if len(group) > 1:
            try:
                with self._db.transaction() as conn:
                    outcomes = [self._savepointed(conn, slot.item) for slot in group]
            except Exception as exc:  # noqa: BLE001 - each write is retried alone and meets its own error
                log.warning("a group of %d writes failed (%s); each is retried alone", len(group), exc)
            else:
                for slot, (result, error) in zip(group, outcomes, strict=True):
                    slot.result, slot.error, slot.settled = result, error, True
                return
        for slot in group:
            try:
                with self._db.transaction() as conn:
                    slot.result = self._apply(conn, slot.item)
            except BaseException as exc:  # noqa: BLE001 - raised in the caller's own thread
                slot.error = exc
            slot.settled = True

    def _savepointed(self, conn: sqlite3.Connection, item: W) -> tuple[R | None, BaseException | None]:
        """``apply`` in a savepoint; a refusal rolls the savepoint back and is returned."""
        conn.execute(f"SAVEPOINT {_SAVEPOINT}")
        try:
            result = self._apply(conn, item)
        except self._refusals as refused:
            conn.execute(f"ROLLBACK TO {_SAVEPOINT}")  # fails (and fails the group) if SQLite rolled all back
            conn.execute(f"RELEASE {_SAVEPOINT}")
            return None, refused
        conn.execute(f"RELEASE {_SAVEPOINT}")
        return result, None
