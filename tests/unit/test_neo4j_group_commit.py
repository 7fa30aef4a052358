"""The queue of Neo4j's Level 0 group commit (``eywa.stores.neo4j.group_commit``), with the
transaction replaced by a function: who leads, what a group holds, where each outcome goes."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor

import pytest

from eywa.contract import SpaceQuota
from eywa.stores.neo4j.group_commit import MAX_GROUP, GroupCommit, Level0Batch

_WAIT_S = 10.0


def _batch(name: str, quota: SpaceQuota | None = None) -> Level0Batch:
    return Level0Batch(rows=[{"props": {"id": name}}], signals={}, mentions=[], jobs=[], quota=quota)


class Writer:
    """Records each group and each lone write; the first group waits for ``go``; a batch
    named ``bad`` fails whatever it is written with."""

    def __init__(self) -> None:
        self.groups: list[list[str]] = []
        self.alone: list[str] = []
        self.holding, self.go = threading.Event(), threading.Event()
        self.commit: GroupCommit = GroupCommit(self.write_group, self.write_alone)

    def write_group(self, batches: Sequence[Level0Batch]) -> list[list[str]]:
        names = [b.rows[0]["props"]["id"] for b in batches]
        self.groups.append(names)
        if not self.holding.is_set():
            self.holding.set()
            assert self.go.wait(_WAIT_S)
        if "bad" in names:
            raise ValueError("bad batch")
        return [[n] for n in names]

    def write_alone(self, batch: Level0Batch) -> list[str]:
        name = batch.rows[0]["props"]["id"]
        self.alone.append(name)
        if name == "bad":
            raise ValueError("bad batch")
        return [name]

    def queued(self, n: int) -> None:
        deadline = time.monotonic() + _WAIT_S
        while len(self.commit._queue) < n:  # noqa: SLF001 - the queue is what is waited for
            assert time.monotonic() < deadline
            time.sleep(0.005)


def _run_held(writer: Writer, first: Level0Batch, rest: list[Level0Batch]) -> tuple[Future[list[str]], list[Future[list[str]]]]:
    """``first`` added and held in its write while ``rest`` are added; then released."""
    pool = ThreadPoolExecutor(len(rest) + 1)
    held = pool.submit(writer.commit.add, first)
    assert writer.holding.wait(_WAIT_S)
    futures = []
    for n, b in enumerate(rest, 1):
        futures.append(pool.submit(writer.commit.add, b))
        writer.queued(n)  # in this order
    writer.go.set()
    pool.shutdown(wait=True)
    return held, futures


def test_a_lone_write_is_written_at_once_alone() -> None:
    writer = Writer()
    writer.go.set()
    assert writer.commit.add(_batch("a")) == ["a"]
    assert writer.commit.add(_batch("b")) == ["b"]
    assert writer.groups == [["a"], ["b"]] and writer.alone == []


def test_writes_queued_behind_a_group_are_the_next_group() -> None:
    writer = Writer()
    held, futures = _run_held(writer, _batch("a"), [_batch(n) for n in "bcde"])
    assert held.result() == ["a"] and [f.result() for f in futures] == [["b"], ["c"], ["d"], ["e"]]
    assert writer.groups == [["a"], ["b", "c", "d", "e"]]


def test_a_failed_group_is_written_batch_by_batch_and_only_the_bad_one_fails() -> None:
    writer = Writer()
    held, futures = _run_held(writer, _batch("a"), [_batch("b"), _batch("bad"), _batch("c")])
    assert held.result() == ["a"]
    assert futures[0].result() == ["b"] and futures[2].result() == ["c"]
    with pytest.raises(ValueError, match="bad batch"):
        futures[1].result()
    assert writer.groups == [["a"], ["b", "bad", "c"]]
    assert sorted(writer.alone) == ["b", "bad", "c"]


def test_a_group_of_one_fails_once() -> None:
    writer = Writer()
    writer.go.set()
    with pytest.raises(ValueError, match="bad batch"):
        writer.commit.add(_batch("bad"))
    assert writer.groups == [["bad"]] and writer.alone == []  # not written a second time
    assert writer.commit.add(_batch("a")) == ["a"]  # the lead was given back


def test_batches_of_another_quota_wait_for_a_group_of_their_own() -> None:
    writer = Writer()
    small = SpaceQuota(turns=5)
    rest = [_batch("b"), _batch("q1", small), _batch("c"), _batch("q2", small)]
    held, futures = _run_held(writer, _batch("a"), rest)
    assert [f.result() for f in futures] == [["b"], ["q1"], ["c"], ["q2"]]
    assert writer.groups == [["a"], ["b", "c"], ["q1", "q2"]]


def test_a_group_holds_at_most_max_group_batches() -> None:
    writer = Writer()
    rest = [_batch(f"b{n}") for n in range(MAX_GROUP + 3)]
    held, futures = _run_held(writer, _batch("a"), rest)
    assert [f.result() for f in futures] == [[b.rows[0]["props"]["id"]] for b in rest]
    assert [len(g) for g in writer.groups] == [1, MAX_GROUP, 3]
