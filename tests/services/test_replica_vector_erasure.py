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

from pathlib import Path

import pytest
from neo4j import Driver
from qdrant_client import QdrantClient

from eywa.bench.service import stop_api
from tests.neo4j_server import Neo4jServer
from tests.services.replicas import two_replicas

pytestmark = pytest.mark.neo4j


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
    with two_replicas(tmp_path, neo4j_server, neo4j_driver, redis_url, monkeypatch, space="team",
                      scope="read,write,erase") as replicas:  # fmt: skip
        a, b, key = replicas.a, replicas.b, replicas.key
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
        stop_api(replicas.processes[1])  # the second replica's folder is read below
    kept = doc_ids(tmp_path / "b" / "qdrant")
    assert kept_turn in kept  # the folder is the one the replica wrote
    assert erased_turn not in kept
    assert not {belief["id"] for belief in beliefs} & kept
