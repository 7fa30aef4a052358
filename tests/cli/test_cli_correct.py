"""``eywa beliefs``, ``eywa candidates`` and ``eywa corrections``: list, retract (a reason is
required), confirm; unknown ids and a second retraction are refused with a clear message;
every correction is listed with its author and reason."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from eywa.cli import app


def test_beliefs_are_retracted_and_confirmed_from_the_shell(runner: CliRunner, tmp_path: Path) -> None:
    turns = tmp_path / "turns.jsonl"
    turns.write_text(json.dumps({"text": "I work at Marblethorn now.", "speaker": "Bo"}))
    data = ["--data-dir", str(tmp_path / "mem")]
    assert runner.invoke(app, ["ingest", "--space", "cli", str(turns), *data]).exit_code == 0
    listed = runner.invoke(app, ["beliefs", "list", "--space", "cli", *data])
    found = re.search(r"(bel_[0-9a-f]+)", listed.output)
    assert listed.exit_code == 0 and found is not None, listed.output
    belief = found.group(1)

    no_reason = runner.invoke(app, ["beliefs", "retract", belief, "--space", "cli", *data])
    assert no_reason.exit_code == 2 and "--reason" in no_reason.output + no_reason.stderr
    unknown = runner.invoke(app, ["beliefs", "confirm", "bel_nope", "--space", "cli", *data])
    assert unknown.exit_code == 1 and "bel_nope" in unknown.stderr
    confirmed = runner.invoke(app, ["beliefs", "confirm", belief, "--space", "cli", *data])
    assert confirmed.exit_code == 0 and "reliability" in confirmed.output, confirmed.output
    retracted = runner.invoke(app, ["beliefs", "retract", belief, "--space", "cli", "--reason", "Bo left", *data])
    assert retracted.exit_code == 0 and f"retract_belief {belief}" in retracted.output, retracted.output
    again = runner.invoke(app, ["beliefs", "retract", belief, "--space", "cli", "--reason", "Bo left", *data])
    assert again.exit_code == 0 and again.output == retracted.output  # the same retraction: its record
    other = runner.invoke(app, ["beliefs", "retract", belief, "--space", "cli", "--reason", "Bo never left", *data])
    assert other.exit_code == 1 and "already retracted" in other.stderr
    assert belief not in runner.invoke(app, ["beliefs", "list", "--space", "cli", *data]).output
    assert belief in runner.invoke(app, ["beliefs", "list", "--space", "cli", "--status", "retracted", *data]).output
    dismissed = runner.invoke(app, ["candidates", "dismiss", "cand_nope", "--space", "cli", *data])
    assert dismissed.exit_code == 1 and "cand_nope" in dismissed.stderr
    accepted = runner.invoke(app, ["candidates", "accept", "cand_nope", "--space", "cli", *data])
    assert accepted.exit_code == 1 and "cand_nope" in accepted.stderr and "not_found" in accepted.stderr
    assert runner.invoke(app, ["candidates", "list", "--space", "cli", *data]).exit_code == 0

    records = runner.invoke(app, ["corrections", "--space", "cli", *data])
    assert records.exit_code == 0 and "Bo left" in records.output and "cli" in records.output
    assert records.output.index("confirm_belief") < records.output.index("retract_belief")


def test_corrections_refuse_a_space_that_never_existed_but_read_an_erased_one(runner: CliRunner, tmp_path: Path) -> None:
    turns = tmp_path / "turns.jsonl"
    turns.write_text(json.dumps({"text": "I work at Marblethorn now.", "speaker": "Bo"}))
    data = ["--data-dir", str(tmp_path / "mem")]
    for space in ("cli", "kept"):
        assert runner.invoke(app, ["ingest", "--space", space, str(turns), *data]).exit_code == 0
    found = re.search(r"(bel_[0-9a-f]+)", runner.invoke(app, ["beliefs", "list", "--space", "cli", *data]).output)
    assert found is not None
    assert runner.invoke(app, ["beliefs", "confirm", found.group(1), "--space", "cli", *data]).exit_code == 0
    assert runner.invoke(app, ["drop-space", "cli", "--yes", *data]).exit_code == 0

    erased = runner.invoke(app, ["corrections", "--space", "cli", *data], env={"COLUMNS": "200"})
    assert erased.exit_code == 0 and f"confirm_belief │ {found.group(1)}" in erased.output, erased.output
    typo = runner.invoke(app, ["corrections", "--space", "clii", *data])
    assert typo.exit_code == 0 and "confirm_belief" not in typo.stdout
    assert typo.stderr.strip() == "note: space 'clii' holds no turns (known: kept); answering as an empty space"
    assert runner.invoke(app, ["corrections", "--space", "kept", *data]).exit_code == 0
