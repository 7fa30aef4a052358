"""``eywa reconcile`` finishes what the ledger holds (Level 1 of turns stored without an
extractor, vectors an open found lost), ``eywa repair-vectors`` checks every id against the
vector store, ``eywa reprocess`` re-reads the turns an older extractor read (a store of the
previous format, whose beliefs carry no version) and detects again the signals an older
release stored (``eywa stats`` counts them), and ``eywa index-vectors`` builds the vector
shards' HNSW graphs and reports their state."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from eywa.cli import app
from eywa.stores.embedded.vectors import QdrantEdgeVectorStore
from eywa.stores.vectors import VectorPoint
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
    row = next(line for line in output.splitlines() if line.startswith("│") and f" {stage} " in line)
    return int(row.strip("│ ").split("│")[-1].strip())


def test_reprocess_reads_again_what_an_older_extractor_read(runner: CliRunner, tmp_path: Path) -> None:
    data = legacy_store(tmp_path / "legacy")
    done = runner.invoke(app, ["reprocess", "--space", "legacy", "--data-dir", str(data)])
    assert done.exit_code == 0, done.output
    assert "24 turns of legacy reprocessed" in done.output and "'belief_active': 8" in done.output
    again = runner.invoke(app, ["reprocess", "--space", "legacy", "--data-dir", str(data)])
    assert again.exit_code == 0 and "0 turns of legacy reprocessed" in again.output
    missing = runner.invoke(app, ["reprocess", "--space", "nobody", "--data-dir", str(data)])
    assert missing.exit_code == 0 and "note: space 'nobody' holds no turns" in missing.stderr
    assert "0 turns of nobody reprocessed" in missing.stdout


def test_reprocess_detects_again_the_signals_an_older_release_stored(runner: CliRunner, tmp_path: Path) -> None:
    data = str(legacy_store(tmp_path / "legacy"))  # written before Level 0 had a version
    before = runner.invoke(app, ["stats", "--space", "legacy", "--data-dir", data])
    assert before.exit_code == 0, before.output
    assert _stat(before.output, "outdated_signals") == 24
    done = runner.invoke(app, ["reprocess", "--space", "legacy", "--data-dir", data])
    assert done.exit_code == 0, done.output
    assert "24 turns of legacy had their signals detected again" in done.output
    after = runner.invoke(app, ["stats", "--space", "legacy", "--data-dir", data])
    assert _stat(after.output, "outdated_signals") == 0
    again = runner.invoke(app, ["reprocess", "--space", "legacy", "--data-dir", data])
    assert again.exit_code == 0 and "0 turns of legacy had their signals detected again" in again.output


def _stat(output: str, name: str) -> int:
    row = next(line for line in output.splitlines() if line.startswith("│") and f" {name} " in line)
    return int(row.strip("│ ").split("│")[-1].strip())


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


def _garden(runner: CliRunner, tmp_path: Path, turns: int) -> str:
    """A memory of ``turns`` turns of one space ``ana``, stored through the CLI; its directory."""
    source = tmp_path / "garden.jsonl"
    lines = [f"Turn {i}: I planted tomatoes and basil in the garden." for i in range(turns - 2)]
    lines += ["My sister Lena moved to Berlin last spring.", "I adopted a grey cat named Miso."]
    source.write_text("\n".join(json.dumps({"text": t, "speaker": "Ana"}) for t in lines))
    data = str(tmp_path / "mem")
    stored = runner.invoke(app, ["ingest", "--space", "ana", str(source), "--data-dir", data])
    assert stored.exit_code == 0, stored.output
    return data


def _vector_route(runner: CliRunner, data: str, query: str) -> list[str]:
    """The turns the vector route found for ``query`` (``eywa recall --json``'s trace)."""
    found = runner.invoke(app, ["recall", "--space", "ana", query, "--json", "--data-dir", data])
    assert found.exit_code == 0, found.output
    return [hit["id"] for hit in json.loads(found.stdout)["trace"]["routes"]["vector"] if hit["kind"] == "evidence"]


def _finished(output: str, stage: str) -> int:
    """``stage``'s count summed over the ``finished`` lines (the command's passes, and the
    open's pass with what it left to the background thread)."""
    total = 0
    for line in output.splitlines():
        if line.startswith("finished"):
            total += sum(int(part.split()[-1]) for part in line.split(":", 1)[1].split(",") if stage in part)
    return total


def test_reconcile_embeds_again_the_vectors_a_deleted_vector_store_lost(
    runner: CliRunner, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    data = _garden(runner, tmp_path, 12)
    queries = ("Where does her sister live now?", "Which pet does Ana have?")
    before = [_vector_route(runner, data, q) for q in queries]
    assert all(before)
    shutil.rmtree(Path(data) / "vectors")
    # a pass of 4 marks: the open embeds 4 turns, the rest is this command's (and the background's)
    with caplog.at_level(logging.WARNING):  # on stderr outside pytest (logging's last resort)
        done = runner.invoke(app, ["reconcile", "--data-dir", data], env={"EYWA_RECONCILE_BATCH": "4"})
    assert done.exit_code == 0, done.output
    (warning,) = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert f"{Path(data) / 'vectors'} holds fewer points than the ledger counts as embedded" in warning
    assert "evidence: 0 points of 12, 12 marked" in warning
    assert _finished(done.stdout, "embed_evidence") == 12
    assert _pending(done.stdout, "embed_evidence") == _pending(done.stdout, "embed_belief") == 0
    assert [_vector_route(runner, data, q) for q in queries] == before


def test_repair_vectors_finds_lost_vectors_that_stale_ones_hide_from_the_open(
    runner: CliRunner, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Two turns' vectors gone, two stale points (of ids no store holds) in their place: the
    open's count sees as many points as turns and marks nothing; ``eywa repair-vectors``
    checks every id and embeds the two."""
    data = _garden(runner, tmp_path, 12)
    query = "Which pet does Ana have?"
    before = _vector_route(runner, data, query)
    lost = before[:2]
    shard = QdrantEdgeVectorStore(Path(data) / "vectors", 384)
    shard.delete("evidence", lost)
    stale = np.ones(384, dtype=np.float32)
    shard.upsert("evidence", [VectorPoint(f"ev_stale{i}", "elsewhere", stale) for i in range(2)])
    shard.close()
    with caplog.at_level(logging.WARNING):
        reconciled = runner.invoke(app, ["reconcile", "--data-dir", data])
    assert reconciled.exit_code == 0 and not caplog.records  # the count's blind spot: nothing seen
    assert not set(lost) & set(_vector_route(runner, data, query))
    repaired = runner.invoke(app, ["repair-vectors", "--data-dir", data])
    assert repaired.exit_code == 0, repaired.output
    assert "2 turns and beliefs had no vector: embedded again" in repaired.stdout
    assert _vector_route(runner, data, query) == before
    again = runner.invoke(app, ["repair-vectors", "--space", "ana", "--data-dir", data])
    assert again.exit_code == 0 and "0 turns and beliefs had no vector of ana" in again.stdout
    unknown = runner.invoke(app, ["repair-vectors", "--space", "nobody", "--data-dir", data])
    assert unknown.exit_code == 0 and "note: space 'nobody' holds no turns" in unknown.stderr
    assert "0 turns and beliefs had no vector of nobody" in unknown.stdout
