"""The embedded erasure key (``<data dir>/erasure.key``) on a disk that fills up.

It was made by the first erasure: a ``forget`` on a disk that had filled since the memory
opened failed for want of 64 bytes, and a write cut short left an empty file that the next
call read back as an empty secret, keying every later record with it. Now it is made when
the memory opens, written whole or not at all, and a short key is refused by name. The full
disk is simulated (``ENOSPC`` from the file calls): a real one needs a mount this test
cannot make without root.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest

from eywa import Memory
from eywa.errors import StoreError
from eywa.settings import EywaSettings
from tests.reliability.support import HashEmbedder

TURN = {"text": "I live in Lyon.", "speaker": "Ana"}


def _open(directory: Path) -> Memory:
    return Memory.open(directory, embedder=HashEmbedder(), settings=EywaSettings(data_dir=directory))


def _full(*_: Any, **__: Any) -> Any:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_the_key_is_made_at_open_so_a_forget_after_the_disk_filled_needs_no_new_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _open(tmp_path / "m") as mem:
        assert (tmp_path / "m" / "erasure.key").stat().st_size == 64  # before any erasure
        mem.remember("s", [TURN])
        real_open = os.open

        def no_new_key(path: Any, *args: Any, **kwargs: Any) -> int:
            if "erasure.key" in str(path):
                _full()
            return real_open(path, *args, **kwargs)

        monkeypatch.setattr(os, "open", no_new_key)  # the disk filled: no key file can be made
        assert mem.forget("s", speaker="Ana").counts["turns"] == 1


def test_a_key_write_cut_short_leaves_no_key_and_the_next_open_makes_a_whole_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "fsync", _full)  # the disk fills while the key is written
    with _open(tmp_path / "m") as mem:  # the open is not refused for it ...
        assert not (tmp_path / "m" / "erasure.key").exists()
        assert [p.name for p in (tmp_path / "m").iterdir() if p.name.startswith("erasure.key")] == []
        mem.remember("s", [TURN])
        with pytest.raises(StoreError, match="erasure secret.*No space left on device"):
            mem.forget("s", speaker="Ana")  # ... the erasure that needs it is, clearly
        assert mem.spaces() == ["s"]  # and nothing was erased
    monkeypatch.undo()
    with _open(tmp_path / "m") as mem:
        assert len(mem._stores.erasure.secret()) == 32
        assert mem.forget("s", speaker="Ana").counts["turns"] == 1


def test_a_short_key_is_refused_by_name_not_used_as_an_empty_secret(tmp_path: Path) -> None:
    _open(tmp_path / "m").close()
    (tmp_path / "m" / "erasure.key").write_text("")  # what a full disk left before
    with _open(tmp_path / "m") as mem:
        mem.remember("s", [TURN])
        with pytest.raises(StoreError, match=r"erasure.key holds 0 bytes, not 32"):
            mem.forget("s", speaker="Ana")
        assert mem.spaces() == ["s"]
