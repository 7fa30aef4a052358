"""One lock per conversation session of a space, for numbering a batch's new turns.

A batch's new turns are numbered after the turns its sessions already hold (``seq``,
``eywa.batches.prepare_batch``), read before the write: two batches of one session prepared
at the same moment both numbered theirs after the same stored turns, and the session held
duplicate seqs for good (eight threads writing two-turn batches into one session at once:
seqs 5 and 6 stored five times each), so turn order and each turn's neighbours were
ambiguous. ``Memory`` holds the locks of a batch's sessions from its numbering to its
commit, so batches of one session are numbered one after the other; batches of other
sessions go on side by side, never waiting on each other: a session's lock is made when a
batch first asks for it and dropped when the last batch holding or awaiting it is done
(counted), so the locks held are those of the sessions being written at the moment. (They
were 256 fixed stripes, by a hash of space and session: unrelated sessions sharing a stripe
waited on each other's writes.)

The locks are the process's. Two API replicas (or workers) over one Neo4j writing into one
session at the same moment both numbered after the same stored turns (four writers per
replica, three-turn batches: 49 turns over 25 seqs), so ``Memory`` writes with
``EvidenceStore.add(..., numbered=True)``: the store checks in the write transaction, once
it holds the session's lock, that the batch's first new seq is still where the session
continues, and if not writes nothing and raises ``SessionBusyError``. ``Memory`` then
numbers the batch again from a fresh read (its neighbour context and signals recomputed),
after a short random pause (``renumber_pause``), up to ``NUMBERING_ATTEMPTS`` times in all.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Final

__all__ = ["NUMBERING_ATTEMPTS", "SessionLocks", "renumber_pause"]

NUMBERING_ATTEMPTS: Final = 6
"""Times a batch is numbered and written before ``SessionBusyError`` reaches the caller: each
refusal means another writer's batch of the session committed in between, so the session
moves on; only a session written by several replicas non-stop refuses this often."""
_PAUSE_S: Final = 0.005


def renumber_pause(attempt: int) -> float:
    """Seconds to wait before numbering a batch again after its ``attempt``-th refusal: random
    (so two replicas refused together do not come back together), up to 5 ms doubled each time."""
    return random.uniform(0, _PAUSE_S * 2**attempt)  # noqa: S311 - spacing retries, not secrets


@dataclass(eq=False)
class _Entry:
    """A session's lock and how many batches hold or await it."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    users: int = 0


class SessionLocks:
    """Locks of (space, session) pairs, made on demand and dropped when unused, taken in one
    order so that two batches never wait on each other's."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[tuple[str, str], _Entry] = {}

    def __len__(self) -> int:
        """Sessions whose lock is held or awaited now."""
        with self._guard:
            return len(self._locks)

    @contextmanager
    def held(self, space: str, sessions: Iterable[str]) -> Iterator[None]:
        """Hold the locks of ``sessions`` of ``space`` (each once, in session order)."""
        keys = sorted({(space, session) for session in sessions})
        with self._guard:
            entries = [self._locks.setdefault(key, _Entry()) for key in keys]
            for entry in entries:
                entry.users += 1
        try:
            with ExitStack() as stack:
                for entry in entries:
                    stack.enter_context(entry.lock)
                yield
        finally:
            with self._guard:
                for key, entry in zip(keys, entries, strict=True):
                    entry.users -= 1
                    if entry.users == 0:
                        del self._locks[key]
