"""Migration 0025 gives each space's ``:Backlog`` node the ``turns`` and ``bytes`` its quotas
count (``EvidenceStore.usage``), from the turns stored before Level 0 and the erasure kept
them: a store of before has the turns and no counters (or stale ones), and after the
migration every space's counters equal a full count, a space without a turn holds nothing,
and later writes add to the counted figures."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from neo4j import Driver, ManagedTransaction

from eywa.contract import SpaceUsage
from eywa.models import Evidence
from eywa.stores.neo4j.evidence import Neo4jEvidenceStore
from eywa.stores.neo4j.graph import Neo4jGraph
from eywa.stores.neo4j.labels import Label
from eywa.stores.neo4j.migrations import load_migrations
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j

_AT = datetime(2024, 5, 1, 12, tzinfo=UTC)


def _turn(space: str, n: int) -> Evidence:
    return Evidence(
        id=f"ev_{space}_{n}", space=space, session="s", seq=n, speaker=None, role=None,
        text=f"Turn {n} of {space}, café ☕" * (n + 1), observed_at=_AT, recorded_at=_AT,
        content_hash=f"{space}{n}", metadata={"n": n},
    )  # fmt: skip


def _migrate(tx: ManagedTransaction) -> None:
    (migration,) = [m for m in load_migrations() if m.name == "0025_space_usage_counts"]
    for statement in migration.statements:
        tx.run(statement).consume()


def test_counters_of_before_are_counted_from_the_stored_turns(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str
) -> None:
    store = Neo4jEvidenceStore(Neo4jGraph(neo4j_driver, neo4j_server.database, owns_driver=False))
    spaces = (neo4j_space, f"{neo4j_space}-b", f"{neo4j_space}-empty")
    store.add([_turn(spaces[0], n) for n in range(3)], [])
    store.add([_turn(spaces[1], n) for n in range(2)], [])
    expected = {space: store.counted_usage(space) for space in spaces}
    assert expected[spaces[0]].turns == 3 and expected[spaces[2]] == SpaceUsage(turns=0, bytes=0)
    assert {space: store.usage(space) for space in spaces} == expected
    neo4j_driver.execute_query(  # a store of before: no counters, or wrong ones
        f"""MATCH (c:{Label.BACKLOG}) WHERE c.space IN $spaces REMOVE c.turns, c.bytes
        WITH c WHERE c.space = $b SET c.turns = 99, c.bytes = 7""",
        spaces=list(spaces), b=spaces[1], database_=neo4j_server.database,
    )  # fmt: skip
    assert store.usage(spaces[0]) == SpaceUsage(turns=0, bytes=0)
    neo4j_driver.execute_query(f"MERGE (:{Label.BACKLOG} {{space: $space}})", space=spaces[2], database_=neo4j_server.database)
    with neo4j_driver.session(database=neo4j_server.database) as session:
        session.execute_write(_migrate)
    assert {space: store.usage(space) for space in spaces} == expected
    store.add([_turn(spaces[2], 0)], [])
    assert store.usage(spaces[2]) == store.counted_usage(spaces[2]) != SpaceUsage(turns=0, bytes=0)
