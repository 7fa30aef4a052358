"""A space's usage (the turns and bytes its quotas count, ``EvidenceStore.usage``) is kept by
counters in the transactions that add and remove turns, and always equals a full count of
what the space holds: after writes (batches re-sent, several spaces, an import), erasures by
id, by speaker and of a whole space, and retention, on every backend; and a quota reads the
counters (``tests/conformance/test_quota_races.py`` checks the quota itself under races).

Before, the check counted and summed the space's turns inside every write transaction, so a
write's cost grew with the space (README "Quotas are checked")."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
import time_machine

from eywa import Memory
from eywa.contract import SpaceUsage, turn_bytes
from eywa.errors import QuotaExceededError
from tests.conformance.conftest import MemoryFactory

SPACES = ("ana", "ben", "cleo")


def _turns(space: str, n: int, start: int = 0, **extra: Any) -> list[dict[str, Any]]:
    """``n`` turns of different sizes (ASCII and not, with and without metadata)."""
    return [
        {"text": f"{space} turn {i}: {'é' * (i % 5)} the cat sat {'x' * (i * 7 % 31)}.",
         "speaker": ("Ana", "Ben")[i % 2], "session": f"{space}-s{i % 3}",
         "metadata": {"i": i, "note": "ü" * (i % 4)} if i % 2 else {}, **extra}
        for i in range(start, start + n)
    ]  # fmt: skip


def _stores(mem: Memory) -> Any:
    return mem._stores  # noqa: SLF001 - the counters and the full count are store-level figures


def assert_counts_exact(mem: Memory, spaces: tuple[str, ...] = SPACES) -> dict[str, SpaceUsage]:
    """Every space's counters equal the full count of its turns; returns them."""
    evidence = _stores(mem).evidence
    found = {space: evidence.usage(space) for space in spaces}
    assert found == {space: evidence.counted_usage(space) for space in spaces}
    return found


def test_usage_counters_equal_a_recount_after_writes_erasures_and_retention(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    today = datetime.now(timezone.utc)
    assert assert_counts_exact(mem) == dict.fromkeys(SPACES, SpaceUsage(turns=0, bytes=0))
    written = {space: _turns(space, 9) for space in SPACES}
    for space, turns in written.items():
        mem.remember(space, turns[:5], wait=True)
        mem.remember(space, turns[3:], wait=True)  # two turns re-sent: counted once
    usage = assert_counts_exact(mem)
    assert usage["ana"] == SpaceUsage(
        turns=9, bytes=sum(turn_bytes(t["text"], t["metadata"]) for t in written["ana"])
    )

    ids = mem.remember("ana", _turns("ana", 4, start=100), wait=True)
    mem.forget("ana", evidence_ids=ids[:2])
    mem.forget("ben", speaker="Ben")
    assert assert_counts_exact(mem)["ana"].turns == 11

    with time_machine.travel(today + timedelta(days=40), tick=False):
        mem.remember("cleo", _turns("cleo", 3, start=200), wait=True)
    with time_machine.travel(today + timedelta(days=61), tick=False):
        (report,) = mem.apply_retention({"cleo": 30})  # the first nine go, the three later ones stay
    assert report.counts["turns"] == 9
    assert assert_counts_exact(mem)["cleo"].turns == 3

    mem.drop_space("ana")
    assert assert_counts_exact(mem)["ana"] == SpaceUsage(turns=0, bytes=0)
    mem.remember("ana", _turns("ana", 2, start=300), wait=True)  # a dropped space fills again
    assert assert_counts_exact(mem)["ana"].turns == 2


def test_concurrent_and_re_sent_batches_count_each_turn_once(open_memory: MemoryFactory) -> None:
    """Eight threads send overlapping batches (each turn sent by two of them at once) into
    one space: the counters equal the count of what is stored."""
    mem = open_memory()
    turns = _turns("ana", 16)
    errors: list[BaseException] = []

    def send(n: int) -> None:
        try:
            mem.remember("ana", turns[2 * n : 2 * n + 4], wait=False)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=send, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    mem.wait()
    assert assert_counts_exact(mem, ("ana",))["ana"].turns == 16


def test_a_quota_reads_the_counters(open_memory: MemoryFactory) -> None:
    """The quota counts what the counters hold, erasures included: a space at its quota takes
    a new turn once one was forgotten."""
    mem = open_memory(space_max_turns=4)
    ids = mem.remember("ana", _turns("ana", 4), wait=True)
    with pytest.raises(QuotaExceededError):
        mem.remember("ana", _turns("ana", 1, start=50), wait=True)
    mem.forget("ana", evidence_ids=ids[:1])
    assert len(mem.remember("ana", _turns("ana", 1, start=50), wait=True)) == 1
    assert assert_counts_exact(mem, ("ana",))["ana"].turns == 4
