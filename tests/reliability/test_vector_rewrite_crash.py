"""Crash injection inside the rewrite of a vector shard after an erasure (embedded store,
``eywa.stores.embedded.shard_rewrite``): a child process erases a speaker and is SIGKILLed
after the new shard is complete and synced (``<kind>.rewritten``), after the old one was moved
aside (no ``<kind>`` at all), and after the swap before the old files were deleted — for the
evidence shard (the first rewrite) and the belief shard (the second).

Each time the next open finds a whole shard at ``<kind>``: it finishes the swap rather than
creating the shard empty (which would have every turn embedded again: no shortfall warning
here), the pending erasure finishes, the result equals an uninterrupted erasure, no rewrite
directory is left over, and no file under the directory holds an erased turn's vector.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.reliability.support import SPACE, corpus, open_memory, snapshot
from tests.reliability.test_crash_recovery import TURNS, crash
from tests.reliability.test_erasure_at_rest import found, vector_bytes

SPEAKER = "Greta"
CRASHES = [(point, n) for point in ("vector_shard_rewritten", "vector_shard_set_aside", "vector_shard_swapped")
           for n in (1, 2)]  # fmt: skip


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[bytes]]:
    """A store holding the corpus (copied for each crash), and the byte patterns of the
    speaker's turns' vectors."""
    directory = tmp_path_factory.mktemp("stored") / "mem"
    with open_memory(directory) as mem:
        mem.remember(SPACE, corpus(TURNS))
        turns = mem._stores.evidence.get(SPACE, mem._stores.evidence.ids(SPACE))
        needles = vector_bytes(mem, [t.id for t in turns if t.speaker == SPEAKER])
    assert found(directory, needles)
    return directory, needles


@pytest.fixture(scope="module")
def clean(stored: tuple[Path, list[bytes]], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    directory = tmp_path_factory.mktemp("clean") / "mem"
    shutil.copytree(stored[0], directory)
    with open_memory(directory) as mem:
        report = mem.forget(SPACE, speaker=SPEAKER)
        assert report.counts["turns"] == 40 and report.counts["beliefs"] > 0
        return snapshot(mem)


@pytest.mark.parametrize(("point", "occurrence"), CRASHES, ids=[f"{p}-{n}" for p, n in CRASHES])
def test_an_interrupted_rewrite_leaves_a_whole_shard_and_the_erasure_finishes(
    tmp_path: Path, stored: tuple[Path, list[bytes]], clean: dict[str, Any], point: str, occurrence: int,
    caplog: pytest.LogCaptureFixture,
) -> None:  # fmt: skip
    directory = tmp_path / "mem"
    shutil.copytree(stored[0], directory)
    crash(directory, point, occurrence, "forget", SPEAKER)
    leftovers = sorted(p.name for p in (directory / "vectors").iterdir() if "." in p.name)
    assert leftovers  # the crash did stop a rewrite midway
    with caplog.at_level(logging.WARNING), open_memory(directory) as mem:
        mem.wait()
        (record,) = mem.erasures(SPACE)
        assert record.state == "done"
        assert mem.erasure_proof(SPACE, record.id).total == 0
        assert snapshot(mem) == clean
    assert not [r.getMessage() for r in caplog.records if "fewer points" in r.getMessage()]
    assert not [p.name for p in (directory / "vectors").iterdir() if "." in p.name]
    assert found(directory, stored[1]) == {}
