"""A turns file whose JSON names a key twice in one object is refused by ``eywa ingest``.

``json.loads`` keeps the last of two values given for one key: a JSON lines turn saying
``"speaker": "Bo", "speaker": "Tom"`` was ingested as Tom's, a LoCoMo file whose turn named
its speaker twice the same. Every surface refuses such JSON (``eywa.json_text``); ingest
names the line (or, in a JSON document, the key's path), with ``[invalid_input]``, and
ingests nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from eywa.cli import app


def _ingest(runner: CliRunner, data: Path, file: Path) -> object:
    return runner.invoke(app, ["ingest", str(file), "--space", "home", "--data-dir", str(data)])


def test_a_json_lines_turn_naming_a_key_twice_is_refused(runner: CliRunner, tmp_path: Path) -> None:
    turns = tmp_path / "turns.jsonl"
    turns.write_text(json.dumps({"text": "I work at Initech.", "speaker": "Nadia"})
                     + '\n{"text": "I live in Oslo.", "speaker": "Bo", "speaker": "Tom"}\n')  # fmt: skip
    refused = _ingest(runner, tmp_path / "m", turns)
    assert getattr(refused, "exit_code") == 1, getattr(refused, "output")
    line = getattr(refused, "stderr").strip()
    assert line == (f"error: {turns}: line 2: key speaker: given more than once in its JSON object; give each key once "
                    "[invalid_input]"), line  # fmt: skip
    assert not (tmp_path / "m").exists()  # refused before a memory is made: nothing ingested


def test_a_json_document_naming_a_key_twice_is_refused_naming_the_path(runner: CliRunner, tmp_path: Path) -> None:
    turns = tmp_path / "turns.json"
    turns.write_text('[\n {"text": "I work at Initech.", "speaker": "Nadia"},\n'
                     ' {"text": "I live in Oslo.", "metadata": {"team": "a", "team": "b"}}\n]\n')  # fmt: skip
    refused = _ingest(runner, tmp_path / "m", turns)
    assert getattr(refused, "exit_code") == 1, getattr(refused, "output")
    line = getattr(refused, "stderr").strip()
    assert "content: key 1.metadata.team: given more than once" in line and line.endswith("[invalid_input]"), line


def test_a_file_naming_each_key_once_is_ingested(runner: CliRunner, tmp_path: Path) -> None:
    turns = tmp_path / "turns.jsonl"
    turns.write_text(json.dumps({"text": "I live in Oslo.", "speaker": "Bo", "metadata": {"a": {"team": 1}, "team": 2}}) + "\n")
    assert getattr(_ingest(runner, tmp_path / "m", turns), "exit_code") == 0
