"""A disk too full for the vector shards refuses, and loses nothing (``eywa.stores.embedded.room``).

Qdrant Edge writes through memory-mapped files: on a full file system the kernel ends the
process with SIGBUS (reproduced on a small tmpfs; ``tests/reliability/test_full_disk_sigbus.py``
runs that where a tmpfs can be mounted). Here the file system's answer is simulated
(``shutil.disk_usage``): a waited ``remember`` is refused with a ``StoreError`` after its
turns are stored, their vectors pending as when the embedder fails; with room again a
reconcile embeds them and recall finds them by vector. An open on a full disk is refused.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from eywa.errors import StoreError
from eywa.stores.embedded import room
from tests.contract.conftest import open_memory

TURNS = [{"text": "I moved to Porto last spring.", "speaker": "Ana"}, {"text": "I adopted a cat.", "speaker": "Ana"}]


class Usage(NamedTuple):
    total: int
    used: int
    free: int


@pytest.fixture
def disk(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """The free bytes the file system reports, settable by the test."""
    state = {"free": 10 * 2**30}
    real = shutil.disk_usage

    def usage(path: Any) -> Usage:
        found = real(path)
        return Usage(found.total, found.total - state["free"], state["free"])

    monkeypatch.setattr(shutil, "disk_usage", usage)
    yield state


def test_a_vector_write_without_room_is_refused_and_embedded_once_there_is_room(
    tmp_path: Path, disk: dict[str, int]
) -> None:
    with open_memory(tmp_path / "mem") as memory:
        disk["free"] = room.FLOOR_BYTES - 1  # the floor is not there: no vector write
        with pytest.raises(StoreError, match="KiB free on the vectors' disk.*SIGBUS.*stays pending") as refused:
            memory.remember("s", TURNS, wait=True)
        assert refused.value.code == "store_unavailable"
        assert memory.stats("s")["evidence"] == 2 and memory.pending("s").embed == 2  # stored, owed a vector
        assert memory._stores.vectors.count("evidence", "s") == 0
        disk["free"] = 10 * 2**30
    with open_memory(tmp_path / "mem") as memory:  # the next open embeds them (a failed mark otherwise waits for its retry)
        memory.wait()
        assert memory.pending("s").embed == 0
        assert memory._stores.vectors.count("evidence", "s") == 2
        assert any("vector" in item.routes for item in memory.recall("s", "Where did Ana move?").items)


def test_an_open_on_a_full_disk_is_refused_before_the_shards_load(tmp_path: Path, disk: dict[str, int]) -> None:
    open_memory(tmp_path / "mem").close()
    disk["free"] = 4096
    with pytest.raises(StoreError, match="needed to open: refused"):
        open_memory(tmp_path / "mem")
    disk["free"] = 10 * 2**30
    open_memory(tmp_path / "mem").close()  # the refused open left the directory usable (its lock too)
