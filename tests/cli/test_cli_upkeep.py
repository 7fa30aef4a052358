"""``eywa reconcile`` finishes what the ledger holds (Level 1 of turns stored without an
extractor), ``eywa reprocess`` re-reads the turns an older extractor read (a store of the
previous format, whose beliefs carry no version), and ``eywa index-vectors`` builds the vector
shards' HNSW graphs and reports their state."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from eywa.cli import app
from tests.reliability.test_upgrades import legacy_store


def test_reconcile_finishes_level1_left_by_a_memory_without_an_extractor(runner: CliRunner, tmp_path: Path) -> None:
    turns = tmp_path / "turns.jsonl"
    turns.write_text("\n".join(json.dumps({"text": t, "speaker": "Ana"})
                               for t in ("I live in Lyon.", "I work at Acme.", "I adopted a cat named Miso.")))  # fmt: skip
    data = str(tmp_path / "mem")
    stored = runner.invoke(app, ["ingest", "--space", "ana", str(turns), "--data-dir", data],
                           env={"EYWA_EXTRACTOR": "none"})  # fmt: skip
    assert stored.exit_code == 0, stored.output
    owed = runner.invoke(app, ["reconcile", "--data-dir", data], env={"EYWA_EXTRACTOR": "none"})
    assert owed.exit_code == 0, owed.output
    assert "finished: nothing" in owed.output and _pending(owed.output, "level1_backlog") == 3
    done = runner.invoke(app, ["reconcile", "--space", "ana", "--data-dir", data])  # the rule extractor
    assert done.exit_code == 0, done.output
    assert _pending(done.output, "level1_backlog") == _pending(done.output, "embed_belief") == 0
    stats = runner.invoke(app, ["stats", "--space", "ana", "--data-dir", data])
    assert "beliefs.belief_active" in stats.output


def _pending(output: str, stage: str) -> int:
    row = next(line for line in output.splitlines() if f" {stage} " in line)
    return int(row.strip("│ ").split("│")[-1].strip())


def test_reprocess_reads_again_what_an_older_extractor_read(runner: CliRunner, tmp_path: Path) -> None:
    data = legacy_store(tmp_path / "legacy")
    done = runner.invoke(app, ["reprocess", "--space", "legacy", "--data-dir", str(data)])
    assert done.exit_code == 0, done.output
    assert "24 turns of legacy reprocessed" in done.output and "'belief_active': 8" in done.output
    again = runner.invoke(app, ["reprocess", "--space", "legacy", "--data-dir", str(data)])
    assert again.exit_code == 0 and "0 turns of legacy reprocessed" in again.output
    missing = runner.invoke(app, ["reprocess", "--space", "nobody", "--data-dir", str(data)])
    assert missing.exit_code == 1 and "unknown space 'nobody'" in missing.stderr


def test_index_vectors_reports_the_state_and_builds_what_passes_the_threshold(
    runner: CliRunner, tmp_path: Path
) -> None:
    turns = tmp_path / "turns.jsonl"
    turns.write_text("\n".join(json.dumps({"text": f"Turn {i} about the garden.", "speaker": "Ana"}) for i in range(12)))
    data = str(tmp_path / "mem")
    stored = runner.invoke(app, ["ingest", "--space", "ana", str(turns), "--data-dir", data])
    assert stored.exit_code == 0, stored.output
    status = runner.invoke(app, ["index-vectors", "--status", "--data-dir", data])
    assert status.exit_code == 0, status.output
    assert _row(status.output, "evidence") == ["12", "0", "12", "1"]
    built = runner.invoke(app, ["index-vectors", "--kind", "evidence", "--data-dir", data])
    assert built.exit_code == 0, built.output
    # 12 points are far under the threshold: left plain, and said so; belief was not asked for
    assert "evidence: 12 points, under the threshold of 6,667: left plain" in built.output
    assert "belief:" not in built.output
    assert _row(built.output, "evidence") == ["12", "0", "12", "1"]
    wrong = runner.invoke(app, ["index-vectors", "--kind", "turns", "--data-dir", data])
    assert wrong.exit_code == 1 and "--kind takes evidence, belief, entity; not turns" in wrong.stderr


def _row(output: str, shard: str) -> list[str]:
    row = next(line for line in output.splitlines() if line.startswith(f"│ {shard} "))
    return [cell.strip().replace(",", "") for cell in row.strip("│ ").split("│")[1:]]


def test_index_vectors_status_on_a_directory_without_a_memory_creates_none(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(app, ["index-vectors", "--status", "--data-dir", str(tmp_path)])
    assert result.exit_code == 1 and "no memory at" in result.stderr and "no embedded store there" in result.stderr
    assert not any(tmp_path.iterdir())  # it printed an empty table and left a store behind
