"""Migration 0019 fills each space's ``:Backlog`` counts from the marks a store already holds
(stores written before 0018 have marks and no counts): the counts it sets equal those the
write path keeps, for every space at once."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from neo4j import Driver, ManagedTransaction

from eywa.stores.ledger import SpaceBacklog
from eywa.stores.neo4j.graph import Neo4jGraph
from eywa.stores.neo4j.labels import Label
from eywa.stores.neo4j.ledger import Neo4jStageLedger
from eywa.stores.neo4j.migrations import load_migrations
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j

_AT = datetime(2024, 5, 1, 12, tzinfo=UTC)


def _run(tx: ManagedTransaction, statement: str) -> None:
    tx.run(statement).consume()


def test_the_migration_counts_the_marks_of_every_space(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str
) -> None:
    graph = Neo4jGraph(neo4j_driver, neo4j_server.database, owns_driver=False)
    ledger = Neo4jStageLedger(graph)
    spaces = [f"{neo4j_space}-a", f"{neo4j_space}-b"]
    ledger.mark(spaces[0], "embed_evidence", ["e1", "e2", "e3"], "new", _AT)
    ledger.mark(spaces[0], "level1", ["e1", "e2"], "new", _AT)
    ledger.mark(spaces[0], "nous", ["e2", "e4"], "new", _AT)
    ledger.mark(spaces[1], "nous", ["e9"], "new", _AT)
    kept = {space: ledger.space_backlog(space) for space in spaces}
    assert kept[spaces[0]] == SpaceBacklog(embed=3, level1=3)
    neo4j_driver.execute_query(  # a store of before 0018: marks, no counts
        f"MATCH (c:{Label.BACKLOG}) WHERE c.space IN $spaces DELETE c", spaces=spaces,
        database_=neo4j_server.database,
    )  # fmt: skip
    assert [ledger.space_backlog(space) for space in spaces] == [SpaceBacklog(), SpaceBacklog()]
    (migration,) = [m for m in load_migrations() if m.name == "0019_space_backlog_counts"]
    with neo4j_driver.session(database=neo4j_server.database) as session:
        for statement in migration.statements:
            session.execute_write(_run, statement)
    assert {space: ledger.space_backlog(space) for space in spaces} == kept
