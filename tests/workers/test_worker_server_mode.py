"""A real Celery worker in server mode: Level 1 on turns stored in Neo4j (written through
``Memory.connect``) leaves beliefs and dimensions in Neo4j (``workers.stores.open_server_graph``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import SecretStr

from eywa.memory import Memory
from eywa.settings import EywaSettings
from tests.neo4j_server import Neo4jServer
from tests.workers.conftest import TURNS, ConstantEmbedder, RunnerFactory, WorkerFactory, wait_for
from eywa.stores.server import open_server_graph

pytestmark = [pytest.mark.neo4j, pytest.mark.redis]

JOB_TIMEOUT = 90.0


def _settings(server: Neo4jServer, tmp_path: Path) -> EywaSettings:
    return EywaSettings(
        data_dir=tmp_path / "data", neo4j_uri=server.uri, neo4j_user=server.user,
        neo4j_password=SecretStr(server.password), neo4j_database=server.database,
        qdrant_path=tmp_path / "qdrant", extractor="none",
    )


def test_a_server_mode_worker_writes_beliefs_and_dimensions_to_neo4j(
    tmp_path: Path, neo4j_server: Neo4jServer, neo4j_space: str, make_runner: RunnerFactory,
    start_worker: WorkerFactory,
) -> None:
    settings = _settings(neo4j_server, tmp_path)
    runner = make_runner(lambda: open_server_graph(settings))
    with Memory.connect(settings, embedder=ConstantEmbedder()) as mem:
        ids = [i for turn in TURNS for i in mem.remember(neo4j_space, [turn])]
    assert len(ids) == len(TURNS)

    graph = open_server_graph(settings)
    try:
        assert graph.backend == "server"
        assert len(graph.evidence.get(neo4j_space, ids)) == len(ids)
        assert graph.beliefs.beliefs(neo4j_space, status=None) == []  # extractor "none": Level 1 not run

        empty_dir = tmp_path / "no-embedded-store"  # the worker must not fall back to SQLite
        start_worker(
            empty_dir, EYWA_NEO4J_URI=neo4j_server.uri, EYWA_NEO4J_USER=neo4j_server.user,
            EYWA_NEO4J_PASSWORD=neo4j_server.password, EYWA_NEO4J_DATABASE=neo4j_server.database,
        )
        job = runner.submit(neo4j_space, ids)
        wait_for(lambda: runner.status(job).status in {"done", "failed"}, JOB_TIMEOUT, f"job {job}")
        status = runner.status(job)
        assert status.status == "done", status.detail

        beliefs = graph.beliefs.beliefs(neo4j_space, status=None)
        assert status.detail["accepted"] == len(beliefs) >= 4
        assert all(set(b.evidence_ids) <= set(ids) for b in beliefs)
        modes = {(d.entity_key, d.attribute): (d.mode or "").casefold() for d in graph.dimensions.dimensions(neo4j_space)}
        assert modes[("cecilia", "residence")] == "berlin"
        assert modes[("cecilia", "employer")] == "google"
        assert len(graph.dimensions.deltas(neo4j_space, "cecilia", "residence")) == 3
        assert not empty_dir.exists() or not any(empty_dir.iterdir())
    finally:
        graph.close()
