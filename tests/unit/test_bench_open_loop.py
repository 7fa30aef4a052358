"""The open-loop writer of ``eywa bench service --rate``: batches leave on schedule whatever
the answers, refusals are counted apart from errors and never retried, and a schedule no
sender can keep is reported as late batches."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

import pytest

from eywa.bench.open_loop import PlannedBatch, PlannedRecall, WriteLog, send_open_loop, send_paced
from eywa.errors import InvalidInputError, OverloadedError, StoreError


def _plan(batches: int) -> list[PlannedBatch]:
    return [PlannedBatch(f"s{i % 2}", [{"text": "x", "external_id": f"e{i}-{j}"} for j in range(2)]) for i in range(batches)]


class FakeWriter:
    """Answers after ``delay_s``: batch 3 is refused by backpressure, batch 5 fails."""

    def __init__(self, calls: list[tuple[float, str]], lock: threading.Lock, delay_s: float = 0.0) -> None:
        self.calls, self.lock, self.delay_s, self.closed = calls, lock, delay_s, False

    def remember(self, space: str, turns: Sequence[dict[str, Any]]) -> list[str]:
        with self.lock:
            self.calls.append((time.monotonic(), turns[0]["external_id"]))
        time.sleep(self.delay_s)
        first = turns[0]["external_id"]
        if first.startswith("e3-"):
            raise OverloadedError(10, 5, 1, stage="embed")
        if first.startswith("e5-"):
            raise StoreError("http", "POST", "500: boom")
        return [f"id-{t['external_id']}" for t in turns]

    def close(self) -> None:
        self.closed = True


def test_batches_leave_at_the_rate_and_refusals_are_counted_apart() -> None:
    calls: list[tuple[float, str]] = []
    lock = threading.Lock()
    writers: list[FakeWriter] = []

    def build() -> FakeWriter:
        writers.append(FakeWriter(calls, lock, delay_s=0.6))  # slower than the interval: open loop goes on
        return writers[-1]

    acked: list[str] = []
    log = WriteLog()
    # An interval of 200 ms: a sender thread woken up to 200 ms late (a loaded test machine)
    # is still on time, which 50 ms was not under xdist at load 15.
    elapsed = send_open_loop(_plan(8), 0.2, 4, build, log, on_ack=lambda space, ids, at: acked.extend(ids))

    starts = sorted(at for at, _ in calls)
    assert len(calls) == 8 and len({ext for _, ext in calls}) == 8  # each batch sent once: no retry
    assert 1.2 <= starts[-1] - starts[0] < 2.4 and elapsed >= 1.4 + 0.6  # 7 intervals of 200 ms, then the answer
    assert log.refused_batches == 1 and log.refused == {"s1": {"e3-0", "e3-1"}}
    assert log.errors == 1 and log.unacked == {"s1": {"e5-0", "e5-1"}}
    assert sum(len(ids) for ids in log.acked.values()) == len(acked) == 12 and len(log.latencies_ms) == 6
    assert log.late == 0 and all(w.closed for w in writers) and 1 <= len(writers) <= 4


def test_a_schedule_no_sender_can_keep_is_reported_late() -> None:
    calls: list[tuple[float, str]] = []
    log = WriteLog()
    send_open_loop(_plan(6), 0.01, 1, lambda: FakeWriter(calls, threading.Lock(), delay_s=0.05), log)
    assert len(calls) == 6 and log.late >= 4


def test_a_bad_schedule_is_refused() -> None:
    with pytest.raises(InvalidInputError):
        send_open_loop(_plan(1), 0.0, 1, lambda: FakeWriter([], threading.Lock()), WriteLog())


class FakeAgent(FakeWriter):
    """A writer that also recalls: the recall of "fail" raises, every other one answers."""

    def recall(self, space: str, query: str, k: int) -> object:
        with self.lock:
            self.calls.append((time.monotonic(), f"recall:{query}"))
        time.sleep(self.delay_s)
        if query == "fail":
            raise StoreError("http", "POST", "500: boom")
        return {"items": []}


def _mixed(pairs: int, failing_recall: int | None = None) -> list[PlannedBatch | PlannedRecall]:
    plan: list[PlannedBatch | PlannedRecall] = []
    for i, batch in enumerate(_plan(pairs)):
        plan += [batch, PlannedRecall(batch.space, "fail" if i == failing_recall else f"q{i}")]
    return plan


def test_paced_mixed_schedule_sends_writes_and_recalls_in_turn_on_time() -> None:
    calls: list[tuple[float, str]] = []
    log = WriteLog()
    # 8 requests 200 ms apart on 4 senders, each answered in 50 ms: nothing waits for a sender.
    send_paced(_mixed(4, failing_recall=2), 0.2, 4, lambda: FakeAgent(calls, threading.Lock(), 0.05), log)

    ordered = [name for _, name in sorted(calls)]
    assert ordered == ["e0-0", "recall:q0", "e1-0", "recall:q1", "e2-0", "recall:fail", "e3-0", "recall:q3"]
    # Spaced by the schedule, not bunched: no request is sent before its due time, and request
    # k (due 0.2 k s after the first, which may itself have gone out up to one interval late:
    # ``late`` counts beyond that) starts at least 0.2 (k − 1) s after the first. Measured
    # against the due times rather than between neighbours, so that a sender the scheduler
    # woke late on a loaded machine does not read as bunching.
    assert log.late == 0 and len(log.send_delays_ms) == 8
    assert min(log.send_delays_ms) >= 0
    starts = sorted(at for at, _ in calls)
    assert all(at - starts[0] >= 0.2 * (k - 1) for k, at in enumerate(starts) if k)
    # batch 3 is refused by backpressure (counted apart), the recall of "fail" is an error: none is lost
    assert log.refused_batches == 1 and len(log.latencies_ms) == 3
    assert log.recall_errors == 1 and len(log.recall_latencies_ms) == 3
    assert any(s.startswith("recall: StoreError") for s in log.samples)
    assert all(50 <= ms for ms in log.latencies_ms + log.recall_latencies_ms)


def test_paced_latency_counts_from_the_due_time_and_late_requests_are_counted_not_dropped() -> None:
    calls: list[tuple[float, str]] = []
    log = WriteLog()
    # One sender, each request answered in 300 ms, due every 100 ms: request k is sent at about
    # 0.3 k s, 0.2 k s after its due time, and answered 0.3 + 0.2 k s after it.
    elapsed = send_paced(_mixed(2), 0.1, 1, lambda: FakeAgent(calls, threading.Lock(), 0.3), log)

    assert len(calls) == 4 and elapsed >= 1.2
    assert log.late == 3  # requests 1, 2 and 3 waited for the only sender beyond one interval
    assert sorted(log.send_delays_ms)[-1] >= 550  # request 3: due at 0.3 s, sent at 0.9 s
    first_write, second_write = log.latencies_ms
    first_recall, second_recall = log.recall_latencies_ms
    assert first_write >= 300 and first_recall >= 300 + 200 and second_write >= 300 + 400
    assert second_recall >= 300 + 600
    # counted from the due time, not from when the sender took it (which would be about 300 each)
    assert second_recall >= first_write + 550


def test_paced_schedule_refuses_a_bad_interval() -> None:
    with pytest.raises(InvalidInputError):
        send_paced(_mixed(1), 0.0, 1, lambda: FakeAgent([], threading.Lock()), WriteLog())
