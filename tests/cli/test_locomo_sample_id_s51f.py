"""A LoCoMo file whose ``sample_id`` is no name is refused in one line (s51 fuzzing).

A sample names the space its turns go to. ``eywa ingest`` of a LoCoMo file whose
``sample_id`` was a number ended in a traceback (``TypeError: expected string or
bytes-like object, got 'int'``, from the progress bar escaping the space name) instead of
README "The input contract"'s one ``error: … [code]`` line; a ``null`` one made the file
read as a plain turn file ("a JSONL turn file needs --space"), and with ``--space`` every
sample went into that one space.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from eywa.cli import app


def _sample(sample_id: Any) -> dict[str, Any]:
    return {"sample_id": sample_id, "conversation": {
        "speaker_a": "Nadia", "speaker_b": "Tom", "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [{"speaker": "Nadia", "text": "I moved to Oslo last spring.", "dia_id": "D1:1"}],
    }}  # fmt: skip


@pytest.mark.parametrize("sample_id", [7, None, 1.5, ["conv"], {"id": "conv"}, True, "", "  "], ids=repr)
@pytest.mark.parametrize("space", [[], ["--space", "conv"]], ids=["all", "one"])
def test_a_sample_id_that_is_no_string_is_one_error_line(
    runner: CliRunner, tmp_path: Path, sample_id: Any, space: list[str]
) -> None:
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps([_sample("conv"), _sample(sample_id)]), encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(data), *space, "--data-dir", str(tmp_path / "m")])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.stderr.strip().splitlines()
    assert lines == [f"error: {data}: sample 1: sample_id: must be a non-empty string, got {json.dumps(sample_id)} [invalid_input]"]
    assert not (tmp_path / "m").exists()  # refused before the memory opened: nothing stored


def test_a_string_sample_id_is_still_its_space(runner: CliRunner, tmp_path: Path) -> None:
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps([_sample("conv-a"), _sample("conv-b")]), encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(data), "--data-dir", str(tmp_path / "m")])
    assert result.exit_code == 0, result.output
    stats = runner.invoke(app, ["stats", "--space", "conv-b", "--data-dir", str(tmp_path / "m")])
    assert stats.exit_code == 0 and "evidence" in stats.output
