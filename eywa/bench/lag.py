"""How long acknowledged turns wait for the stages after Level 0: the service benchmark's lags.

A write acknowledged after Level 0 still owes its embedding and its Level 1 (with the
dimension update). ``LagSampler`` measures, per acknowledged batch, the time from the
acknowledgement to the moment the stage ledger no longer holds a mark of that stage for any
of its turns: ``embed`` (the vector route can find them) and ``level1`` (Level 1 and Nous
done). One thread reads the ledger's pending index every ``interval_s`` (two indexed reads
per tick, whatever the number of batches; each returns every pending mark, so a tick costs
more as the backlog grows), so a lag is exact to within one interval; the same reads give
the backlog over time. The measurement reads the store, not the API, so it
is the same for the inline runner, the Celery workers and any number of API replicas.

``lag_figures`` is the pure summary (percentiles over finished batches, and how many never
finished before the drain ended), tested without a server.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from eywa.bench.metrics import percentile
from eywa.errors import StoreError
from eywa.stores.bundle import GraphStores
from eywa.stores.ledger import PendingStage

__all__ = ["BacklogPoint", "LagFigures", "LagSampler", "lag_figures"]

PENDING_LIMIT = 1_000_000  # every pending mark: the backlog of a bench run is far below it


class LagFigures(BaseModel):
    """Acknowledgement → stage done, over the batches of a run (milliseconds)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    batches: int
    finished: int
    p50: float
    p95: float
    max: float


class BacklogPoint(BaseModel):
    """Turns still owing each stage, ``at`` seconds after the traffic began."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    at: float
    embed: int
    level1: int


def lag_figures(lags_ms: Sequence[float], batches: int) -> LagFigures:
    """Percentiles of the lags of the finished batches; ``batches - len(lags_ms)`` did not finish."""
    return LagFigures(
        batches=batches, finished=len(lags_ms), p50=round(percentile(lags_ms, 50), 1),
        p95=round(percentile(lags_ms, 95), 1), max=round(max(lags_ms, default=0.0), 1),
    )  # fmt: skip


@dataclass
class _Batch:
    space: str
    ids: frozenset[str]
    acked_at: float
    embedded_at: float | None = None
    derived_at: float | None = None


class LagSampler:
    """A thread that watches acknowledged batches leave the ledger (see the module docstring)."""

    def __init__(self, stores: GraphStores, interval_s: float = 0.1) -> None:
        self._stores = stores
        self._interval_s = interval_s
        self._lock = threading.Lock()
        self._batches: list[_Batch] = []
        self._open: list[_Batch] = []
        self._started = time.monotonic()
        self.backlog: list[BacklogPoint] = []
        self.errors = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="eywa-lag-sampler", daemon=True)

    def start(self) -> None:
        """Start sampling; ``at`` of the backlog counts from here."""
        self._started = time.monotonic()
        self._thread.start()

    def acknowledged(self, space: str, ids: Sequence[str], acked_at: float) -> None:
        """Record a batch acknowledged at ``acked_at`` (``time.monotonic()``)."""
        batch = _Batch(space, frozenset(ids), acked_at)
        with self._lock:
            self._batches.append(batch)
            self._open.append(batch)

    def drain(self, timeout_s: float) -> bool:
        """Wait until every recorded batch is through both stages, at most ``timeout_s``;
        returns whether they all were."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            with self._lock:
                if not self._open:
                    return True
            time.sleep(self._interval_s)
        with self._lock:
            return not self._open

    def stop(self) -> None:
        """Stop the thread (the figures stay readable)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=30)

    def figures(self) -> tuple[LagFigures, LagFigures]:
        """(embed, level1) lags of the batches recorded so far."""
        with self._lock:
            batches = list(self._batches)
        embed = [(b.embedded_at - b.acked_at) * 1000 for b in batches if b.embedded_at is not None]
        derived = [(b.derived_at - b.acked_at) * 1000 for b in batches if b.derived_at is not None]
        return lag_figures(embed, len(batches)), lag_figures(derived, len(batches))

    def _pending(self, *stages: PendingStage) -> set[tuple[str, str]]:
        return {(m.space, m.item_id) for s in stages for m in self._stores.ledger.pending(s, limit=PENDING_LIMIT)}

    def _run(self) -> None:
        while not self._stop.wait(self._interval_s):
            read_at = time.monotonic()  # batches acknowledged later may be missing from this read
            try:
                unembedded = self._pending("embed_evidence")
                underived = self._pending("level1", "nous")
            except StoreError:
                self.errors += 1  # a store hiccup: the next tick reads again
                continue
            now = time.monotonic()
            with self._lock:
                for batch in self._open:
                    if batch.acked_at > read_at:
                        continue
                    if batch.embedded_at is None and not any((batch.space, i) in unembedded for i in batch.ids):
                        batch.embedded_at = now
                    if batch.derived_at is None and not any((batch.space, i) in underived for i in batch.ids):
                        batch.derived_at = now
                self._open = [b for b in self._open if b.embedded_at is None or b.derived_at is None]
            self.backlog.append(BacklogPoint(
                at=round(now - self._started, 2), embed=len(unembedded), level1=len(underived),
            ))  # fmt: skip
