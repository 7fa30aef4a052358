"""``eywa merges``: propose, accept (unknown names refused clearly), list, undo (kept for
audit, ``--all``), a second undo refused; both recorded with the author ``cli``."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from eywa.cli import app
from eywa.runtime import load_settings, open_memory


def test_merges_from_the_shell(runner: CliRunner, tmp_path: Path) -> None:
    turns = tmp_path / "turns.jsonl"
    turns.write_text("\n".join(json.dumps(t) for t in (
        {"text": "I had lunch with Melinda today.", "speaker": "Cecilia"},
        {"text": "Say hi to Cecilia from me.", "speaker": "Bo"},
    )))  # fmt: skip
    data = ["--data-dir", str(tmp_path / "mem")]
    assert runner.invoke(app, ["ingest", "--space", "cli", str(turns), *data]).exit_code == 0
    assert runner.invoke(app, ["merges", "propose", "--space", "cli", *data]).exit_code == 0

    unknown = runner.invoke(app, ["merges", "accept", "Melinda", "Zed", "--space", "cli", *data])
    assert unknown.exit_code == 1 and "Zed" in unknown.stderr and "not_found" in unknown.stderr
    merged = runner.invoke(app, ["merges", "accept", "Melinda", "Cecilia", "--space", "cli", *data])
    assert merged.exit_code == 0 and "merged melinda SAME_AS cecilia" in merged.output, merged.output
    assert "melinda" in runner.invoke(app, ["merges", "list", "--space", "cli", *data]).output
    assert runner.invoke(app, ["merges", "undo", "Melinda", "Cecilia", "--space", "cli", *data]).exit_code == 0
    again = runner.invoke(app, ["merges", "undo", "Melinda", "Cecilia", "--space", "cli", *data])
    assert again.exit_code == 0 and "undone" in again.output  # sent again by the author who undid it: as the first
    never = runner.invoke(app, ["merges", "undo", "Melinda", "Bo", "--space", "cli", *data])
    assert never.exit_code == 1 and "not_found" in never.stderr
    assert "melinda" not in runner.invoke(app, ["merges", "list", "--space", "cli", *data]).output
    assert "melinda" in runner.invoke(app, ["merges", "list", "--space", "cli", "--all", *data]).output
    with open_memory(load_settings(tmp_path / "mem"), must_exist=True) as mem:
        assert [(e.author, e.removed_by) for e in mem.merges("cli", include_removed=True)] == [("cli", "cli")]
