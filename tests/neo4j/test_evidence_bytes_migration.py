"""Migration 0021 gives ``bytes`` to the turns stored before Level 0 kept it (before space
quotas, #11): migration 0025 counts a space's usage (``usage``'s counters) from the
(space, bytes) index of migration 0022 (``counted_usage``), which holds only turns that have
it, so without this migration such a turn would count for nothing. The value it sets is the one a fresh write stores
(``turn_bytes``: UTF-8 bytes, not characters, of the text and of the metadata's JSON)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from neo4j import Driver, ManagedTransaction

from eywa.contract import SpaceUsage, turn_bytes
from eywa.models import Evidence
from eywa.stores.neo4j.evidence import Neo4jEvidenceStore
from eywa.stores.neo4j.graph import Neo4jGraph
from eywa.stores.neo4j.labels import Label
from eywa.stores.neo4j.migrations import load_migrations
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j

_AT = datetime(2024, 5, 1, 12, tzinfo=UTC)
TURNS = [("1", "Zoë met Ana in Málaga.", {"mood": "café ☕"}), ("2", "plain", {})]


def _turn(space: str, evidence_id: str, seq: int, text: str, metadata: dict[str, Any]) -> Evidence:
    return Evidence(
        id=f"ev_{space}_{evidence_id}", space=space, session="s", seq=seq, speaker=None, role=None, text=text, observed_at=_AT, recorded_at=_AT,
        content_hash=evidence_id, metadata=metadata,
    )  # fmt: skip


def _migrate(tx: ManagedTransaction) -> None:
    (migration,) = [m for m in load_migrations() if m.name == "0021_evidence_bytes"]
    namespace: dict[str, Any] = {"__name__": "graph_schema.migrations.0021_evidence_bytes"}
    exec(compile(migration.source, "0021_evidence_bytes.py", "exec"), namespace)  # noqa: S102 - our own file
    namespace["migrate"](tx)


def test_turns_stored_without_bytes_get_those_a_fresh_write_stores(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str
) -> None:
    store = Neo4jEvidenceStore(Neo4jGraph(neo4j_driver, neo4j_server.database, owns_driver=False))
    turns = [_turn(neo4j_space, i, n, text, meta) for n, (i, text, meta) in enumerate(TURNS)]
    store.add(turns, [])
    expected = SpaceUsage(turns=2, bytes=sum(turn_bytes(t.text, t.metadata) for t in turns))
    assert store.usage(neo4j_space) == store.counted_usage(neo4j_space) == expected
    characters = len(turns[0].text) + len(json.dumps(turns[0].metadata, ensure_ascii=False))
    assert turn_bytes(turns[0].text, turns[0].metadata) > characters  # what Cypher's size() would count
    neo4j_driver.execute_query(  # a store of before #11: turns without bytes
        f"MATCH (e:{Label.EVIDENCE}) WHERE e.space = $space REMOVE e.bytes", space=neo4j_space,
        database_=neo4j_server.database,
    )  # fmt: skip
    # unseen by the index, so by the full count the usage counters must equal (migration 0025)
    assert store.counted_usage(neo4j_space) == SpaceUsage(turns=0, bytes=0)
    with neo4j_driver.session(database=neo4j_server.database) as session:
        session.execute_write(_migrate)
    assert store.counted_usage(neo4j_space) == expected
