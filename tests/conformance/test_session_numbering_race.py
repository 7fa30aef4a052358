"""Batches of one session written at the same moment number their turns one after the other.

A batch's new turns are numbered after the turns their session holds (``seq``), read before
the write; eight threads writing two-turn batches into one session at once (after one stored
turn) stored 17 turns with seqs 1 and 2 twice and 5 and 6 five times each, on the embedded
store as on Neo4j. ``Memory`` now numbers and writes the batches of one session one after the
other (``eywa.session_locks``); batches of other sessions are not held up.
"""

from __future__ import annotations

import threading

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
