"""README, "The input contract": "Control characters are valid Unicode and are text like any
other: a NUL, an ESC or any C0/C1 character in a turn's strings ... is stored as given and
returned the same on ... every surface".

JSON lets three of them stand raw inside a string: NEL (U+0085, a C1 character) and the line
and paragraph separators U+2028 / U+2029 (``json.dumps(..., ensure_ascii=False)`` writes
them so, and so does every export of the HTTP API). ``eywa ingest`` split a JSONL file with
``str.splitlines``, which also breaks lines there, so such a file was refused as invalid
JSON ("line 4: invalid JSON (Unterminated string ...)"), and a later bad line was named by
a wrong number (found by probing, audit of s32). JSON lines end at ``\\n`` alone.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from eywa.cli import app

SEPARATORS = "\x85\u2028\u2029"
TURNS = [
    {"text": f"I moved to Lyon{c} last spring, day {i}.", "speaker": f"An{c}a", "metadata": {f"k{c}": [f"v{c}"]}}
    for i, c in enumerate(SEPARATORS)
]


def test_a_jsonl_file_with_raw_nel_or_line_separators_in_its_strings_is_ingested_as_given(
    runner: CliRunner, tmp_path: Path
) -> None:
    turns = tmp_path / "turns.jsonl"
    turns.write_text("\n".join(json.dumps(t, ensure_ascii=False) for t in TURNS) + "\n", encoding="utf-8")
    assert all(c in turns.read_text(encoding="utf-8") for c in SEPARATORS)  # raw, not escaped
    done = runner.invoke(app, ["ingest", "--space", "sep", str(turns), "--data-dir", str(tmp_path / "m")])
    assert done.exit_code == 0, done.output
    exported = runner.invoke(app, ["export", "--space", "sep", "--data-dir", str(tmp_path / "m")])
    assert exported.exit_code == 0, exported.output
    stored = [json.loads(line)["evidence"] for line in exported.stdout.split("\n") if '"kind":"turn"' in line]
    assert sorted((e["text"], e["speaker"], e["metadata"]) for e in stored) == sorted(
        (t["text"], t["speaker"], t["metadata"]) for t in TURNS
    )


def test_a_bad_line_after_one_holding_a_separator_is_named_by_its_number(runner: CliRunner, tmp_path: Path) -> None:
    turns = tmp_path / "turns.jsonl"
    turns.write_text(json.dumps(TURNS[1], ensure_ascii=False) + '\n{"speaker": "Bo"}\n', encoding="utf-8")
    refused = runner.invoke(app, ["ingest", "--space", "sep", str(turns), "--data-dir", str(tmp_path / "m")])
    assert refused.exit_code == 1
    assert "line 2:" in refused.stderr and "line 3" not in refused.stderr, refused.stderr
