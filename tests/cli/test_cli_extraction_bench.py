"""``eywa bench extraction`` on the held-out test conversation: counts that agree with each
other and with the beliefs written, a sample that depends only on its seed, and no embedder.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from eywa.bench.extraction import load_evidence, measure_extraction, sample_beliefs
from eywa.cli import app

MOVES = Path(__file__).resolve().parents[1] / "fixtures" / "conversations" / "moves" / "conversation.jsonl"


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    out = tmp_path_factory.mktemp("extraction")
    result = CliRunner().invoke(
        app, ["bench", "extraction", "--data", str(MOVES), "--sample", "5", "--seed", "3", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    return result.stdout, out


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_prints_beliefs_per_attribute_refusals_and_throughput(run: tuple[str, Path]) -> None:
    stdout, _ = run
    for label in ("offline Level 1 over 95 turns", "employer", "residence", "refused by reason", "turns/s"):
        assert label in stdout


def test_artefacts_agree_with_each_other(run: tuple[str, Path]) -> None:
    _, out = run
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    beliefs = _jsonl(out / "beliefs.jsonl")
    assert summary["turns"] == 95 and summary["beliefs"] == len(beliefs) == sum(summary["by_attribute"].values())
    assert summary["accepted"] + sum(summary["refused_by_attribute"].values()) == summary["proposed"]
    sample = _jsonl(out / "sample-seed3.jsonl")
    assert len(sample) == 5 and {b["id"] for b in sample} <= {b["id"] for b in beliefs}
    assert all(b["turn"] and b["label"] == "" for b in sample)


def test_the_sample_depends_only_on_the_seed() -> None:
    report = measure_extraction(load_evidence(MOVES, space="moves"))
    first = [b.id for b in sample_beliefs(report, 10, seed=7)]
    assert first == [b.id for b in sample_beliefs(measure_extraction(load_evidence(MOVES, space="moves")), 10, seed=7)]
    assert first != [b.id for b in sample_beliefs(report, 10, seed=8)]
    assert len(sample_beliefs(report, 10_000, seed=7)) == report.beliefs


def test_a_bad_file_fails_in_one_line(runner: CliRunner, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"speaker": "Ines"}\n', encoding="utf-8")
    result = runner.invoke(app, ["bench", "extraction", "--data", str(bad)])
    assert result.exit_code != 0 and "Traceback" not in result.output
