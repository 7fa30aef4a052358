"""``eywa bench chaos --backend server`` at a small size: 8 writers over HTTP against ``eywa
serve`` with the Celery runner, two workers and beat, while a worker is SIGKILLed, Redis
(without persistence) is killed and started empty, and Neo4j is killed and resumed. Every
acknowledged turn is stored exactly once, every failure the writers saw was a connection
error or a 503 problem+json, and the ledger drains: behaviour, not timings.

The Neo4j is the reliability tests' restartable one (``restartable_neo4j``), shared with
``test_neo4j_restart``; Redis is the bench's own (it is restarted empty).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from eywa.bench.chaos import run_chaos_bench
from eywa.settings import EywaSettings

pytestmark = [pytest.mark.neo4j, pytest.mark.redis]


# Runs of the experiment, at most: a run whose writers noticed no fault is a run that tested
# nothing (see below), so it is run again; every run's outcome must be correct.
RUNS = 3


def test_server_chaos_loses_nothing_duplicates_nothing_and_drains(restartable_neo4j: tuple[Path, str]) -> None:
    """Every run, noticed or not, must lose nothing, duplicate nothing, answer no 500 and
    drain. That the writers noticed a fault says the run exercised the re-sending; on a
    2-core machine a third to a half of the runs did not (session 17: every writer's request
    sometimes spans the whole fault plan and then succeeds; CI5 saw two such runs in a row),
    so such a run is repeated, up to RUNS in all, rather than counted as a test. Session 18's
    thread dumps found the likely stall: request threads waiting on the embedder's lock
    while another thread made an embedding session, touching no store (fixed in
    ``eywa.embedding.minilm``; the flake did not recur in seven runs before the fix either,
    so the rerun is kept). Session 23 found what remained (CI failed three runs in a row at
    a load of 5-6; reproduced at 17-26): each write waited for the API's own embedding (no
    Qdrant server here, so the workers do not embed), one write at a time, 8-37 s a batch,
    so that every request spanned the fault plan. The bench now acknowledges after Level 0,
    as the server shape does, with a bounded embedding backlog."""
    run_dir, _ = restartable_neo4j
    for _ in range(RUNS):
        report = run_chaos_bench(
            writers=8, seconds=6.0, kills=1, drain_s=180.0, backend="server", settings=EywaSettings(),
            neo4j_run_dir=run_dir,
        )  # fmt: skip
        assert [fault.split()[0] for fault in report.faults] == ["worker", "redis", "neo4j"]
        assert report.turns_acknowledged > 0 and report.refusals == [], report
        assert report.duplicated == 0 and report.lost == 0, report
        assert report.server_errors == 0, report.server_error_samples
        assert report.backlog == 0, report.backlog_by_stage
        if _faults_met(report.failures_retried):
            break
    noticed = _faults_met(report.failures_retried)
    assert noticed, f"no fault was noticed by the writers in {RUNS} runs: nothing was tested"
    assert report.passed


def _faults_met(failures: list[str]) -> list[str]:
    """The failures the writers retried that a fault caused: not the backpressure's
    ``overloaded``, which a run meets without any fault."""
    return [failure for failure in failures if "overloaded" not in failure]
