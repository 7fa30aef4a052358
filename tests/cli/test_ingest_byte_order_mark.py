"""A file that starts with a UTF-8 byte order mark is ingested as without it.

Windows editors and PowerShell's ``Out-File`` write one. The HTTP API accepted such a body
(JSON decoders skip the mark) and ``eywa import`` an export saved so, while ``eywa ingest``
refused the same turns: "line 1: invalid JSON (Unexpected UTF-8 BOM ...)". The mark is no
part of the text: no stored turn starts with it, and errors still name the right line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from eywa.cli import app

BOM = "\ufeff"
TURNS = [
    {"speaker": "Ilse", "text": "We finally repainted the boathouse green."},
    {"speaker": "Oren", "text": "Green suits it better than the old grey."},
]


def _exported_texts(runner: CliRunner, store: Path, space: str) -> list[tuple[str, str]]:
    exported = runner.invoke(app, ["export", "--space", space, "--data-dir", str(store)])
    assert exported.exit_code == 0, exported.output
    stored = [json.loads(line)["evidence"] for line in exported.stdout.split("\n") if '"kind":"turn"' in line]
    return sorted((e["speaker"], e["text"]) for e in stored)


@pytest.mark.parametrize("layout", ["jsonl", "json list"])
def test_a_file_starting_with_a_byte_order_mark_is_ingested_without_it(
    runner: CliRunner, tmp_path: Path, layout: str
) -> None:
    turns = tmp_path / "turns.jsonl"
    body = "\n".join(json.dumps(t) for t in TURNS) + "\n" if layout == "jsonl" else json.dumps(TURNS)
    turns.write_text(BOM + body, encoding="utf-8")
    done = runner.invoke(app, ["ingest", "--space", "boats", str(turns), "--data-dir", str(tmp_path / "m")])
    assert done.exit_code == 0, done.output
    assert _exported_texts(runner, tmp_path / "m", "boats") == sorted((t["speaker"], t["text"]) for t in TURNS)


def test_a_bad_line_of_a_file_with_a_byte_order_mark_is_named_by_its_number(runner: CliRunner, tmp_path: Path) -> None:
    turns = tmp_path / "turns.jsonl"
    turns.write_text(BOM + json.dumps(TURNS[0]) + '\n{"speaker": "Oren"}\n', encoding="utf-8")
    refused = runner.invoke(app, ["ingest", "--space", "boats", str(turns), "--data-dir", str(tmp_path / "m")])
    assert refused.exit_code == 1
    assert "line 2:" in refused.stderr and "BOM" not in refused.stderr, refused.stderr
