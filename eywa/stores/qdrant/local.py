"""Local-mode vectors of one process, kept clear of the erasures other processes finish.

qdrant-client's local mode (``EYWA_QDRANT_PATH``) is a folder only one process can open, so
two API replicas over one Neo4j each keep vectors of their own (the tests and
``eywa bench service --replicas 2`` run so; a deployment shares a Qdrant server). An erasure
deletes the vectors of the process that runs it; the other replica kept its copy of the
erased turns' and beliefs' vectors, and its ``erasure_proof`` counted them as residue
(found by driving two replicas from outside: a speaker erased through one replica left 1
turn vector in the other's folder, a dropped space 2 turn and 2 belief vectors).

:class:`LocalModeVectorStore` therefore sweeps: at open, then every ``interval_s`` on a
daemon thread, and before each ``missing`` (what the proof and the repair read), it lists the
erasures other processes finished since its last sweep
(``Neo4jErasureStore.done_elsewhere_since``, every space; its own erasures deleted their
points themselves) and deletes their turns' and beliefs' points from its own folder.
Deleting an absent point does nothing, so a re-listed erasure costs a no-op. Not swept: the
vectors of the turns next to the erased one (``eywa.stores.context.vector_windows``), which the erasing process re-embeds in
its own folder only (the other keeps the old one, derived from the erased words, until it
re-embeds that turn); a Qdrant server shared by the replicas has none of this.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Final

from qdrant_client import QdrantClient

from eywa.errors import EywaError
from eywa.stores.erasure import ErasureRecord
from eywa.stores.qdrant.vectors import QdrantServerVectorStore
from eywa.stores.vectors import VectorKind

__all__ = ["LocalModeVectorStore"]

log = logging.getLogger(__name__)

OVERLAP: Final = timedelta(minutes=10)
"""How far before the last seen ``done_at`` each sweep lists again: clocks of the processes
that finish erasures differ a little, and an erasure's ``done_at`` is its finisher's time."""

DoneSince = Callable[[datetime | None], list[ErasureRecord]]


class LocalModeVectorStore(QdrantServerVectorStore):
    """A ``QdrantServerVectorStore`` on a local-mode client that deletes the points of
    erasures finished by other processes (module docstring).

    Args:
        client: An open local-mode ``QdrantClient``.
        dim: Vector width.
        done_since: Every space's erasures other processes finished at or after a time (all
            when None).
        interval_s: Seconds between two sweeps of the background thread.
        embedder_id: As ``QdrantServerVectorStore``.

    Raises:
        As ``QdrantServerVectorStore``, and ``StoreError`` when the first sweep cannot read
        the erasures.
    """

    def __init__(
        self, client: QdrantClient, dim: int, *, done_since: DoneSince, interval_s: float,
        embedder_id: str | None = None,
    ) -> None:  # fmt: skip
        super().__init__(client, dim, embedder_id=embedder_id)
        self._done_since = done_since
        self._applied: set[str] = set()
        self._seen: datetime | None = None
        self._sweeping = threading.Lock()
        self._stop = threading.Event()
        self.sweep()
        self._thread = threading.Thread(target=self._run, args=(interval_s,), name="eywa-vector-sweep", daemon=True)
        self._thread.start()

    def sweep(self) -> int:
        """Delete the points of the erasures finished since the last sweep; returns how many
        erasures were new to this process.

        Raises:
            ClosedError: the store was closed.
            StoreError: Neo4j or the local folder failed.
        """
        with self._sweeping:
            since = self._seen - OVERLAP if self._seen is not None else None
            fresh = [r for r in self._done_since(since) if r.id not in self._applied]
            if not fresh:
                return 0
            turns = sorted({t.evidence_id for r in fresh for t in r.turns})
            beliefs = sorted({b for r in fresh for b in r.belief_ids})
            super().delete("evidence", turns)
            super().delete("belief", beliefs)
            self._applied.update(r.id for r in fresh)
            finished = [r.done_at for r in fresh if r.done_at is not None]
            if finished:
                self._seen = max([*finished, *([self._seen] if self._seen else [])])
            return len(fresh)

    def missing(self, kind: VectorKind, ids: Sequence[str]) -> set[str]:
        """As ``QdrantServerVectorStore.missing``, after a sweep: an erasure finished by another
        process a moment ago is not counted as this folder's residue.

        Raises:
            ClosedError: the store was closed.
            StoreError: Neo4j or the local folder failed.
        """
        self.sweep()
        return super().missing(kind, ids)

    def close(self) -> None:
        """Stop the sweeping thread, then close the client. Idempotent.

        Raises:
            StoreError: the client failed to close.
        """
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=30)
        super().close()

    def _run(self, interval_s: float) -> None:
        while not self._stop.wait(interval_s):
            started = time.monotonic()
            try:
                swept = self.sweep()
            except EywaError as exc:  # Neo4j down or the store closing: try again next time
                log.warning("local-mode vector sweep failed: %s", exc)
                continue
            if swept:
                log.info("local-mode vectors: deleted the points of %d erasures of other processes (%.0f ms)",
                         swept, (time.monotonic() - started) * 1000)  # fmt: skip
