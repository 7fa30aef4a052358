"""A store SQLite cannot write is a ``store_unavailable`` line, never a traceback.

Found by probing (s30): on a read-only file system, or beside a ``-wal`` / ``-shm`` that is
not a file, ``eywa stats`` and ``eywa audit --list`` ended in an ``OperationalError``
traceback (the connection's pragmas and the stores' schema transaction were not wrapped),
and ``eywa recall`` and ``Memory.open`` raised it too. A ``-wal`` made a directory stands in
for a read-only mount here, which a test run as root could not otherwise make.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from eywa.cli import app
from eywa.errors import StoreError
from tests.contract.conftest import open_memory


@pytest.fixture(params=["-wal", "-shm"])
def blocked(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """An embedded memory whose WAL (or shared-memory) file is a directory SQLite cannot open."""
    directory = tmp_path / "memory"
    with open_memory(directory) as memory:
        memory.remember("s", [{"text": "I live in Porto.", "speaker": "Ana"}])
    for leftover in ("eywa.sqlite3-wal", "eywa.sqlite3-shm"):
        (directory / leftover).unlink(missing_ok=True)
    (directory / f"eywa.sqlite3{request.param}").mkdir()
    return directory


@pytest.mark.parametrize(
    "args", [["stats", "--space", "s"], ["audit", "--list"], ["recall", "--space", "s", "Where does Ana live?"]],
    ids=["stats", "audit", "recall"],
)  # fmt: skip
def test_a_store_sqlite_cannot_write_is_one_store_unavailable_line(
    runner: CliRunner, blocked: Path, args: list[str]
) -> None:
    result = runner.invoke(app, [*args, "--data-dir", str(blocked)])
    assert result.exit_code == 1 and result.exception is None or isinstance(result.exception, SystemExit), result
    assert "Traceback" not in result.output and result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("error: sqlite store failed during ") and line.endswith("[store_unavailable]"), line
    assert str(blocked / "eywa.sqlite3") in line  # the file is named


def test_memory_open_raises_a_store_error_and_leaves_the_directory_unlocked(blocked: Path) -> None:
    for _ in range(2):  # the second finds the same fault, not a lock the first left held (directory_in_use)
        with pytest.raises(StoreError, match="^sqlite store failed during (open|begin): .*eywa.sqlite3") as failed:
            open_memory(blocked)
        assert failed.value.code == "store_unavailable"
