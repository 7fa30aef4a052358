"""The same settings give the same system from every command: with ``EYWA_NEO4J_URI`` set,
``eywa ingest``, ``eywa recall`` and ``eywa stats`` read and write the real Neo4j test
server, exactly as ``eywa serve`` does, and no embedded store is created."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from neo4j import Driver
from typer.testing import CliRunner

from eywa.cli import app
from eywa.runtime import load_settings, open_memory
from eywa.stores.ledger import SpaceBacklog
from eywa.stores.embedded.factory import DATABASE_FILE
from eywa.stores.neo4j.labels import Label
from tests.conformance.conftest import wipe_graph
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j

TURNS = [
    {"text": "I adopted a greyhound called Biscuit last spring.", "speaker": "Ana", "session": "s1",
     "observed_at": "2023-05-25T10:00:00"},
    {"text": "What does Biscuit like to eat?", "speaker": "Ben", "session": "s1",
     "observed_at": "2023-05-25T10:01:00"},
    {"text": "Mostly carrots, oddly enough.", "speaker": "Ana", "session": "s1",
     "observed_at": "2023-05-25T10:02:00"},
]  # fmt: skip


@pytest.fixture
def server_env(neo4j_server: Neo4jServer, tmp_path: Path) -> dict[str, str]:
    """``EYWA_*`` of server mode, as a user would export them (vectors in local mode)."""
    return {
        "EYWA_NEO4J_URI": neo4j_server.uri,
        "EYWA_NEO4J_USER": neo4j_server.user,
        "EYWA_NEO4J_PASSWORD": neo4j_server.password,
        "EYWA_NEO4J_DATABASE": neo4j_server.database,
        "EYWA_QDRANT_PATH": str(tmp_path / "qdrant"),
        "EYWA_DATA_DIR": str(tmp_path / "data"),
    }


def _evidence_ids(driver: Driver, database: str, space: str) -> set[str]:
    records = driver.execute_query(
        f"MATCH (e:{Label.EVIDENCE}) WHERE e.space = $space RETURN e.id AS id", space=space, database_=database
    ).records
    return {r["id"] for r in records}


def test_ingest_recall_and_stats_use_neo4j_when_its_uri_is_set(
    runner: CliRunner, server_env: dict[str, str], neo4j_driver: Driver, neo4j_server: Neo4jServer,
    neo4j_space: str, tmp_path: Path,
) -> None:
    source = tmp_path / "turns.jsonl"
    source.write_text("".join(json.dumps(t) + "\n" for t in TURNS), encoding="utf-8")

    ingested = runner.invoke(app, ["ingest", "--space", neo4j_space, str(source)], env=server_env)
    assert ingested.exit_code == 0, ingested.output
    assert f"Neo4j at {neo4j_server.uri}" in ingested.stdout
    stored = _evidence_ids(neo4j_driver, neo4j_server.database, neo4j_space)
    assert len(stored) == len(TURNS)

    recalled = runner.invoke(
        app, ["recall", "--space", neo4j_space, "What does Biscuit eat?", "--json"], env=server_env
    )
    assert recalled.exit_code == 0, recalled.output
    result = json.loads(recalled.stdout)
    cited = {ref["id"] for item in result["items"] for ref in item["provenance"]}
    assert cited and cited <= stored
    assert "carrots" in result["context"]

    stats = runner.invoke(app, ["stats", "--space", neo4j_space], env=server_env)
    assert stats.exit_code == 0, stats.output
    assert re.search(rf"^\W*evidence\W+{len(TURNS)}\W*$", stats.stdout, re.MULTILINE), stats.stdout

    assert not (tmp_path / "data" / DATABASE_FILE).exists()  # no embedded store was created


def test_an_unknown_space_on_the_server_is_named_not_created(
    runner: CliRunner, server_env: dict[str, str], neo4j_space: str
) -> None:
    result = runner.invoke(app, ["recall", "--space", neo4j_space, "anything", "--json"], env=server_env)
    assert result.exit_code == 0 and json.loads(result.stdout)["items"] == []
    assert f"note: space {neo4j_space!r} holds no turns" in result.stderr


@pytest.mark.neo4j
def test_latency_bench_times_the_queries_again_after_crowding_other_spaces(
    runner: CliRunner, server_env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "report.json"
    args = ["bench", "latency", "--backend", "server", "--turns", "40", "--queries", "5", "--no-embed-pass",
            "--crowd", "18", "--json", str(out)]  # fmt: skip
    result = runner.invoke(app, args, env={**server_env, "EYWA_DISABLED_STAGES": '["vector"]'})
    assert result.exit_code == 0, result.output
    (report,) = json.loads(out.read_text(encoding="utf-8"))
    crowd = report["crowd"]
    assert crowd["ingest"]["turns"] == 18 and crowd["other_spaces"] == 9
    assert crowd["keyword_alone"]["n"] == crowd["keyword_crowded"]["n"] == 5
    assert crowd["keyword_p95_ratio"] == pytest.approx(
        crowd["keyword_crowded"]["p95"] / crowd["keyword_alone"]["p95"], abs=0.01
    )
    assert crowd["met"] == (crowd["keyword_p95_ratio"] <= crowd["target"] == 1.5)
    assert "route.vector" not in report["recall"]  # the rule the server targets are stated under
    assert "crowded:" in result.stdout and "target keyword p95 crowded/alone <= 1.5" in result.stdout
    # The Level 0 and crowd passes share the database: they leave its recorded embedder as it
    # was, so a later open does not mark the recall space's vectors stale (a null embedder did,
    # and the next run re-embedded all of them behind its timed recalls).
    for key, value in server_env.items():
        monkeypatch.setenv(key, value)
    with open_memory(load_settings(), backend="server", embed_writes=False) as mem:  # marks stay to be seen
        assert mem.pending("synthetic-40") == SpaceBacklog()


def test_latency_bench_leaves_no_pending_work_or_throwaway_space_behind(
    runner: CliRunner, server_env: dict[str, str], neo4j_driver: Driver, neo4j_server: Neo4jServer,
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """Its Level 0, Level 0 + embedding and ``--crowd`` passes share the database; each space of
    theirs is dropped once its figure is taken. Left there, the Level 0 pass's and the crowd's
    spaces held pending embedding and Level 1 marks (the embedding pass's, turns counted as
    embedded whose vectors were in a scratch Qdrant), and the next process on the database did
    all that work first (30+ min at 100k)."""
    wipe_graph(neo4j_driver, neo4j_server.database)
    kept, out = tmp_path / "bench", tmp_path / "report.json"
    args = ["bench", "latency", "--backend", "server", "--turns", "40", "--queries", "3", "--data-dir", str(kept)]
    result = runner.invoke(app, [*args, "--crowd", "18"], env=server_env)
    assert result.exit_code == 0, result.output
    for key, value in server_env.items():
        monkeypatch.setenv(key, value)
    with open_memory(load_settings(), backend="server", embed_writes=False) as mem:  # marks stay to be seen
        assert mem.spaces() == ["synthetic-40"]
        assert set(mem.backlog().values()) == {0}, mem.backlog()
    assert "dropped the throwaway spaces" in result.output
    again = runner.invoke(app, [*args, "--json", str(out)], env=server_env)  # on the kept store
    assert again.exit_code == 0, again.output
    (report,) = json.loads(out.read_text(encoding="utf-8"))
    assert report["ingest"] == {} and report["finished_before_timing"] == 0
