"""A LoCoMo development conversation through ``eywa ingest`` and ``eywa recall``.

One sample of the real file (``--space conv-26``, 419 turns): embedding all 2,760 turns took
minutes of the suite for no behaviour the one sample does not show. The loader's test
(tests/unit/test_loaders.py) reads the whole file; ``make bench`` ingests all of it.
Marked slow all the same.
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


def test_dev_sample_ingest_then_recall_with_dia_ids(runner: CliRunner, tmp_path: Path) -> None:
    ingest = runner.invoke(app, ["ingest", str(DEV_FILE), "--space", "conv-26", "--data-dir", str(tmp_path)])
    assert ingest.exit_code == 0, ingest.output
    assert "419 turns in" in ingest.stdout
    question = "When did Caroline go to the LGBTQ support group?"
    result = runner.invoke(app, ["recall", "--space", "conv-26", question, "--json", "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    items = json.loads(result.stdout)["items"]
    dia_ids = [ref["metadata"]["dia_id"] for item in items for ref in item["provenance"]]
    assert len(dia_ids) >= len(items) > 0
    assert "D1:3" in dia_ids  # the gold turn of this question
    stats = runner.invoke(app, ["stats", "--space", "conv-26", "--data-dir", str(tmp_path)])
    assert "419" in stats.stdout
    other = runner.invoke(app, ["stats", "--space", "conv-43", "--data-dir", str(tmp_path)])
    assert other.exit_code == 0 and "space 'conv-43' holds no turns" in other.stderr  # only the chosen sample
    assert "evidence             │     0" in other.stdout
