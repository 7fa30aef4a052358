"""The open-loop writer of ``eywa bench service --rate``: batches at a fixed rate, whatever
the answers.

A closed-loop agent sends its next batch when the last one was answered, so a slow server
slows its writers down and a backlog never grows past what the agents hold in flight. The
question "at what sustained write rate does the embedding lag stay within bounds, and what
happens above it" needs the opposite: batch ``i`` is due at ``start + i × interval``
(``interval = batch size / rate``) and is sent then, by one of ``senders`` threads, however
the earlier ones fared. A batch is *late* when no sender was free within one interval of its
due time (the offered rate was not reached: more senders, or a lower rate).

Each answer is recorded in a :class:`WriteLog`: acknowledged (ids; the lag sampler is told),
*refused* by backpressure (``OverloadedError``: counted apart from errors, its turns kept
for the audit, which checks that none of them was stored), or failed. Refused batches are not
retried: an open-loop writer drops what the server refuses, so what was refused is exactly
what must be missing from the store.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from eywa.errors import EywaError, InvalidInputError, OverloadedError

__all__ = ["PlannedBatch", "WriteLog", "Writer", "send_open_loop"]

MAX_SAMPLES = 5


class Writer(Protocol):
    """What a sender writes with: ``eywa.Client`` (built without retries) is one."""

    def remember(self, space: str, turns: Sequence[dict[str, Any]]) -> list[str]: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class PlannedBatch:
    """One batch of the schedule: where it goes and what it holds."""

    space: str
    turns: list[dict[str, Any]]


@dataclass
class WriteLog:
    """Everything the senders saw; every method takes the lock (several threads write it)."""

    latencies_ms: list[float] = field(default_factory=list)
    acked: dict[str, dict[str, str]] = field(default_factory=lambda: defaultdict(dict))  # space -> ext -> id
    unacked: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # failed: maybe stored
    refused: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # backpressure: never stored
    refused_batches: int = 0
    errors: int = 0
    late: int = 0
    samples: list[str] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def ack(self, batch: PlannedBatch, ids: Sequence[str], latency_ms: float) -> None:
        with self._lock:
            self.latencies_ms.append(latency_ms)
            if len(ids) != len(batch.turns):
                self._fail(InvalidInputError(f"{len(ids)} ids for {len(batch.turns)} turns"))
            for turn, ident in zip(batch.turns, ids, strict=False):
                self.acked[batch.space][turn["external_id"]] = ident

    def refuse(self, batch: PlannedBatch, exc: OverloadedError) -> None:
        with self._lock:
            self.refused_batches += 1
            self.refused[batch.space].update(t["external_id"] for t in batch.turns)
            if not any(s.startswith("refused") for s in self.samples) and len(self.samples) < MAX_SAMPLES:
                self.samples.append(f"refused: {exc}")

    def fail(self, batch: PlannedBatch, exc: BaseException) -> None:
        with self._lock:
            self.unacked[batch.space].update(t["external_id"] for t in batch.turns)
            self._fail(exc)

    def was_late(self) -> None:
        with self._lock:
            self.late += 1

    def _fail(self, exc: BaseException) -> None:
        self.errors += 1
        if len(self.samples) < MAX_SAMPLES:
            self.samples.append(f"turns: {type(exc).__name__}: {exc}")


def send_open_loop(
    plan: Sequence[PlannedBatch],
    interval_s: float,
    senders: int,
    writer: Callable[[], Writer],
    log: WriteLog,
    *,
    on_ack: Callable[[str, list[str], float], None] | None = None,
) -> float:
    """Send ``plan[i]`` at ``start + i × interval_s`` on ``senders`` threads; returns the
    elapsed seconds (until the last answer). ``writer`` builds one sender's client (called
    once per thread, closed at the end); ``on_ack(space, ids, monotonic time)`` is told of every acknowledgement.

    Raises:
        InvalidInputError: ``interval_s`` not positive or ``senders`` below 1.
    """
    if interval_s <= 0 or senders < 1:
        raise InvalidInputError("the interval must be positive and there must be a sender")
    local = threading.local()
    opened: list[Writer] = []
    opening = threading.Lock()

    def send(batch: PlannedBatch, due: float) -> None:
        if time.monotonic() - due > interval_s:
            log.was_late()
        client: Writer | None = getattr(local, "writer", None)
        if client is None:
            client = local.writer = writer()
            with opening:
                opened.append(client)
        started = time.perf_counter()
        try:
            ids = client.remember(batch.space, batch.turns)
        except OverloadedError as exc:
            log.refuse(batch, exc)
        except EywaError as exc:
            log.fail(batch, exc)
        except Exception as exc:  # noqa: BLE001 - a pool thread's exception would vanish: record every batch
            log.fail(batch, exc)
        else:
            log.ack(batch, ids, (time.perf_counter() - started) * 1000)
            if on_ack is not None:
                on_ack(batch.space, ids, time.monotonic())

    started = time.monotonic()
    try:
        with ThreadPoolExecutor(max_workers=senders, thread_name_prefix="eywa-writer") as pool:
            for i, batch in enumerate(plan):
                due = started + i * interval_s
                delay = due - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                pool.submit(send, batch, due)
        return time.monotonic() - started
    finally:
        for client in opened:
            client.close()
