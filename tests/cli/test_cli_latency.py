"""``eywa bench latency`` end to end on a tiny synthetic corpus: the figures the issue asks
for are printed and written, consistently with each other; bad input fails in one line."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from eywa.cli import app
from eywa.bench.cli import parse_sizes
from eywa.errors import InvalidInputError


@pytest.fixture(scope="module")
def smoke(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[dict[str, Any]]]:
    out = tmp_path_factory.mktemp("latency") / "report.json"
    result = CliRunner().invoke(
        app, ["bench", "latency", "--turns", "300", "--queries", "20", "--no-embed-pass", "--json", str(out)]
    )
    assert result.exit_code == 0, result.output
    return result.stdout, json.loads(out.read_text(encoding="utf-8"))


def test_prints_ingest_percentiles_ratio_memory_and_load(smoke: tuple[str, list[dict[str, Any]]]) -> None:
    stdout, _ = smoke
    for label in ("Level 0 (null embedder", "Level 0 + embedding + Level 1", "turns/s"):
        assert label in stdout
    for column in ("p50", "p95", "p99", "wall", "route.keyword", "route.vector", "embed"):
        assert column in stdout
    assert "full read / slowest route" in stdout and "run alone" in stdout
    assert "memory peak (RSS)" in stdout and "MiB" in stdout
    assert "load average" in stdout
    assert f"SQLite {sqlite3.sqlite_version}" in stdout  # the store's library: FTS5's speed varies with it
    # 300 turns stay under the indexing threshold: searched exactly, and the report says so
    assert "vector shards (HNSW): evidence 0 of 300 points indexed" in stdout


def test_json_report_is_consistent(smoke: tuple[str, list[dict[str, Any]]]) -> None:
    _, reports = smoke
    (report,) = reports
    assert report["turns"] == 300 and report["queries"] == 20 and report["backend"] == "embedded"
    assert set(report["ingest"]) == {"level0", "full"}  # --no-embed-pass skips the middle pass
    assert all(p["turns"] == 300 and p["turns_per_s"] > 0 for p in report["ingest"].values())
    wall = report["recall"]["wall"]
    assert wall["n"] == 20 and 0 < wall["p50"] <= wall["p95"] <= wall["p99"]
    routes = {k: v["p50"] for k, v in report["recall"].items() if k.startswith("route.")}
    assert report["slowest_route"] == max(routes, key=routes.__getitem__)
    assert report["full_over_slowest_route"] == pytest.approx(wall["p50"] / routes[report["slowest_route"]], rel=0.01)
    assert report["full_over_slowest_route"] >= 1.0
    # run alone, the vector route also pays for the query embedding
    assert report["slowest_standalone_route"] in {*routes, "route.vector+embed"}
    assert 1.0 <= report["full_over_slowest_standalone_route"] <= report["full_over_slowest_route"]
    assert set(report["by_shape_p50"]) == {"fact", "temporal", "list", "count", "inference", "yes_no"}
    # the asking thread's CPU is part of the process's: the query embedding runs beside it
    assert 0 < report["recall"]["cpu.thread"]["p50"] <= report["recall"]["cpu"]["p50"]
    if Path("/proc/thread-self/schedstat").exists():  # the asking thread's wall time split (Linux)
        assert report["recall"]["wait.core"]["n"] == report["recall"]["wait.blocked"]["n"] == 20
        assert report["recall"]["wait.blocked"]["p50"] >= 0 and report["recall"]["wait.core"]["p50"] >= 0
    assert report["peak_rss_mib"]["recall"] > 0
    assert report["targets"] == {}  # targets are stated for 10k and 100k only
    assert report["sqlite"] == sqlite3.sqlite_version
    assert report["vector_index"]["evidence"] == {"points": 300, "indexed": 0}
    assert set(report["vector_index"]) == {"evidence", "belief", "entity"}


def test_server_backend_without_neo4j_uri_fails_in_one_line(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(app, ["bench", "latency", "--turns", "10", "--backend", "server"])
    assert result.exit_code == 1
    assert "EYWA_NEO4J_URI" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_bad_turns_value_fails_in_one_line(runner: CliRunner) -> None:
    result = runner.invoke(app, ["bench", "latency", "--turns", "10,lots"])
    assert result.exit_code == 1
    assert "'lots' is not a number of turns" in result.stderr


def test_parse_sizes_accepts_lists_and_k_suffix() -> None:
    assert parse_sizes("10000,100k") == [10_000, 100_000]
    with pytest.raises(InvalidInputError):
        parse_sizes("0")


def test_second_run_on_the_same_data_dir_reuses_the_store(runner: CliRunner, tmp_path: Path) -> None:
    args = ["bench", "latency", "--turns", "60", "--queries", "6", "--no-embed-pass", "--data-dir", str(tmp_path)]
    first = runner.invoke(app, [*args, "--json", str(tmp_path / "first.json")])
    second = runner.invoke(app, [*args, "--json", str(tmp_path / "second.json")])
    assert first.exit_code == 0 and second.exit_code == 0, first.output + second.output
    assert json.loads((tmp_path / "first.json").read_text())[0]["ingest"]["full"]["turns"] == 60
    assert json.loads((tmp_path / "second.json").read_text())[0]["ingest"] == {}
    assert "store reused" in second.stdout


def test_crowding_other_spaces_needs_the_server_backend(runner: CliRunner) -> None:
    result = runner.invoke(app, ["bench", "latency", "--turns", "10", "--crowd", "100"])
    assert result.exit_code == 1
    assert "--crowd" in result.stderr and "--backend server" in result.stderr


def _tiny_locomo(path: Path) -> Path:
    """Two samples whose sessions and dialogue ids repeat, as in any LoCoMo file."""
    samples = [
        {
            "sample_id": sample,
            "conversation": {
                "speaker_a": a, "speaker_b": b,
                "session_1_date_time": "10:00 am on 2 March, 2023",
                "session_1": [
                    {"speaker": a, "dia_id": "D1:1", "text": f"I started {hobby} classes on Tuesday evenings."},
                    {"speaker": b, "dia_id": "D1:2", "text": f"Nice, I adopted a dog called {dog} last weekend."},
                ],
            },
            "qa": [
                {"question": f"What is the name of {b}'s dog?", "answer": dog, "evidence": ["D1:2"], "category": 4},
                {"question": f"What classes did {a} start?", "answer": hobby, "evidence": ["D1:1"], "category": 4},
            ],
        }
        for sample, a, b, hobby, dog in (("s-1", "Iris", "Omar", "pottery", "Biscuit"), ("s-2", "Zed", "Kim", "salsa", "Rex"))
    ]
    path.write_text(json.dumps(samples), encoding="utf-8")
    return path


def test_data_file_times_recall_against_fts5_alone_on_its_turns_in_one_space(runner: CliRunner, tmp_path: Path) -> None:
    data = _tiny_locomo(tmp_path / "tiny.json")
    out = tmp_path / "file.json"
    result = runner.invoke(app, ["bench", "latency", "--data", str(data), "--queries", "3", "--json", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    # every turn lands in the one space: the repeated session and dialogue ids do not collide
    assert report["turns"] == 4 and report["queries"] == 3  # 4 distinct questions, 3 asked
    for clock in ("wall", "cpu", "thread"):
        recall, fts5 = report["recall"][clock], report["fts5"][clock]
        assert recall["n"] == fts5["n"] == 3 and recall["p50"] > 0 and fts5["p50"] > 0
        assert report["fts5_ratio"][clock]["p50"] == pytest.approx(recall["p50"] / fts5["p50"], rel=0.01)
    # the asking thread's CPU (the read path) is part of the process's (with the embedding)
    assert report["recall"]["thread"]["p50"] <= report["recall"]["cpu"]["p50"]
    assert {"plan", "embed", "route.keyword", "fuse", "pack"} <= set(report["stages"])
    assert report["met"] == (report["fts5_ratio"]["cpu"]["p50"] <= report["target"] == 6.0)
    assert "recall / FTS5 alone (cpu)" in result.stdout and "load average" in result.stdout
    assert report["sqlite"] == sqlite3.sqlite_version and f"SQLite {sqlite3.sqlite_version}" in result.stdout


def test_data_file_needs_the_embedded_backend(runner: CliRunner, tmp_path: Path) -> None:
    data = _tiny_locomo(tmp_path / "tiny.json")
    result = runner.invoke(app, ["bench", "latency", "--data", str(data), "--backend", "server"])
    assert result.exit_code == 1
    assert "--data" in result.stderr and "embedded" in result.stderr
