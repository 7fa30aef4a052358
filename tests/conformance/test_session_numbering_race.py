"""Batches of one session written at the same moment number their turns one after the other.

A batch's new turns are numbered after the turns their session holds (``seq``), read before
the write; eight threads writing two-turn batches into one session at once (after one stored
turn) stored 17 turns with seqs 1 and 2 twice and 5 and 6 five times each, on the embedded
store as on Neo4j. ``Memory`` now numbers and writes the batches of one session one after the
other (``eywa.session_locks``); batches of other sessions are not held up.

Another process over the same store (two API replicas over one Neo4j) numbers apart from
these locks: the store checks, in the write transaction, that a batch's first new seq is
still where its session continues (``EvidenceStore.add(..., numbered=True)``), and refuses a
batch numbered before another writer took its seqs (``SessionBusyError``; the replicas' race
itself: ``tests/neo4j/test_session_numbering_replicas.py``).
"""

from __future__ import annotations

import threading

import pytest

from eywa.batches import PreparedBatch, coerce_turns, prepare_batch
from eywa.errors import SessionBusyError
from eywa.reconcile import new_job
from eywa.signals import detect_signals
from tests.conformance.conftest import MemoryFactory

WRITERS = 8


def test_batches_of_one_session_written_at_once_get_distinct_consecutive_seqs(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    space = "numbering"
    mem.remember(space, [{"text": "Ana opened the thread.", "speaker": "Ana", "session": "s1"}], wait=False)
    start = threading.Barrier(WRITERS)
    written: dict[int, list[str]] = {}
    failures: list[BaseException] = []

    def write(i: int) -> None:
        start.wait()
        try:
            written[i] = mem.remember(space, [
                {"text": f"Ana's note number {i}.", "speaker": "Ana", "session": "s1"},
                {"text": f"Ben's answer to note {i}.", "speaker": "Ben", "session": "s1"},
            ], wait=False)  # fmt: skip
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            failures.append(exc)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert failures == [] and len(written) == WRITERS
    mem.wait()
    store = mem._stores.evidence  # noqa: SLF001 - the stored numbering is what is checked
    turns = store.get(space, list(store.ids(space)))
    assert sorted(e.seq for e in turns) == list(range(1 + 2 * WRITERS))
    seq = {e.id: e.seq for e in turns}
    for ids in written.values():  # each batch's two turns stay side by side, in their order
        assert seq[ids[1]] == seq[ids[0]] + 1


def test_a_batch_numbered_before_another_writer_took_its_seqs_writes_nothing(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    space = "numbered"
    store, jobs = mem._stores.evidence, mem._stores.jobs  # noqa: SLF001 - the store's contract is what is checked

    def prepared(*texts: str) -> PreparedBatch:
        turns = coerce_turns([{"text": t, "speaker": "Ines", "session": "s1"} for t in texts])
        return prepare_batch(space, turns, store, detect_signals)

    # Both numbered after the same stored turns (none: a new session), as two replicas do.
    late = prepared("Ines fixed the roof with Joaquim.", "Ines cleaned the gutter.")
    first = prepared("Ines planted beans.", "Ines watered the beans.")
    assert [e.seq for e in late.new] == [e.seq for e in first.new] == [0, 1]
    assert store.add(first.new, first.mentions, numbered=True) == first.ids
    job = new_job(space, late.ids)
    with pytest.raises(SessionBusyError) as busy:
        store.add(late.new, late.mentions, job=job, numbered=True)
    assert (busy.value.space, busy.value.sessions, busy.value.code) == (space, ("s1",), "session_busy")
    assert sorted(store.ids(space)) == sorted(first.ids)  # nothing of the refused batch: no turn,
    assert jobs.get_job(job.id) is None  # no job
    assert [e.name for e in store.entities(space)] == ["Ines"]  # no entity it mentions
    # Numbered again from a fresh read, it continues the session.
    again = prepared("Ines fixed the roof with Joaquim.", "Ines cleaned the gutter.")
    assert again.ids == late.ids and [e.seq for e in again.new] == [2, 3]
    assert store.add(again.new, again.mentions, numbered=True) == late.ids
    assert [e.name for e in store.entities(space)] == ["Ines", "Joaquim"]
    # Without ``numbered`` (an import of stored turns) the seqs are written as given.
    gap = prepared("Ines sold the harvest.")
    moved = [e.model_copy(update={"seq": 9}) for e in gap.new]
    assert store.add(moved, gap.mentions) == gap.ids
    turns = store.get(space, store.ids(space))
    assert sorted(e.seq for e in turns) == [0, 1, 2, 3, 9]
