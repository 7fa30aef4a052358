"""README promises of the CLI, "Configuration", "Erasure", "Corrections" and "Online backup"
that no test showed (audit52, session 52), through the ``eywa`` command (typer's runner) and
``Memory``.

- "Configuration": "``recall`` and ``stats`` refuse a missing embedded directory instead of
  creating an empty memory". ``recall`` and ``audit`` were tested, ``stats`` was not.
- "Configuration": "``eywa schema apply`` works on ``EYWA_NEO4J_URI`` only": no test ran it
  without the variable.
- "Corrections": each correction is audited "with its author (the key id over HTTP, ``cli``
  from the shell)". The shell test's space was named ``cli``, so its check that "cli" is in
  the listing held whoever the author was.
- "Erasure": the report "never erased content", printed by ``eywa forget`` with the proof:
  no test read what the command prints for a word of the erased turn.
- "Online backup": "every SQLite file (the store, the key file) is copied": no backup test
  made a key first.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner, Result

from eywa import Memory
from eywa.cli import app


def _one_line_error(result: Result) -> str:
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def test_stats_refuses_a_missing_embedded_directory_and_creates_none(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    line = _one_line_error(CliRunner().invoke(app, ["stats", "--space", "priya", "--data-dir", str(missing)]))
    assert "no memory at" in line and line.endswith("[configuration_error]")
    assert not missing.exists()


def test_schema_apply_without_a_neo4j_uri_is_one_line_naming_the_variable(tmp_path: Path) -> None:
    line = _one_line_error(CliRunner().invoke(app, ["schema", "apply"], env={"EYWA_DATA_DIR": str(tmp_path / "d")}))
    assert "EYWA_NEO4J_URI" in line and line.endswith("[configuration_error]")
    assert not (tmp_path / "d").exists()


def test_a_correction_from_the_shell_is_recorded_with_the_author_cli(tmp_path: Path) -> None:
    runner = CliRunner()
    turns = tmp_path / "turns.jsonl"
    turns.write_text(json.dumps({"text": "I work at Globex now.", "speaker": "Priya"}))
    data = ["--data-dir", str(tmp_path / "mem")]
    assert runner.invoke(app, ["ingest", "--space", "office", str(turns), *data]).exit_code == 0
    found = re.search(r"bel_[0-9a-f]+", runner.invoke(app, ["beliefs", "list", "--space", "office", *data]).output)
    assert found is not None
    retracted = runner.invoke(app, ["beliefs", "retract", found.group(0), "--space", "office", "--reason", "a joke", *data])
    assert retracted.exit_code == 0, retracted.output

    with Memory.open(tmp_path / "mem") as mem:
        assert [(c.kind, c.author, c.reason) for c in mem.corrections("office")] == [("retract_belief", "cli", "a joke")]


def test_eywa_forget_prints_the_counts_and_the_proof_and_no_erased_word(tmp_path: Path) -> None:
    with Memory.open(tmp_path / "mem") as mem:
        erased, _ = mem.remember("move", [
            {"text": "I moved to Zanzibar to learn the saxophone.", "speaker": "Nadia", "session": "s1"},
            {"text": "Good luck with the move!", "speaker": "Tom", "session": "s1"},
        ])  # fmt: skip

    forgot = CliRunner().invoke(
        app, ["forget", "--space", "move", "--evidence-id", erased, "--yes", "--data-dir", str(tmp_path / "mem")]
    )

    assert forgot.exit_code == 0, forgot.output
    printed = forgot.output.lower()
    assert re.search(r"er_[0-9a-f]+", printed) and "proof: residue 0" in printed
    assert "zanzibar" not in printed and "saxophone" not in printed and "nadia" not in printed


def test_a_backup_copies_the_key_file_so_the_copy_knows_the_keys(tmp_path: Path) -> None:
    """README, "Online backup": "Every SQLite file (the store, the key file) is copied". The
    backup tests looked at the store and the erasure secret; no test made a key first."""
    runner = CliRunner()
    data, copy = str(tmp_path / "mem"), str(tmp_path / "copy")
    with Memory.open(data) as mem:
        mem.remember("garden", [{"text": "I planted tulips.", "speaker": "Priya"}])
    created = runner.invoke(app, ["keys", "create", "--space", "garden", "--scope", "read", "--data-dir", data])
    key_id = re.search(r"id=([0-9a-f]+)", created.output)
    assert created.exit_code == 0 and key_id is not None, created.output

    backed_up = runner.invoke(app, ["backup", "--to", copy, "--data-dir", data])

    assert backed_up.exit_code == 0, backed_up.output
    listed = runner.invoke(app, ["keys", "list", "--data-dir", copy])
    assert listed.exit_code == 0 and f"{key_id.group(1)} spaces=garden scopes=read" in listed.output, listed.output
