"""Two ``eywa serve`` processes over one Neo4j and one Redis are interchangeable replicas:
a key created through one works on the other, and a revocation on one is refused by the
other on its very next request (keys live in Neo4j in server mode, not in a local file).

Each replica gets its own data directory and local-mode Qdrant folder (local mode cannot be
shared between processes; deployments point both at ``EYWA_QDRANT_URL``). Starting two API
processes is most of this test's time.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from neo4j import Driver
from pydantic import SecretStr
from typer.testing import CliRunner

from eywa.bench.service import free_port, start_api, stop_api
from eywa.cli import app
from eywa.settings import EywaSettings, as_environment
from tests.conformance.conftest import wipe_graph
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j
HOST = "127.0.0.1"


def replica_settings(server: Neo4jServer, redis_url: str, directory: Path) -> EywaSettings:
    return EywaSettings(
        data_dir=directory / "data", qdrant_path=directory / "qdrant", neo4j_uri=server.uri,
        neo4j_user=server.user, neo4j_password=SecretStr(server.password), neo4j_database=server.database,
        redis_url=redis_url, job_runner="inline",
    )  # fmt: skip


def test_a_key_made_on_one_replica_works_on_the_other_and_its_revocation_at_once(
    tmp_path: Path, neo4j_server: Neo4jServer, neo4j_driver: Driver, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    wipe_graph(neo4j_driver, neo4j_server.database)
    first, second = (replica_settings(neo4j_server, redis_url, tmp_path / name) for name in ("a", "b"))
    for name, value in as_environment(first).items():  # `eywa keys create` against Neo4j
        monkeypatch.setenv(name, value)
    made = CliRunner().invoke(app, ["keys", "create", "--space", "*", "--scope", "admin"])
    assert made.exit_code == 0, made.output
    admin = {"X-API-Key": made.stdout.strip()}
    ports = (free_port(HOST), free_port(HOST))
    with ThreadPoolExecutor(2) as pool:
        starting = [pool.submit(start_api, s, tmp_path / f"serve-{p}.log", HOST, p) for s, p in zip((first, second), ports)]
        processes = [f.result() for f in starting]
    try:
        with httpx.Client(base_url=f"http://{HOST}:{ports[0]}", timeout=60.0) as a, httpx.Client(
            base_url=f"http://{HOST}:{ports[1]}", timeout=60.0
        ) as b:
            created = a.post("/v1/keys", json={"spaces": ["shared"], "scopes": ["read", "write"]}, headers=admin)
            assert created.status_code == 201, created.text
            agent = {"X-API-Key": created.json()["secret"]}
            key_id = created.json()["key"]["id"]
            assert b.get("/v1/spaces/shared/beliefs", headers=agent).status_code == 200  # made on a, used on b
            assert b.get("/v1/spaces/elsewhere/beliefs", headers=agent).status_code == 403  # its scope travels too
            assert [k["id"] for k in b.get("/v1/keys", headers=admin).json()].count(key_id) == 1
            assert b.delete(f"/v1/keys/{key_id}", headers=admin).status_code == 200
            refused = a.get("/v1/spaces/shared/beliefs", headers=agent)  # revoked on b, refused on a at once
            assert refused.status_code == 401, refused.text
            assert b.get("/v1/spaces/shared/beliefs", headers=agent).status_code == 401
    finally:
        for process in processes:
            stop_api(process)
