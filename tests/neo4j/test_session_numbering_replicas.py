"""Two replicas (two ``Memory`` objects over one Neo4j, each with its own driver and its own
``SessionLocks``, as two API processes) write batches into one session at the same moment:
every turn of the session still gets a seq of its own.

A batch's new turns are numbered after the turns its session holds (``seq``), read before
the write (``EvidenceStore.prior``); a process numbers the batches of one session one after
the other (``eywa.session_locks``), but two replicas both numbered theirs after the same
stored turns: four writers per replica, two three-turn batches each, one session, stored 49
turns over 25 seqs (every seq but the first held twice), so turn order and every turn's
neighbour context were ambiguous for good. The store now checks, in the write transaction once it
holds the session's lock, that the batch's first new seq is still the session's next one;
if not it writes nothing and raises ``SessionBusyError``, and ``Memory`` prepares the batch
again from a fresh read (its neighbour context and signals recomputed) and writes it again.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from eywa import Memory
from eywa import session_locks
from eywa.batches import prepare_batch
from eywa.errors import SessionBusyError
from eywa.stores.neo4j import level0
from tests.conformance.conftest import replica_settings, server_settings
from tests.reliability.support import HashEmbedder

pytestmark = pytest.mark.neo4j

PER_REPLICA = 4
ROUNDS = 2


@pytest.fixture
def replicas(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[list[Memory]]:
    """Replicas A and B over the test server (emptied), each with its own local Qdrant."""
    embedder = HashEmbedder()
    settings = server_settings(request, tmp_path)
    memories = [
        Memory.connect(settings, embedder=embedder),
        Memory.connect(replica_settings(settings, tmp_path, "b"), embedder=embedder),
    ]
    yield memories
    for mem in memories:
        mem.close()


def _batch(writer: int, round_: int) -> list[dict[str, str]]:
    return [
        {"text": f"Odile asked question {writer}.{round_}.", "speaker": "Odile", "session": "s1"},
        {"text": f"Piet answered it ({writer}.{round_}).", "speaker": "Piet", "session": "s1"},
        {"text": f"Odile thanked Piet for {writer}.{round_}.", "speaker": "Odile", "session": "s1"},
    ]


@pytest.mark.parametrize("opened", [True, False], ids=["stored-session", "new-session"])
def test_two_replicas_writing_one_session_at_once_number_every_turn_once(
    replicas: list[Memory], monkeypatch: pytest.MonkeyPatch, opened: bool
) -> None:
    space = "replica-numbering"
    if opened:  # else both replicas' first batches create the session
        replicas[0].remember(space, [{"text": "Odile opened the thread.", "speaker": "Odile", "session": "s1"}], wait=False)
    writers = 2 * PER_REPLICA
    start = threading.Barrier(writers)
    # Both replicas read the session before either writes: every writer's first numbering
    # waits until one writer per replica has numbered its batch (the race a busy pair of
    # replicas meets now and then, made certain).
    numbered = threading.Barrier(2, timeout=5)
    first_of: dict[int, bool] = {}
    lock = threading.Lock()

    def numbering(*args: object, **kwargs: object) -> object:
        batch = prepare_batch(*args, **kwargs)  # type: ignore[arg-type]
        name = threading.current_thread().name
        if not name.startswith("replica-"):
            return batch
        replica = int(name.split("-")[1])
        with lock:
            first = first_of.setdefault(replica, True)
            first_of[replica] = False
        if first:
            try:
                numbered.wait()
            except threading.BrokenBarrierError:
                pass
        return batch

    monkeypatch.setattr("eywa.memory.prepare_batch", numbering)
    pauses: list[int] = []

    def pause(attempt: int) -> float:  # each one is a batch refused and numbered again
        pauses.append(attempt)
        return session_locks.renumber_pause(attempt)

    monkeypatch.setattr("eywa.memory.renumber_pause", pause)
    written: dict[tuple[int, int], list[str]] = {}
    failures: list[BaseException] = []
    resent: list[SessionBusyError] = []

    def write(writer: int) -> None:
        mem = replicas[writer % 2]
        start.wait()
        for round_ in range(ROUNDS):
            for _ in range(3):  # a client sends a batch refused as busy again (HTTP 503)
                try:
                    written[(writer, round_)] = mem.remember(space, _batch(writer, round_), wait=False)
                    break
                except SessionBusyError as busy:
                    resent.append(busy)
                except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
                    failures.append(exc)
                    break

    threads = [threading.Thread(target=write, args=(i,), name=f"replica-{i % 2}-writer-{i}") for i in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert failures == [] and len(written) == writers * ROUNDS
    assert pauses  # the replicas did number alike, and the store refused the later batch
    assert all(b.attempts == session_locks.NUMBERING_ATTEMPTS for b in resent)
    for mem in replicas:
        mem.wait()
    store = replicas[1]._stores.evidence  # noqa: SLF001 - the stored numbering is what is checked
    stored = store.ids(space)
    turns = store.get(space, stored)
    assert len(stored) == len(set(stored)) == int(opened) + 3 * writers * ROUNDS  # nothing stored twice
    assert sorted(e.seq for e in turns) == list(range(len(stored)))  # one turn per seq, no gap
    seq = {e.id: e.seq for e in turns}
    for ids in written.values():  # each batch's turns side by side, in the batch's order
        assert [seq[i] for i in ids] == list(range(seq[ids[0]], seq[ids[0]] + 3))
    # Each turn's neighbour context names the turns actually beside it.
    by_seq = {e.seq: e for e in turns}
    for e in turns:
        neighbours = store.neighbours(space, e.id, 1, 1)
        assert [n.id for n in neighbours] == [by_seq[s].id for s in (e.seq - 1, e.seq + 1) if s in by_seq]
    print(f"{len(pauses)} batches numbered again, {len(resent)} sent again by the client")
    # A client's retry of a batch (same ids), through either replica, changes nothing.
    for (writer, round_), ids in sorted(written.items())[:3]:
        assert replicas[(writer + 1) % 2].remember(space, _batch(writer, round_), wait=False) == ids
    again = store.get(space, store.ids(space))
    assert {e.id: e.seq for e in again} == seq


def test_a_new_session_is_locked_by_the_first_batch_that_reads_it(
    replicas: list[Memory], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Replica A's batch, first of a new session, is held between its read and its write
    while replica B writes the session's first batch too. Before, both batches kept seqs 0
    and 1. Now A's read creates and locks the session (``level0._CLAIM_SESSIONS``), B's read
    waits for A's commit, finds A's turns, and B's batch is numbered again after them."""
    a, b = replicas
    space = "new-session"
    held, release = threading.Event(), threading.Event()
    read_batch = level0.read_batch

    def holding(tx: Any, rows: Sequence[dict[str, Any]]) -> Any:
        found = read_batch(tx, rows)
        if threading.current_thread().name == "write-a" and not held.is_set():
            held.set()  # A's Level 0 has read (and locked) the new session
            assert release.wait(60)
        return found

    monkeypatch.setattr(level0, "read_batch", holding)
    written: dict[str, list[str]] = {}

    def write(mem: Memory, name: str) -> None:
        turns = [{"text": f"{name} wrote line {i}.", "speaker": name, "session": "fresh"} for i in range(2)]
        written[name] = mem.remember(space, turns, wait=False)

    writing_a = threading.Thread(target=write, args=(a, "Quilla"), name="write-a")
    writing_b = threading.Thread(target=write, args=(b, "Ruben"), name="write-b")
    writing_a.start()
    try:
        assert held.wait(60)
        writing_b.start()
        writing_b.join(3)  # unlocked, B wrote the session's first seqs meanwhile
    finally:
        release.set()
        writing_a.join(120)
        writing_b.join(120)
    assert sorted(written) == ["Quilla", "Ruben"]
    store = a._stores.evidence  # noqa: SLF001 - the stored numbering is what is checked
    seq = {e.id: e.seq for e in store.get(space, store.ids(space))}
    assert [seq[i] for i in written["Quilla"]] == [0, 1]  # A read first: its numbers stand
    assert [seq[i] for i in written["Ruben"]] == [2, 3]
