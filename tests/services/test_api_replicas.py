"""Two ``eywa serve`` processes over one Neo4j and one Redis are interchangeable replicas:
a key created through one works on the other, and a revocation on one is refused by the
other on its very next request (keys live in Neo4j in server mode, not in a local file).

The replicas are ``tests.services.replicas.two_replicas``'s.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from neo4j import Driver

from tests.neo4j_server import Neo4jServer
from tests.services.replicas import two_replicas

pytestmark = pytest.mark.neo4j


def test_a_key_made_on_one_replica_works_on_the_other_and_its_revocation_at_once(
    tmp_path: Path, neo4j_server: Neo4jServer, neo4j_driver: Driver, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with two_replicas(tmp_path, neo4j_server, neo4j_driver, redis_url, monkeypatch, space="*", scope="admin") as replicas:
        a, b, admin = replicas.a, replicas.b, replicas.key
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
