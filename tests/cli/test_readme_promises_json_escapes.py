"""README, "The input contract": control characters ("a NUL, an ESC or any C0/C1
character") are stored as given, the CLI's tables show them as escapes, "never raw to the
terminal", and "``--json`` and ``export`` carry them as JSON escapes".

JSON escapes C0 by itself, but not DEL or C1: ``eywa recall --json`` and ``eywa export``
(stdout by default) wrote U+007F-U+009F raw (U+009B is CSI, the C1 form of ESC ``[``),
while the tables escaped them (audit of s32). Both now write ``\\u009b``-style escapes,
which read back as the same characters: the JSON is equal, and an import restores them.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from eywa.cli import app

# C0 (NUL, ESC), DEL and C1 (NEL, CSI, APC): every range the tables escape.
CONTROLS = "\x00\x1b\x7f\x85\x9b\x9f"
TEXTS = [f"I moved to Lyon{c} last spring, day {i}." for i, c in enumerate(CONTROLS)]
SPEAKER = "An\x9b31ma"


def _raw_controls(out: str) -> set[str]:
    """The control characters written as themselves (newline aside)."""
    return {c for c in out if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) < 0xA0}


def _ingested(runner: CliRunner, tmp_path: Path) -> list[str]:
    turns = tmp_path / "turns.jsonl"
    turns.write_text("\n".join(json.dumps({"text": t, "speaker": SPEAKER}) for t in TEXTS), encoding="ascii")
    data = ["--data-dir", str(tmp_path / "m")]
    done = runner.invoke(app, ["ingest", "--space", "ctl", str(turns), *data])
    assert done.exit_code == 0, done.output
    return data


def test_recall_json_carries_del_and_c1_as_json_escapes(runner: CliRunner, tmp_path: Path) -> None:
    data = _ingested(runner, tmp_path)
    shown = runner.invoke(app, ["recall", "--space", "ctl", "Where did Ana move?", "-k", "20", "--json", *data])
    assert shown.exit_code == 0, shown.output
    assert _raw_controls(shown.stdout) == set(), sorted(map(hex, map(ord, _raw_controls(shown.stdout))))
    assert "\\u009b" in shown.stdout and "\\u007f" in shown.stdout
    items = json.loads(shown.stdout)["items"]
    assert {item["text"] for item in items if item["kind"] == "evidence"} == set(TEXTS)  # the same characters
    assert {item["provenance"][0]["speaker"] for item in items if item["kind"] == "evidence"} == {SPEAKER}


def test_export_carries_del_and_c1_as_json_escapes_and_imports_them_back(runner: CliRunner, tmp_path: Path) -> None:
    data = _ingested(runner, tmp_path)
    exported = runner.invoke(app, ["export", "--space", "ctl", *data])
    assert exported.exit_code == 0, exported.output
    assert _raw_controls(exported.stdout) == set(), sorted(map(hex, map(ord, _raw_controls(exported.stdout))))
    turns = [json.loads(line) for line in exported.stdout.splitlines() if '"kind":"turn"' in line]
    assert sorted(t["evidence"]["text"] for t in turns) == sorted(TEXTS)

    copy = tmp_path / "copy.jsonl"
    copy.write_text(exported.stdout, encoding="utf-8")
    other = ["--data-dir", str(tmp_path / "m2")]
    restored = runner.invoke(app, ["import", str(copy), "--space", "ctl", *other])
    assert restored.exit_code == 0, restored.output
    again = runner.invoke(app, ["export", "--space", "ctl", *other])
    assert again.exit_code == 0, again.output
    assert [json.loads(line) for line in again.stdout.splitlines()[1:]] == [
        json.loads(line) for line in exported.stdout.splitlines()[1:]
    ]
