"""The whole LoCoMo development file through ``eywa ingest`` and ``eywa recall``.

Marked slow: embedding its 2,760 turns takes minutes on a small CPU.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from eywa.cli import app

from tests.devdata import DEV_FILE, DEV_MISSING

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(DEV_MISSING, reason="LoCoMo development file not present"),
]


def test_dev_file_ingest_then_recall_with_dia_ids(runner: CliRunner, tmp_path: Path) -> None:
    ingest = runner.invoke(app, ["ingest", str(DEV_FILE), "--data-dir", str(tmp_path)])
    assert ingest.exit_code == 0, ingest.output
    assert "2760 turns in" in ingest.stdout
    question = "When did Caroline go to the LGBTQ support group?"
    result = runner.invoke(app, ["recall", "--space", "conv-26", question, "--json", "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    items = json.loads(result.stdout)["items"]
    dia_ids = [ref["metadata"]["dia_id"] for item in items for ref in item["provenance"]]
    assert len(dia_ids) >= len(items) > 0
    assert "D1:3" in dia_ids  # the gold turn of this question
    stats = runner.invoke(app, ["stats", "--space", "conv-43", "--data-dir", str(tmp_path)])
    assert "680" in stats.stdout
