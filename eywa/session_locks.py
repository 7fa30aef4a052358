"""One lock per conversation session of a space, for numbering a batch's new turns.

A batch's new turns are numbered after the turns its sessions already hold (``seq``,
``eywa.batches.prepare_batch``), read before the write: two batches of one session prepared
at the same moment both numbered theirs after the same stored turns, and the session held
duplicate seqs for good (eight threads writing two-turn batches into one session at once:
seqs 5 and 6 stored five times each), so turn order and each turn's neighbours were
ambiguous. ``Memory`` holds the locks of a batch's sessions from its numbering to its
commit, so batches of one session are numbered one after the other; batches of other
sessions go on side by side (each session has its stripe of a fixed set, so a few unrelated
sessions may share one, and the locks never grow with the number of sessions).

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

import hashlib
import random
import threading
from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Final

__all__ = ["NUMBERING_ATTEMPTS", "STRIPES", "SessionLocks", "renumber_pause"]

STRIPES: Final = 256
"""Locks in the set: sessions beyond it share them (a wait, never a wrong number)."""
NUMBERING_ATTEMPTS: Final = 6
"""Times a batch is numbered and written before ``SessionBusyError`` reaches the caller: each
refusal means another writer's batch of the session committed in between, so the session
moves on; only a session written by several replicas non-stop refuses this often."""
_PAUSE_S: Final = 0.005


def renumber_pause(attempt: int) -> float:
    """Seconds to wait before numbering a batch again after its ``attempt``-th refusal: random
    (so two replicas refused together do not come back together), up to 5 ms doubled each time."""
    return random.uniform(0, _PAUSE_S * 2**attempt)  # noqa: S311 - spacing retries, not secrets


class SessionLocks:
    """Locks of (space, session) pairs, taken in one order so that two batches never wait on
    each other's."""

    def __init__(self, stripes: int = STRIPES) -> None:
        self._locks = tuple(threading.Lock() for _ in range(stripes))

    def _stripe(self, space: str, session: str) -> int:
        digest = hashlib.blake2b(f"{space}\x00{session}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big") % len(self._locks)

    @contextmanager
    def held(self, space: str, sessions: Iterable[str]) -> Iterator[None]:
        """Hold the locks of ``sessions`` of ``space`` (each stripe once, in stripe order)."""
        with ExitStack() as stack:
            for stripe in sorted({self._stripe(space, session) for session in sessions}):
                stack.enter_context(self._locks[stripe])
            yield
