"""Migration 0023 gives ``signals_version`` 0 to the turns stored before Level 0 had a
version (session 28): ``eywa reprocess`` finds and counts the outdated turns through the
(space, signals_version) index of migration 0024, which holds only turns that have the
property, so without the migration such a turn would never be detected again. A turn
written now carries the current version and is not outdated."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from neo4j import Driver, ManagedTransaction

from eywa.models import Evidence
from eywa.signals.version import SIGNALS_VERSION
from eywa.stores.neo4j.evidence import Neo4jEvidenceStore
from eywa.stores.neo4j.graph import Neo4jGraph
from eywa.stores.neo4j.labels import Label
from eywa.stores.neo4j.migrations import load_migrations
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j

_AT = datetime(2024, 5, 1, 12, tzinfo=UTC)


def _turn(space: str, n: int) -> Evidence:
    return Evidence(
        id=f"ev_{space}_{n}", space=space, session="s", seq=n, speaker=None, role=None, text=f"turn {n}",
        observed_at=_AT, recorded_at=_AT, content_hash=str(n), metadata={},
    )  # fmt: skip


def _migrate(tx: ManagedTransaction) -> None:
    (migration,) = [m for m in load_migrations() if m.name == "0023_evidence_signals_version"]
    for statement in migration.statements:
        tx.run(statement).consume()


def test_turns_stored_without_a_signals_version_are_found_outdated_after_the_migration(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str
) -> None:
    store = Neo4jEvidenceStore(Neo4jGraph(neo4j_driver, neo4j_server.database, owns_driver=False))
    store.add([_turn(neo4j_space, n) for n in range(3)], [])
    assert store.count_signals_outdated(neo4j_space, SIGNALS_VERSION) == 0  # written now: current
    assert store.count_signals_outdated(neo4j_space, SIGNALS_VERSION + 1) == 3  # a later release's
    neo4j_driver.execute_query(  # a store of before session 28: turns without a version
        f"MATCH (e:{Label.EVIDENCE}) WHERE e.space = $space REMOVE e.signals_version", space=neo4j_space,
        database_=neo4j_server.database,
    )  # fmt: skip
    assert store.count_signals_outdated(neo4j_space, SIGNALS_VERSION) == 0  # unseen by the index
    with neo4j_driver.session(database=neo4j_server.database) as session:
        session.execute_write(_migrate)
    assert store.count_signals_outdated(neo4j_space, SIGNALS_VERSION) == 3
    assert store.signals_outdated(neo4j_space, SIGNALS_VERSION, 2) == [f"ev_{neo4j_space}_0", f"ev_{neo4j_space}_1"]
