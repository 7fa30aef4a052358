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


def test_a_backup_killed_before_marking_its_vectors_opens_as_a_finished_one(
    tmp_path: Path, source: Path, whole: dict[str, Any]
) -> None:
    """Every file copied, the copy's vectors not yet marked: the open finds the vectors its
    ledger counts as embedded missing and embeds them, as for a finished backup."""
    copy = tmp_path / "copy"
    crash(source, f"after:{BACKUP}:_copy_secret", 1, "backup", str(copy))
    assert sorted(os.listdir(copy)) == ["erasure.key", "eywa.sqlite3"]
    assert opened_copy(copy) in (None, whole)


@pytest.mark.xfail(
    strict=True,
    reason="eywa/stores/embedded/backup.py backup_directory (lines 84-91): the database is copied before the "
    "erasure key (and before keys.sqlite), and nothing marks the copy unfinished, so a copy killed in between "
    "opens, makes a new erasure key and its proofs no longer match erased content",
)
def test_a_backup_killed_after_its_database_is_refused_or_whole(
    tmp_path: Path, source: Path, whole: dict[str, Any]
) -> None:
    copy = tmp_path / "copy"
    crash(source, f"after:{BACKUP}:_copy_sqlite", 1, "backup", str(copy))
    assert sorted(os.listdir(copy)) == ["eywa.sqlite3"]  # no erasure key
    assert opened_copy(copy) in (None, whole)
