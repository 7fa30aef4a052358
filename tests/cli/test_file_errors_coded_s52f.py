"""A file a command was given that cannot be opened, read or written is refused with a code,
and ``eywa export --out`` writes a device, a pipe or a link's file where it is.

``eywa import missing.jsonl``, ``eywa import <a directory>``, ``eywa ingest missing.json`` and
``eywa export --out /proc/x`` printed ``error: No such file or directory: …`` with no
``[code]``, where every other refusal ends in one: the caller's path is ``invalid_input``,
as ``eywa backup --to`` says of a destination it cannot write.

``export`` writes through a temporary file renamed onto the name asked for, so that an
interrupted export leaves no truncated file; renamed onto a named pipe (or, run as root, onto
``/dev/null``) it replaced the pipe or device itself with a regular file, and onto a
symbolic link it replaced the link.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from eywa.cli import app


@pytest.fixture
def memory_dir(runner: CliRunner, tmp_path: Path) -> str:
    turns = tmp_path / "turns.jsonl"
    turns.write_text(json.dumps({"text": "I work at Initech.", "speaker": "Priya"}) + "\n")
    data = str(tmp_path / "m")
    assert runner.invoke(app, ["ingest", str(turns), "--space", "home", "--data-dir", data]).exit_code == 0
    return data


def _refused_with_a_code(result: object, path: str) -> None:
    output, stderr, code = getattr(result, "output"), getattr(result, "stderr"), getattr(result, "exit_code")
    assert code == 1, output
    line = stderr.strip()
    assert path in line and line.endswith("[invalid_input]"), line
    assert "Traceback" not in output


def test_an_import_file_that_cannot_be_read_is_invalid_input(runner: CliRunner, tmp_path: Path) -> None:
    missing, folder = tmp_path / "missing.jsonl", tmp_path / "folder"
    folder.mkdir()
    for path in (missing, folder):
        refused = runner.invoke(app, ["import", str(path), "--space", "home", "--data-dir", str(tmp_path / "m")])
        _refused_with_a_code(refused, str(path))
    assert not (tmp_path / "m").exists()


def test_an_ingest_file_that_is_missing_is_invalid_input(runner: CliRunner, tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    refused = runner.invoke(app, ["ingest", str(missing), "--space", "home", "--data-dir", str(tmp_path / "m")])
    _refused_with_a_code(refused, str(missing))


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs a procfs, where no file can be made")
def test_an_export_that_cannot_be_written_is_invalid_input(runner: CliRunner, memory_dir: str) -> None:
    target = "/proc/self/eywa-export.jsonl"
    refused = runner.invoke(app, ["export", "--space", "home", "--out", target, "--data-dir", memory_dir])
    _refused_with_a_code(refused, target)


def test_an_export_to_a_named_pipe_is_written_into_the_pipe(runner: CliRunner, tmp_path: Path, memory_dir: str) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    reader = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)  # open first: the export's open then does not wait
    try:
        exported = runner.invoke(app, ["export", "--space", "home", "--out", str(pipe), "--data-dir", memory_dir])
        assert exported.exit_code == 0, exported.output
        assert stat.S_ISFIFO(pipe.lstat().st_mode)  # still the pipe, not a regular file put in its place
        received = os.read(reader, 1 << 16).decode()
    finally:
        os.close(reader)
    assert json.loads(received.splitlines()[0])["kind"] == "header" and '"kind":"turn"' in received


def test_an_export_to_a_link_replaces_the_file_it_names(runner: CliRunner, tmp_path: Path, memory_dir: str) -> None:
    real, link = tmp_path / "real.jsonl", tmp_path / "link.jsonl"
    real.write_text("old\n")
    link.symlink_to(real)
    exported = runner.invoke(app, ["export", "--space", "home", "--out", str(link), "--data-dir", memory_dir])
    assert exported.exit_code == 0, exported.output
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert json.loads(real.read_text().splitlines()[0])["kind"] == "header"
