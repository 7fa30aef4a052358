"""Space quotas hold exactly when batches race (README, "Quotas are checked").

``EYWA_SPACE_MAX_TURNS`` / ``EYWA_SPACE_MAX_BYTES`` are checked in the batch's own Level 0
transaction (``EvidenceStore.add(..., quota=)``), after the space's write lock: batches of a
space sent at the same moment are checked one after the other, so together they never take
the space over its quota, and a refused batch leaves nothing (no turn, entity, job or mark).

Before, on Neo4j the check was a read before the write transaction: eight concurrent
batches of two turns into a space of five turns stored up to sixteen (each passed the check
against an empty space). The embedded store was exact already (its check ran under the
connection the write held); it now checks through the same call.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

from eywa import Memory
from eywa.contract import turn_bytes
from eywa.errors import QuotaExceededError
from eywa.reconcile import new_job
from eywa.stores.ledger import JobRecord
from tests.conformance.conftest import MemoryFactory

NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal")
WRITERS = len(NAMES)


def _batch(name: str) -> list[dict[str, Any]]:
    """Two turns of ``name``'s own session, of the same size for every name of three letters
    (``Cleo`` has four), mentioning only ``name`` (the speaker)."""
    return [
        {"text": f"{name} fed the cat at noon.", "speaker": name, "session": f"s-{name}"},
        {"text": f"{name} watered the plants.", "speaker": name, "session": f"s-{name}"},
    ]


def _race(writers: list[Callable[[], Any]]) -> list[BaseException | None]:
    """Run ``writers`` at once (one thread each, released together); each one's error or None."""
    start = threading.Barrier(len(writers))
    outcomes: list[BaseException | None] = [None] * len(writers)

    def run(index: int) -> None:
        start.wait()
        try:
            writers[index]()
        except BaseException as exc:  # noqa: BLE001 - reported to the test, which asserts on it
            outcomes[index] = exc

    threads = [threading.Thread(target=run, args=(i,), name=f"writer-{i}") for i in range(len(writers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    assert not any(thread.is_alive() for thread in threads)
    return outcomes


def _recording_jobs(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Record the id of the job each writer thread's batch was given (by thread name), landed
    or refused, so the test can look up a job whose id a refused caller never received."""
    made: dict[str, str] = {}

    def recording(*args: Any, **kwargs: Any) -> JobRecord:
        record = new_job(*args, **kwargs)
        made[threading.current_thread().name] = record.id
        return record

    monkeypatch.setattr("eywa.memory.new_job", recording)
    return made


def _check_race(
    memories: list[Memory], space: str, quota: str, limit: int, used: Callable[[Memory], int],
    monkeypatch: pytest.MonkeyPatch,
) -> int:
    """Eight writers (spread over ``memories``) each send a distinct two-turn batch to
    ``space`` at once; returns how many landed, after checking that none went over ``limit``
    (``used`` reads what the space holds in the quota's unit), that each batch landed whole
    or was refused with ``QuotaExceededError`` naming ``quota``, and that a refused batch
    left no turn, entity, job or pending mark."""
    jobs = _recording_jobs(monkeypatch)
    landed: dict[int, list[str]] = {}

    def writer(index: int) -> Callable[[], Any]:
        mem = memories[index % len(memories)]

        def write() -> None:
            ids, _ = mem.remember_job(space, _batch(NAMES[index]), author="k", wait=False)
            landed[index] = ids

        return write

    outcomes = _race([writer(i) for i in range(WRITERS)])
    for mem in memories:
        mem.wait()
    refused = [i for i, exc in enumerate(outcomes) if exc is not None]
    for i in refused:
        exc = outcomes[i]
        assert isinstance(exc, QuotaExceededError), repr(exc)
        assert (exc.quota, exc.limit, exc.wanted) == (quota, limit, used_by(_batch(NAMES[i]), quota))
        assert exc.used + exc.wanted > limit
    assert sorted(landed) == [i for i in range(WRITERS) if i not in refused]
    reader = memories[0]
    assert used(reader) <= limit
    stored = sorted(reader._stores.evidence.ids(space))  # noqa: SLF001 - what the store holds
    assert stored == sorted(i for ids in landed.values() for i in ids)  # each landed batch whole, no other
    assert len(stored) == 2 * len(landed)
    assert reader.stats(space)["entities"] == len(landed)  # a refused batch's speaker is no entity
    for i in range(WRITERS):
        record = reader._stores.jobs.get_job(jobs[f"writer-{i}"])  # noqa: SLF001
        assert (record is not None) == (i in landed), i  # a refused batch recorded no job
    backlog = reader._stores.ledger.space_backlog(space)  # noqa: SLF001
    assert (backlog.embed, backlog.level1) == (0, 0)  # no mark waits for a turn that is not there
    return len(landed)


def used_by(batch: list[dict[str, Any]], quota: str) -> int:
    """What ``batch`` costs of ``quota`` (turns, or bytes as ``turn_bytes`` counts them)."""
    return len(batch) if quota == "turns" else sum(turn_bytes(t["text"], {}) for t in batch)


def test_concurrent_batches_never_take_a_space_over_its_turn_quota(
    open_memory: MemoryFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A quota of five turns holds two of the eight two-turn batches: exactly two land."""
    mem = open_memory(space_max_turns=5)
    for round_ in range(3):
        space = f"quota-{round_}"

        def turns(m: Memory, space: str = space) -> int:
            return int(m.stats(space)["evidence"])

        landed = _check_race([mem], space, "turns", 5, turns, monkeypatch)
        assert landed == 2  # checked one after the other: refused only once the next would not fit


def test_concurrent_batches_never_take_a_space_over_its_bytes_quota(
    open_memory: MemoryFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bytes quota of two and a half batches (of the three-letter names) lands at most two."""
    size = used_by(_batch("Ana"), "bytes")
    limit = size * 5 // 2
    mem = open_memory(space_max_bytes=limit)
    for round_ in range(3):
        space = f"bytes-{round_}"

        def held(m: Memory, space: str = space) -> int:
            return m._stores.evidence.usage(space).bytes  # noqa: SLF001 - the figure the quota counts

        landed = _check_race([mem], space, "bytes", limit, held, monkeypatch)
        assert landed == 2  # two batches fit (Cleo's is two bytes larger), a third never does


def test_a_space_at_its_quota_still_takes_resent_turns(open_memory: MemoryFactory) -> None:
    """Re-sent turns cost nothing: a full space still takes a batch it holds already, and a
    batch mixing stored turns with one new turn is counted by the new turn alone."""
    mem = open_memory(space_max_turns=4)
    first = mem.remember("full", _batch("Ana"), wait=False)
    mem.remember("full", _batch("Ben"), wait=False)
    assert mem.remember("full", _batch("Ana"), wait=False) == first
    with pytest.raises(QuotaExceededError) as info:
        mem.remember("full", [*_batch("Ana"), {"text": "Ana slept.", "speaker": "Ana", "session": "s-Ana"}], wait=False)
    assert (info.value.used, info.value.wanted, info.value.limit) == (4, 1, 4)
    mem.wait()
    assert mem.stats("full")["evidence"] == 4


def test_erased_turns_free_their_share_of_the_quota(open_memory: MemoryFactory) -> None:
    """The check counts what the space holds when the batch is written (no counter to keep):
    once a turn of a full space is forgotten, a batch of one new turn fits again."""
    mem = open_memory(space_max_turns=4)
    ids = mem.remember("freed", [*_batch("Ana"), *_batch("Ben")], wait=True)
    one = [{"text": "Cleo slept.", "speaker": "Cleo", "session": "s-Cleo"}]
    with pytest.raises(QuotaExceededError):
        mem.remember("freed", one, wait=False)
    mem.forget("freed", evidence_ids=[ids[0]])
    assert len(mem.remember("freed", one, wait=False)) == 1
    with pytest.raises(QuotaExceededError) as info:
        mem.remember("freed", [{"text": "Dev slept.", "speaker": "Dev", "session": "s-Dev"}], wait=False)
    assert (info.value.used, info.value.wanted) == (4, 1)
    mem.wait()
    assert mem.stats("freed")["evidence"] == 4
