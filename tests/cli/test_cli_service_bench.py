"""``eywa bench service`` end to end: a short run over real HTTP passes the exactly-once
audit and prints the figures the issue asks for; the JSON report agrees with the table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from eywa.bench.service import run_service_bench
from eywa.cli import app


def test_smoke_run_prints_figures_and_passes_exactly_once(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "service.json"
    result = runner.invoke(app, ["bench", "service", "--agents", "3", "--seconds", "3", "--json", str(out)])
    assert result.exit_code == 0, result.output
    verdict = [line for line in result.stdout.splitlines() if line.startswith("exactly-once")]
    assert len(verdict) == 1 and verdict[0].endswith("PASS"), result.stdout
    for label in ("POST /turns", "POST /recall", "p50", "p95", "requests/s:", "turns/s:", "errors: 0"):
        assert label in result.stdout
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["agents"] == 3 and report["exactly_once"] is True and report["errors"] == 0
    assert report["routes"]["turns"]["requests"] >= 3 and report["routes"]["recall"]["requests"] >= 1
    assert report["turns_acknowledged"] == sum(report["spaces"].values()) > 0
    assert 0 < report["routes"]["turns"]["p50"] <= report["routes"]["turns"]["p95"]
    assert "API process CPU:" in result.stdout and report["api_cpu_s"] > 0  # /proc of the serve process
    assert report["api_cpu_ms_per_request"] == pytest.approx(1000 * report["api_cpu_s"] / report["requests"], rel=0.01, abs=0.01)


def test_reused_data_dir_keeps_runs_apart(tmp_path: Path) -> None:
    first = run_service_bench(agents=1, seconds=0.5, data_dir=tmp_path)
    second = run_service_bench(agents=1, seconds=0.5, data_dir=tmp_path, ack="level0", drain_s=0.0)  # after Level 0
    assert first.exactly_once and second.exactly_once
    assert (first.ack, second.ack) == ("level1", "level0")
    assert not set(first.spaces) & set(second.spaces)


def test_bad_agent_count_fails_in_one_line(runner: CliRunner) -> None:
    result = runner.invoke(app, ["bench", "service", "--agents", "0"])
    assert result.exit_code != 0
    assert "--agents" in result.stderr


def test_audit_reports_missing_duplicated_and_unacknowledged_turns(tmp_path: Path) -> None:
    from eywa.bench.latency import NullEmbedder
    from eywa.bench.service import _audit
    from eywa.memory import Memory
    from eywa.settings import EywaSettings
    from eywa.stores.embedded.factory import open_embedded_graph

    turns = [{"text": f"turn {n}", "speaker": "A", "external_id": f"x{n}"} for n in range(3)]
    with Memory.open(tmp_path, settings=EywaSettings(extractor="none"), embedder=NullEmbedder()) as mem:
        ids = mem.remember("s", turns)
    acked = {f"x{n}": i for n, i in enumerate(ids)}
    stores = open_embedded_graph(tmp_path)
    try:
        assert _audit(stores, {"s": acked}, {}) == ({"s": 3}, [])
        # a turn stored without acknowledgement, unless its request failed
        partial = {"x0": ids[0], "x1": ids[1]}
        assert _audit(stores, {"s": partial}, {})[1] == ["s: 3 turns stored for 2 acknowledged (+0 unacked)"]
        assert _audit(stores, {"s": partial}, {"s": {"x2"}})[1] == []
        # an id acknowledged twice, an id that does not resolve
        _, problems = _audit(stores, {"s": {**acked, "x9": ids[0], "ghost": "ev_nope"}}, {})
    finally:
        stores.close()
    assert any("under 4 ids" in p for p in problems)
    assert any("differ from their deterministic id" in p for p in problems)
    assert any("1 acknowledged ids do not resolve" in p for p in problems)


def test_open_loop_over_the_embedding_bound_is_refused_counted_and_nothing_refused_is_stored(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--rate far above what one API process embeds, with a bound of 4 turns: some batches
    are refused (503 overloaded, counted apart from errors), none of their turns is stored,
    every acknowledged one is stored once and embedded by the end of the drain."""
    monkeypatch.setenv("EYWA_MAX_EMBED_BACKLOG", "4")
    out = tmp_path / "rate.json"
    result = runner.invoke(app, [
        "bench", "service", "--rate", "400", "--seconds", "2", "--agents", "8", "--ack", "level0", "--drain", "120",
        "--json", str(out),
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "open loop: 400 turns/s offered" in result.stdout and "refused by backpressure" in result.stdout
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["rate"] == 400 and report["batches_offered"] == 200 and report["errors"] == 0
    assert report["refused_batches"] > 0 and report["refused_turns"] == 4 * report["refused_batches"]
    assert report["routes"]["turns"]["requests"] + report["refused_batches"] == report["batches_offered"]
    assert report["turns_acknowledged"] == sum(report["spaces"].values()) == 4 * report["routes"]["turns"]["requests"]
    assert report["exactly_once"] is True and report["embed_drained"] is True  # refused turns are checked absent
    assert report["backlog_peak"]["embed"] >= 4 and report["routes"]["recall"]["requests"] == 0


def test_paced_plan_alternates_writes_and_recalls_over_the_agents_spaces() -> None:
    from eywa.bench.open_loop import PlannedBatch, PlannedRecall
    from eywa.bench.service import _paced_plan

    plan = _paced_plan("r", ["a", "b", "c"], "shared", 9.5)  # rounded up to 10 requests
    assert [type(p) for p in plan] == [PlannedBatch, PlannedRecall] * 5
    writes = [p for p in plan if isinstance(p, PlannedBatch)]
    recalls = [p for p in plan if isinstance(p, PlannedRecall)]
    assert [w.space for w in writes] == ["a", "b", "c", "shared", "b"]  # every fourth batch to the shared space
    assert [r.space for r in recalls] == ["a", "shared", "c", "a", "b"]  # as an agent's second recall
    external = [t["external_id"] for w in writes for t in w.turns]
    assert len(external) == len(set(external)) == 20 and all(r.query for r in recalls)


def test_paced_run_sends_every_request_and_reports_both_routes(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "paced.json"
    result = runner.invoke(app, ["bench", "service", "--agents", "2", "--seconds", "2", "--request-rate", "8",
                                 "--ack", "level0", "--drain", "10", "--json", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "paced: 8 requests/s offered (16 requests" in " ".join(result.stdout.split())
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["request_rate"] == 8 and report["requests_offered"] == 16 and report["rate"] is None
    assert report["routes"]["turns"]["requests"] == report["routes"]["recall"]["requests"] == 8  # none dropped
    assert report["requests"] == 16 and report["errors"] == 0 and report["exactly_once"] is True
    assert report["turns_acknowledged"] == 32 and 0 <= report["late_requests"] <= 16
    assert set(report["send_delay_ms"]) == {"p50", "p95", "max"}
    # The lag sampler reads every pending mark each tick, a cost that grows with the backlog a
    # paced run lets grow, on the cores the server shares: it reads less often than in the
    # closed loop, and the report says how often.
    assert report["lag_sample_s"] == 0.25
    assert "ledger read every 0.25 s" in " ".join(result.stdout.split())


def test_writes_only_and_paced_rates_exclude_each_other(runner: CliRunner) -> None:
    result = runner.invoke(app, ["bench", "service", "--rate", "10", "--request-rate", "10"])
    assert result.exit_code != 0
    assert "exclude each other" in result.stderr
