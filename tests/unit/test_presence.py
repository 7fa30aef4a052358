"""``DirectoryWatch``: the embedded directory deleted, replaced or unreachable under the
process that opened it is told by a ``StoreError``, not answered from unlinked files."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from eywa.errors import StoreError
from eywa.stores.embedded.presence import DirectoryWatch


def _store(directory: Path) -> DirectoryWatch:
    directory.mkdir()
    (directory / "eywa.sqlite3").write_bytes(b"x")
    return DirectoryWatch(directory, "eywa.sqlite3")


def test_the_same_file_passes_and_a_deleted_directory_is_told(tmp_path: Path) -> None:
    watch = _store(tmp_path / "mem")
    watch.check()
    shutil.rmtree(tmp_path / "mem")
    with pytest.raises(StoreError, match="the data directory was deleted while this process had it open") as told:
        watch.check()
    assert told.value.code == "store_unavailable" and str(tmp_path) not in str(told.value)


def test_a_directory_replaced_by_another_store_is_told(tmp_path: Path) -> None:
    watch = _store(tmp_path / "mem")
    _store(tmp_path / "restored")
    shutil.rmtree(tmp_path / "mem")
    os.rename(tmp_path / "restored", tmp_path / "mem")  # a backup restored under the process
    with pytest.raises(StoreError, match="was replaced by another store"):
        watch.check()


def test_a_directory_that_cannot_be_read_is_told(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``chmod 000`` on the directory: simulated, since root (the test container) reads anyway."""
    watch = _store(tmp_path / "mem")

    def refused(path: object) -> os.stat_result:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(os, "stat", refused)
    with pytest.raises(StoreError, match=r"cannot be reached \(Permission denied\)"):
        watch.check()
