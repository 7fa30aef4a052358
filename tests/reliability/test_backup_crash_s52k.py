"""Crash injection in ``backup``: a child process backs up a store that holds an erasure and
is SIGKILLed between the backup's steps (``eywa.stores.embedded.backup``: each SQLite file
copied, the erasure key copied, the copy's vectors marked for embedding). A copy that opens
must be the copy a finished backup makes (the same turns, beliefs, dimensions and vectors
once embedded, and erasure proofs that can still check content), or be refused on open.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from eywa.errors import EywaError
from eywa.memory import Memory
from eywa.stores.embedded.backup import INCOMPLETE_MARKER
from tests.reliability.support import SPACE, corpus, open_memory, snapshot
from tests.reliability.test_crash_recovery import TURNS, crash

BACKUP = "eywa.stores.embedded.backup"


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("source") / "mem"
    with open_memory(directory) as mem:
        mem.remember(SPACE, corpus(TURNS))
        mem.forget(SPACE, speaker="Greta")
    return directory


def restored(mem: Memory) -> dict[str, Any]:
    """``snapshot`` once the copy's vectors are embedded, with each erasure's proof (its
    ``same_text_kept`` counts remaining turns whose text an erased one had: keyed with the
    store's secret, so a copy without the secret finds none)."""
    mem.wait()
    proofs = [mem.erasure_proof(SPACE, e.id) for e in mem.erasures(SPACE)]
    return {**snapshot(mem), "proofs": [(p.total, p.same_text_kept) for p in proofs]}


@pytest.fixture(scope="module")
def whole(source: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    copy = tmp_path_factory.mktemp("whole") / "copy"
    with open_memory(source) as mem:
        mem.backup(copy)
    with open_memory(copy) as mem:
        found = restored(mem)
    assert found["proofs"][0][0] == 0 and found["proofs"][0][1] > 0
    return found


def opened_copy(copy: Path) -> dict[str, Any] | None:
    """The copy as a memory opens it, or None when the open refuses it."""
    try:
        with open_memory(copy) as mem:
            return restored(mem)
    except EywaError:
        return None


def refusal(copy: Path) -> str | None:
    """The code with which opening ``copy`` is refused, or None when it opens."""
    try:
        with open_memory(copy):
            return None
    except EywaError as exc:
        return exc.code


@pytest.mark.parametrize(
    ("after", "left"),
    [
        ("_copy_sqlite", [INCOMPLETE_MARKER, "eywa.sqlite3"]),  # no erasure key yet
        ("_copy_secret", [INCOMPLETE_MARKER, "erasure.key", "eywa.sqlite3"]),  # vectors not yet marked
    ],
)  # fmt: skip
def test_a_backup_killed_before_it_finished_is_refused_on_open(
    tmp_path: Path, source: Path, after: str, left: list[str]
) -> None:
    """A copy killed after its database but before its key file opened as a memory of its own,
    made a new erasure key, and its proofs found none of the erased content (0 same-text turns
    of 67); killed after every file but before its vectors were marked, it opened too. A
    backup is whole only once it returns: until then its destination carries
    ``INCOMPLETE_MARKER`` and an open refuses it, naming what to do, and writes nothing."""
    copy = tmp_path / "copy"
    crash(source, f"after:{BACKUP}:{after}", 1, "backup", str(copy))
    assert sorted(os.listdir(copy)) == left
    assert refusal(copy) == "configuration_error"
    assert sorted(os.listdir(copy)) == left  # the refused open made no key, no vectors, no lock


def test_a_finished_backup_carries_no_mark_and_opens_whole(tmp_path: Path, source: Path, whole: dict[str, Any]) -> None:
    copy = tmp_path / "copy"
    with open_memory(source) as mem:
        mem.backup(copy)
    assert INCOMPLETE_MARKER not in os.listdir(copy)
    assert opened_copy(copy) == whole
