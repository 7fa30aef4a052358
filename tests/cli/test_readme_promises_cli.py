"""README CLI promises no other test walked (audit of s14).

- Configuration: "``recall`` and ``stats`` refuse a missing embedded directory instead of
  creating an empty memory" (``recall`` and ``audit`` were tested, ``stats`` not).
- Erasure: ``eywa drop-space`` asks for confirmation (``--yes`` skips it); declining erases
  nothing (shown for ``forget`` only).
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from eywa.cli import app


def test_stats_on_a_missing_memory_does_not_create_one(runner: CliRunner, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    result = runner.invoke(app, ["stats", "--space", "s", "--data-dir", str(missing)])
    assert result.exit_code != 0 and "no memory at" in result.stderr and "[configuration_error]" in result.stderr
    assert not missing.exists()


def test_declining_drop_space_erases_nothing(runner: CliRunner, tmp_path: Path) -> None:
    turns = tmp_path / "turns.jsonl"
    turns.write_text("\n".join(json.dumps({"text": text, "speaker": "Ana"}) for text in ("I live in Lyon.", "I own a cat.")))
    data = str(tmp_path / "mem")
    assert runner.invoke(app, ["ingest", "--space", "keep", str(turns), "--data-dir", data]).exit_code == 0
    declined = runner.invoke(app, ["drop-space", "keep", "--data-dir", data], input="n\n")
    assert declined.exit_code != 0 and "Aborted" in declined.output
    listed = runner.invoke(app, ["export", "--space", "keep", "--data-dir", data])
    assert listed.exit_code == 0, listed.output
    kinds = [json.loads(line)["kind"] for line in listed.stdout.splitlines() if line.startswith("{")]
    assert kinds.count("turn") == 2 and "erasure" not in kinds
