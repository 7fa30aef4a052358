"""The space quotas' usage counts (store format 8: one row per space, kept by the writes that
add and remove turns) after a SIGKILL at a commit boundary of ``remember`` or ``forget``,
reopen and the client's retry: they equal a full recount of the turns the space holds, so
the quota refuses exactly the turn a clean run would refuse and no other.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from eywa.contract import SpaceUsage, turn_bytes
from eywa.errors import QuotaExceededError
from eywa.memory import Memory
from tests.reliability.support import SPACE, corpus, open_memory, store_corpus
from tests.reliability.test_crash_recovery import TURNS, crash

# (what the child does, the point it is killed at, the occurrence)
CRASHES = [
    ("remember", "level0_committed", 1),
    ("remember", "level1_batch_written", 3),
    ("forget", "erasure_beliefs_removed", 1),  # embedded: rolled back with the turns
    ("forget", "erasure_vectors_rebuilt", 1),
]
EXTRA = [{"text": "Nadia booked a table at Globex's canteen.", "speaker": "Nadia", "session": "q1"}]


def recount(mem: Memory) -> SpaceUsage:
    turns = mem._stores.evidence.get(SPACE, mem._stores.evidence.ids(SPACE))
    return SpaceUsage(turns=len(turns), bytes=sum(turn_bytes(t.text, t.metadata) for t in turns))


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return store_corpus(tmp_path_factory, TURNS)


@pytest.mark.parametrize(("mode", "point", "occurrence"), CRASHES, ids=[f"{m}-{p}" for m, p, _ in CRASHES])
def test_the_usage_counts_after_a_crash_and_retry_equal_a_recount(
    tmp_path: Path, stored: Path, mode: str, point: str, occurrence: int
) -> None:
    directory = tmp_path / "mem"
    if mode == "forget":
        shutil.copytree(stored, directory)
        crash(directory, point, occurrence, "forget", "Greta")
    else:
        crash(directory, point, occurrence)
    with open_memory(directory) as mem:
        mem.wait()
        if mode == "forget":  # the client's retry (answered by the record if it landed)
            mem.forget(SPACE, speaker="Greta")
        else:
            mem.remember(SPACE, corpus(TURNS))
        used = recount(mem)
        assert used.turns == (TURNS - 40 if mode == "forget" else TURNS)
        assert mem._stores.evidence.usage(SPACE) == used
    with open_memory(directory, space_max_turns=used.turns) as mem:  # full, to the turn
        if mode == "remember":
            mem.remember(SPACE, corpus(TURNS))  # re-sent turns take no room
        with pytest.raises(QuotaExceededError) as refused:
            mem.remember(SPACE, EXTRA)
        assert (refused.value.used, refused.value.limit) == (used.turns, used.turns)
