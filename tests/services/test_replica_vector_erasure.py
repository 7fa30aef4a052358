"""An erasure through one API replica leaves no vector in the other replica's local-mode folder.

Two ``eywa serve`` processes over one Neo4j, each with its own local-mode Qdrant folder (as
``tests/services/test_api_replicas.py`` and ``eywa bench service --replicas 2`` run them):
a turn written through the second replica is embedded there, with the belief Level 1 derives
from it. Erasing its speaker through the first replica deleted the first folder's points
only; the second kept the turn's and the belief's vectors, and its erasure proof counted
them. Each replica now sweeps the erasures other processes finished
(``eywa.stores.qdrant.local``): every ``EYWA_RECONCILE_INTERVAL_S`` (30 s here, so the
sweep the proof's read makes first is the one that runs) and before its proof. The folder
itself is read once its replica stopped.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from neo4j import Driver
from pydantic import SecretStr
from qdrant_client import QdrantClient
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


def doc_ids(folder: Path) -> set[str]:
    """Every ``doc_id`` of the evidence and belief points kept in a local-mode folder."""
    client = QdrantClient(path=str(folder))
    try:
        found: set[str] = set()
        for name in ("eywa_evidence", "eywa_belief"):
            points, _ = client.scroll(name, limit=10_000, with_payload=True, with_vectors=False)
            found |= {str((p.payload or {})["doc_id"]) for p in points}
        return found
    finally:
        client.close()


def test_a_speaker_erased_through_one_replica_leaves_no_vector_in_the_others_folder(
    tmp_path: Path, neo4j_server: Neo4jServer, neo4j_driver: Driver, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    wipe_graph(neo4j_driver, neo4j_server.database)
    first, second = (replica_settings(neo4j_server, redis_url, tmp_path / name) for name in ("a", "b"))
    for name, value in as_environment(first).items():
        monkeypatch.setenv(name, value)
    made = CliRunner().invoke(app, ["keys", "create", "--space", "team", "--scope", "read,write,erase"])
    assert made.exit_code == 0, made.output
    key = {"X-API-Key": made.stdout.strip()}
    ports = (free_port(HOST), free_port(HOST))
    with ThreadPoolExecutor(2) as pool:
        starting = [pool.submit(start_api, s, tmp_path / f"serve-{p}.log", HOST, p) for s, p in zip((first, second), ports)]
        processes = [f.result() for f in starting]
    try:
        with httpx.Client(base_url=f"http://{HOST}:{ports[0]}", timeout=60.0) as a, httpx.Client(
            base_url=f"http://{HOST}:{ports[1]}", timeout=60.0
        ) as b:
            turns = [
                {"text": "I moved to Lisbon in March.", "speaker": "Noor", "session": "s1", "observed_at": "2024-04-01T10:00:00"},
                {"text": "I work at Umbra Labs.", "speaker": "Omar", "session": "s1", "observed_at": "2024-04-01T10:01:00"},
            ]  # fmt: skip
            written = b.post("/v1/spaces/team/turns", json={"turns": turns}, headers=key)
            assert written.status_code == 201, written.text
            erased_turn, kept_turn = written.json()["ids"]
            beliefs = b.get("/v1/spaces/team/beliefs", params={"subject": "Noor"}, headers=key).json()
            assert beliefs, "Level 1 derived no belief about the erased speaker"
            erased = a.post("/v1/spaces/team/erase", json={"speaker": "Noor"}, headers=key)
            assert erased.status_code == 200, erased.text
            proof = b.get(f"/v1/spaces/team/erasures/{erased.json()['erasure_id']}/proof", headers=key)
            assert proof.status_code == 200, proof.text
            assert proof.json()["residue"] == dict.fromkeys(proof.json()["residue"], 0)  # also in b's folder
    finally:
        stop_api(processes[1])  # the second replica's folder is read below
        stop_api(processes[0])
    kept = doc_ids(tmp_path / "b" / "qdrant")
    assert kept_turn in kept  # the folder is the one the replica wrote
    assert erased_turn not in kept
    assert not {belief["id"] for belief in beliefs} & kept
