"""An option that keeps one value, given twice on a command line, is refused, not resolved.

``eywa recall --k 3 --k 5`` recalled 5 items and ``--space home --space work`` read ``work``,
without a word: click keeps the last value of an option given twice. Every command of every
entry point (the core's, a sub-group's, a plugin's) now refuses it with one line naming the
option, exit 2 and ``[invalid_input]``, before anything is opened. Options that collect
values (``eywa audit -p``, ``eywa keys create --space``) still take several.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from eywa.cli import app


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["recall", "--space", "home", "Where does Bo live?", "--k", "3", "--k", "5"], "'--k'"),
        (["recall", "--space", "home", "--space", "work", "Where does Bo live?"], "'--space'"),
        (["recall", "-s", "home", "Where does Bo live?", "--space", "home"], "'--space'"),
        (["recall", "-s", "home", "Where does Bo live?", "--json", "--json"], "'--json'"),
        (["export", "--space", "home", "-o", "a.jsonl", "--out", "b.jsonl"], "'--out'"),
        (["keys", "create", "--space", "home", "--scope", "read", "--scope", "read,write"], "'--scope'"),
        # a host no machine has: run as two options, the server fails at once instead of serving
        (["serve", "--port", "8001", "--port", "8002", "--host", "256.0.0.1"], "'--port'"),
        (["serve", "--access-log", "--no-access-log", "--host", "256.0.0.1"], "'--access-log'"),
    ],
    ids=["recall --k", "recall --space", "-s then --space", "a flag", "export --out", "a sub-group's command",
         "a plugin's command", "a flag and its negation"],
)  # fmt: skip
def test_an_option_given_twice_is_refused(runner: CliRunner, tmp_path: Path, args: list[str], option: str) -> None:
    data = tmp_path / "m"
    refused = runner.invoke(app, [*args, "--data-dir", str(data)])
    assert refused.exit_code == 2, refused.output
    line = refused.stderr.strip()
    assert option in line and "given more than once; give it once" in line, line
    assert line.endswith("[invalid_input]") and "Traceback" not in refused.output
    assert not data.exists()  # refused before the memory is opened


def test_options_that_collect_values_still_take_several(runner: CliRunner, tmp_path: Path) -> None:
    data = str(tmp_path / "m")
    made = runner.invoke(app, ["keys", "create", "--space", "home", "--space", "work", "--scope", "read", "--data-dir", data])
    assert made.exit_code == 0, made.output
    listed = runner.invoke(app, ["keys", "list", "--data-dir", data])
    assert listed.exit_code == 0 and "home" in listed.stdout and "work" in listed.stdout, listed.output


def test_an_option_given_once_is_served(runner: CliRunner, tmp_path: Path) -> None:
    data = str(tmp_path / "m")
    turns = tmp_path / "turns.jsonl"
    turns.write_text(json.dumps({"text": "I live in Oslo.", "speaker": "Bo"}) + "\n")
    assert runner.invoke(app, ["ingest", str(turns), "--space", "home", "--data-dir", data]).exit_code == 0
    served = runner.invoke(app, ["recall", "-s", "home", "Where does Bo live?", "--k", "3", "--json", "--data-dir", data])
    assert served.exit_code == 0, served.output
    assert "Oslo" in json.loads(served.stdout)["context"]
