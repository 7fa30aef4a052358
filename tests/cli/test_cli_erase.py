"""``eywa forget`` and ``eywa drop-space``: a confirmation prompt (``--yes`` skips it), bad
selectors erase nothing, the report and the proof (residue 0) are printed, and the
``erasure_proof`` audit answers with zero residue from the shell."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from eywa.cli import app

WORD = "Marblethorn"


def _store(runner: CliRunner, tmp_path: Path) -> str:
    turns = tmp_path / "turns.jsonl"
    turns.write_text("\n".join(json.dumps(t) for t in (
        {"text": "I live in Lyon.", "speaker": "Ana"},
        {"text": f"I work at {WORD} now.", "speaker": "Bo"},
        {"text": "I adopted a cat named Miso.", "speaker": "Ana"},
    )))  # fmt: skip
    data = str(tmp_path / "mem")
    stored = runner.invoke(app, ["ingest", "--space", "cli", str(turns), "--data-dir", data])
    assert stored.exit_code == 0, stored.output
    return data


def test_forget_asks_first_and_proves_zero_residue(runner: CliRunner, tmp_path: Path) -> None:
    data = _store(runner, tmp_path)
    declined = runner.invoke(app, ["forget", "--space", "cli", "--speaker", "Bo", "--data-dir", data], input="n\n")
    assert declined.exit_code == 1 and "Aborted" in declined.output
    none = runner.invoke(app, ["forget", "--space", "cli", "--yes", "--data-dir", data])
    assert none.exit_code == 1 and "at least one selector" in none.stderr
    unknown = runner.invoke(app, ["forget", "--space", "cli", "--evidence-id", "ev_nope", "--yes", "--data-dir", data])
    assert unknown.exit_code != 0 and "ev_nope" in unknown.stderr
    question = ["recall", "Where does Bo work?", "--space", "cli", "--data-dir", data]  # the title echoes it
    assert WORD in runner.invoke(app, question).output

    done = runner.invoke(app, ["forget", "--space", "cli", "--speaker", "Bo", "--data-dir", data], input="y\n")
    assert done.exit_code == 0, done.output
    assert "proof: residue 0" in done.output and re.search(r"│ turns\s+│ 1\s+│", done.output), done.output
    erasure = re.search(r"erasure (er_[0-9a-f]+)", done.output)
    assert erasure is not None
    recalled = runner.invoke(app, question)
    assert recalled.exit_code == 0 and WORD not in recalled.output
    audit = runner.invoke(app, ["audit", "erasure_proof", "--param", "space=cli", "--param",
                                f"erasure={erasure.group(1)}", "--data-dir", data])  # fmt: skip
    assert audit.exit_code == 0, audit.output
    rows = re.findall(r"│ (\w+)\s+│\s+(\d+)\s+│", audit.output)
    assert len(rows) == 9 and all(n == "0" for _, n in rows)  # one row per kind, jobs included

    dropped = runner.invoke(app, ["drop-space", "cli", "--yes", "--data-dir", data])
    assert dropped.exit_code == 0 and "proof: residue 0" in dropped.output
    assert "note: space 'cli' holds no turns" in runner.invoke(app, ["stats", "--space", "cli", "--data-dir", data]).stderr


def test_bench_erasure_prints_time_and_zero_residue(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    done = runner.invoke(app, ["bench", "erasure", "--turns", "400", "--json", str(out)])
    assert done.exit_code == 0, done.output
    (report,) = json.loads(out.read_text())
    assert report["residue_total"] == 0 and report["counts"]["turns"] == report["speaker_turns"] > 0
    assert f"erased {report['speaker']}" in done.output and "residue 0" in done.output


def test_forget_refuses_a_missing_or_bad_selector_before_asking(runner: CliRunner, tmp_path: Path) -> None:
    """Nobody is asked to confirm an erasure that is then refused; the error names the flags."""
    data = _store(runner, tmp_path)
    none = runner.invoke(app, ["forget", "--space", "cli", "--data-dir", data], input="y\n")
    assert none.exit_code == 1 and "Erase the selected turns" not in none.output
    assert "--speaker" in none.stderr and "eywa drop-space" in none.stderr and "[invalid_input]" in none.stderr
    bad = runner.invoke(app, ["forget", "--space", "cli", "--before", "someday", "--data-dir", data], input="y\n")
    assert bad.exit_code == 1 and "Erase the selected turns" not in bad.output
    assert "before: must be an ISO-8601 datetime, got 'someday'" in bad.stderr
    counts = runner.invoke(app, ["stats", "--space", "cli", "--data-dir", data]).stdout
    assert re.search(r"evidence\s*│\s*3\s", counts), counts  # nothing erased
