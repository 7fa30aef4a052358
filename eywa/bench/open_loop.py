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

:func:`send_paced` (``eywa bench service --request-rate``) keeps the same schedule for a
mixed plan, write batches and recalls (:class:`PlannedRecall`) in turn, so that latency can
be read at a fixed offered load: in a closed loop it is about the agents over the
throughput, whatever the server's own speed. There each request's latency is counted from
its *due* time, not from when a sender took it: a request that waited for a free sender
carries that wait in its latency (no coordinated omission), and is counted late as well.
Every planned request is sent, late or not, and answered, failed or refused in the log.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from eywa.errors import EywaError, InvalidInputError, OverloadedError

__all__ = ["Agent", "PlannedBatch", "PlannedRecall", "WriteLog", "Writer", "send_open_loop", "send_paced"]

MAX_SAMPLES = 5


class Writer(Protocol):
    """What a sender writes with: ``eywa.Client`` (built without retries) is one."""

    def remember(self, space: str, turns: Sequence[dict[str, Any]]) -> list[str]: ...

    def close(self) -> None: ...


class Agent(Writer, Protocol):
    """What a sender of the mixed schedule uses: ``eywa.Client`` (without retries) is one."""

    def recall(self, space: str, query: str, k: int) -> object: ...


C = TypeVar("C", bound=Writer)
R = TypeVar("R")


@dataclass(frozen=True)
class PlannedBatch:
    """One batch of the schedule: where it goes and what it holds."""

    space: str
    turns: list[dict[str, Any]]


@dataclass(frozen=True)
class PlannedRecall:
    """One recall of the mixed schedule: the space asked and the question."""

    space: str
    query: str
    k: int = 10


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
    send_delays_ms: list[float] = field(default_factory=list)  # sent - due, every request
    recall_latencies_ms: list[float] = field(default_factory=list)
    recall_errors: int = 0
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

    def recalled(self, latency_ms: float) -> None:
        with self._lock:
            self.recall_latencies_ms.append(latency_ms)

    def recall_failed(self, exc: BaseException) -> None:
        with self._lock:
            self.recall_errors += 1
            if len(self.samples) < MAX_SAMPLES:
                self.samples.append(f"recall: {type(exc).__name__}: {exc}")

    def sent(self, delay_s: float, interval_s: float) -> None:
        """A request left ``delay_s`` after its due time: late beyond one interval."""
        with self._lock:
            self.send_delays_ms.append(delay_s * 1000)
            if delay_s > interval_s:
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
    A batch's latency is counted from when it was sent.

    Raises:
        InvalidInputError: ``interval_s`` not positive or ``senders`` below 1.
    """

    def send(client: Writer, batch: PlannedBatch, due: float) -> None:
        _write(client, batch, time.monotonic(), log, on_ack)

    return _schedule(plan, interval_s, senders, writer, log, send)


def send_paced(
    plan: Sequence[PlannedBatch | PlannedRecall],
    interval_s: float,
    senders: int,
    agent: Callable[[], Agent],
    log: WriteLog,
    *,
    on_ack: Callable[[str, list[str], float], None] | None = None,
) -> float:
    """Send ``plan[i]`` (a write batch or a recall) at ``start + i × interval_s`` on
    ``senders`` threads, as :func:`send_open_loop`; each latency is counted from the
    request's due time (module docstring). Returns the elapsed seconds until the last answer.

    Raises:
        InvalidInputError: ``interval_s`` not positive or ``senders`` below 1.
    """

    def send(client: Agent, request: PlannedBatch | PlannedRecall, due: float) -> None:
        if isinstance(request, PlannedBatch):
            _write(client, request, due, log, on_ack)
            return
        try:
            client.recall(request.space, request.query, request.k)
        except Exception as exc:  # noqa: BLE001 - a pool thread's exception would vanish: record every request
            log.recall_failed(exc)
        else:
            log.recalled((time.monotonic() - due) * 1000)

    return _schedule(plan, interval_s, senders, agent, log, send)


def _write(
    client: Writer, batch: PlannedBatch, since: float, log: WriteLog,
    on_ack: Callable[[str, list[str], float], None] | None,
) -> None:  # fmt: skip
    """Send one batch and record its answer; its latency counts from ``since`` (monotonic)."""
    try:
        ids = client.remember(batch.space, batch.turns)
    except OverloadedError as exc:
        log.refuse(batch, exc)
    except EywaError as exc:
        log.fail(batch, exc)
    except Exception as exc:  # noqa: BLE001 - a pool thread's exception would vanish: record every batch
        log.fail(batch, exc)
    else:
        answered = time.monotonic()
        log.ack(batch, ids, (answered - since) * 1000)
        if on_ack is not None:
            on_ack(batch.space, ids, answered)


def _schedule(
    plan: Sequence[R],
    interval_s: float,
    senders: int,
    build: Callable[[], C],
    log: WriteLog,
    send: Callable[[C, R, float], None],
) -> float:
    """Hand ``plan[i]`` to a pool of ``senders`` threads at ``start + i × interval_s`` and
    call ``send(client, request, due)`` there, each thread with its own client from
    ``build`` (closed at the end); every request's delay from its due time goes to ``log``.
    Returns the elapsed seconds until the last answer.

    Raises:
        InvalidInputError: ``interval_s`` not positive or ``senders`` below 1.
    """
    if interval_s <= 0 or senders < 1:
        raise InvalidInputError("the interval must be positive and there must be a sender")
    local = threading.local()
    opened: list[C] = []
    opening = threading.Lock()

    def run(request: R, due: float) -> None:
        log.sent(time.monotonic() - due, interval_s)
        client: C | None = getattr(local, "client", None)
        if client is None:
            client = local.client = build()
            with opening:
                opened.append(client)
        send(client, request, due)

    started = time.monotonic()
    try:
        with ThreadPoolExecutor(max_workers=senders, thread_name_prefix="eywa-writer") as pool:
            for i, request in enumerate(plan):
                due = started + i * interval_s
                delay = due - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                pool.submit(run, request, due)
        return time.monotonic() - started
    finally:
        for client in opened:
            client.close()
