"""``eywa bench chaos`` end to end (embedded mode): writers over real HTTP while the API
process is SIGKILLed and restarted; every acknowledged turn is stored once and the ledger
drains, and the JSON report agrees with the printed figures."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from eywa.cli import app


def test_short_run_survives_a_sigkill_of_the_api(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "chaos.json"
    args = ["bench", "chaos", "--writers", "2", "--seconds", "3", "--kills", "1", "--drain", "60", "--json", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    for label in ("turns acknowledged:", "turns stored:", "duplicated: 0", "lost: 0", "backlog at the end: 0"):
        assert label in result.stdout, result.stdout
    assert "chaos: PASS" in result.stdout.splitlines()
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["kills"] == 1 and report["writers"] == 2
    assert report["turns_acknowledged"] > 0 and report["turns_stored"] >= report["turns_acknowledged"]
    assert report["duplicated"] == report["lost"] == report["backlog"] == 0 and report["refusals"] == []


def test_bad_bounds_fail_in_one_line(runner: CliRunner) -> None:
    result = runner.invoke(app, ["bench", "chaos", "--writers", "0"])
    assert result.exit_code != 0
    assert "--writers" in result.stderr
