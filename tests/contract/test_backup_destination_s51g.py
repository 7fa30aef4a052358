"""A backup destination the caller cannot write is the caller's input, not the store's fault.

``Memory.backup("/proc/x")`` (or a read-only mount, a directory of another user) failed
inside the copy as ``StoreError`` (``store_unavailable``: "sqlite store failed during backup
… No such file or directory"), as though the memory's own files were at fault, and a client
retrying a 503 would retry for ever. The destination is created and written to before a
byte is copied: a refusal there is ``InvalidInputError`` on ``dest``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from eywa.errors import InvalidInputError
from eywa.memory import Memory

PROC = Path("/proc/self")


@pytest.mark.skipif(not PROC.is_dir(), reason="needs a procfs, where no directory can be made")
def test_a_destination_the_file_system_will_not_create_is_an_input_error(memory: Memory) -> None:
    dest = PROC / "eywa-backup-copy"
    with pytest.raises(InvalidInputError) as refused:
        memory.backup(dest)
    assert refused.value.code == "invalid_input" and refused.value.problems[0].field == "dest"
    assert f"{dest} cannot be created or written" in str(refused.value)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes into any directory")
def test_an_empty_directory_that_cannot_be_written_is_an_input_error(memory: Memory, tmp_path: Path) -> None:
    dest = tmp_path / "locked"
    dest.mkdir(mode=0o500)
    try:
        with pytest.raises(InvalidInputError) as refused:
            memory.backup(dest)
    finally:
        dest.chmod(0o700)
    assert refused.value.problems[0].field == "dest" and list(dest.iterdir()) == []


def test_a_writable_destination_is_still_copied_and_left_without_the_probe(memory: Memory, tmp_path: Path) -> None:
    memory.remember("backup-s51g", [{"text": "I live in Oslo.", "speaker": "Tom"}], wait=True)
    report = memory.backup(tmp_path / "copy")
    assert "eywa.sqlite3" in report.files and report.turns >= 1
    assert sorted(p.name for p in (tmp_path / "copy").iterdir()) == sorted([*report.files, "erasure.key"])
