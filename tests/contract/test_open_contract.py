"""``Memory.open`` and ``Memory.connect`` check their own inputs like every other call: a
directory the file system cannot take and settings that are not ``EywaSettings`` are an
``InvalidInputError`` naming the argument, before anything is opened or created."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from eywa.errors import InvalidInputError
from eywa.memory import Memory
from eywa.settings import EywaSettings


@pytest.mark.parametrize(
    ("path", "why"),
    [
        (123, "must be a directory path, got int"),  # TypeError from os.fspath before
        ("memory\x00dir", "without NUL"),  # ValueError from the file system before
        ("memory\ud800dir", "encodable as a file name"),  # UnicodeEncodeError before
        ("", "non-empty"),  # opened (and created) a store in the current directory before
        ("m" * 300, "the file system cannot take this path"),  # OSError ENAMETOOLONG before
        (f"{'m' * 300}/sub", "the file system cannot take this path"),
    ],
    ids=["number", "nul", "lone-surrogate", "empty", "name-too-long", "under-a-name-too-long"],
)
def test_a_directory_the_file_system_cannot_take_is_refused_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: Any, why: str
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InvalidInputError, match=f"^path: .*{why}") as refused:
        Memory.open(path, settings=EywaSettings(data_dir=tmp_path / "default"))
    assert [p.field for p in refused.value.problems] == ["path"]
    assert list(tmp_path.iterdir()) == []  # nothing created, here or at the default


@pytest.mark.parametrize("under", ["", "sub"], ids=["the-file", "under-the-file"])
def test_a_directory_that_is_an_existing_file_is_an_input_error_naming_it(tmp_path: Path, under: str) -> None:
    """mkdir's FileExistsError (NotADirectoryError under the file) was reported as a
    StoreError, code store_unavailable, as though the disk had failed: it is the caller's."""
    taken = tmp_path / "notes.txt"
    taken.write_text("not a memory")
    opens: tuple[Callable[[], Memory], ...] = (
        lambda: Memory.open(taken / under, settings=EywaSettings(data_dir=tmp_path / "d")),
        lambda: Memory.open(settings=EywaSettings(data_dir=taken / under)),
    )
    for call in opens:
        with pytest.raises(InvalidInputError, match=f"^(path|data_dir): {taken} is a file, not a directory$") as refused:
            call()
        assert refused.value.code == "invalid_input"
    assert taken.read_text() == "not a memory" and sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_a_data_dir_in_settings_is_checked_alike(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="^data_dir: "):
        Memory.open(settings=EywaSettings(data_dir=Path("memory\x00dir")))


def test_a_backup_destination_the_file_system_cannot_take_is_refused_naming_it(tmp_path: Path) -> None:
    """Found by probing: a destination name over 255 bytes was an OSError (File name too long)."""
    with Memory.open(tmp_path / "mem", settings=EywaSettings(data_dir=tmp_path / "unused")) as memory:
        with pytest.raises(InvalidInputError, match="^dest: the file system cannot take this path") as refused:
            memory.backup(tmp_path / ("b" * 300))
    assert [p.field for p in refused.value.problems] == ["dest"]


@pytest.mark.parametrize("open_memory", [Memory.open, Memory.connect], ids=["open", "connect"])
def test_settings_that_are_not_eywa_settings_are_refused(tmp_path: Path, open_memory: Any) -> None:
    """A mapping reached the opening as an AttributeError ('dict' has no 'embedder')."""
    arguments = {"settings": {"data_dir": str(tmp_path)}}
    with pytest.raises(InvalidInputError, match="^settings: must be EywaSettings") as refused:
        open_memory(**arguments)
    # The way it names to make settings exists (it named ``eywa.load_settings()``, which does not).
    named = re.search(r"\((eywa\.[\w.]+)\(\)\)", str(refused.value))
    assert named is not None, str(refused.value)
    module, _, function = named.group(1).rpartition(".")
    assert callable(getattr(importlib.import_module(module), function, None)), named.group(1)


def test_a_good_path_still_opens_and_a_path_like_is_a_path(tmp_path: Path) -> None:
    with Memory.open(tmp_path / "mem", settings=EywaSettings(data_dir=tmp_path / "unused")) as memory:
        memory.remember("s", [{"text": "I live in Porto.", "speaker": "Ana"}])
    with Memory.open(str(tmp_path / "mem"), settings=EywaSettings(data_dir=tmp_path / "unused")) as memory:
        assert memory.stats("s")["evidence"] == 1
    assert not (tmp_path / "unused").exists()


@pytest.mark.parametrize(("plugins", "field"), [({"embedder": 5}, "embedder"), ({"extractor": object()}, "extractor")])
def test_an_embedder_or_extractor_without_its_members_is_an_input_error(
    tmp_path: Path, plugins: dict[str, object], field: str
) -> None:
    # Found by probing: each was an AttributeError ('int' object has no attribute 'dim'; the
    # extractor's 'name'), from inside the open.
    with pytest.raises(InvalidInputError) as info:
        Memory.open(tmp_path / "m", settings=EywaSettings(data_dir=tmp_path / "m"), **plugins)  # type: ignore[arg-type]
    assert [p.field for p in info.value.problems] == [field]
