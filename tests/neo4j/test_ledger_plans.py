"""The stage ledger's item look-ups (a re-sent batch's marks, completing or postponing a
stage) seek the (space, item) index of migration 0014, so what they touch does not grow with
other spaces' marks of the same ids: with 0006's index on item alone, a seek returned every
space's marks and filtered them afterwards. PROFILE of exactly the statements the store runs."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest
from neo4j import Driver

from eywa.stores.ledger import DERIVED_STAGES
from eywa.stores.neo4j import ledger
from eywa.stores.neo4j.graph import Neo4jGraph
from tests.neo4j.plans import db_hits, operators_with_details
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j

_AT = datetime(2024, 5, 1, 12, tzinfo=UTC)
_ITEMS = [f"ev_{n}" for n in range(5)]
_STAGES = ["embed_evidence", "level1"]
# A seek of 0014's index, or of 0006's unique (space, item, stage) where the stage is given.
_FROM_SPACE_AND_ITEM = re.compile(r"Pending\(space, item[,)]")


def _profile(driver: Driver, database: str, query: str, params: dict[str, Any]) -> tuple[list[tuple[str, str]], int]:
    """The profiled operators and total db hits, in a transaction rolled back (``_COMPLETE``
    deletes)."""
    with driver.session(database=database, notifications_min_severity="OFF") as session, session.begin_transaction() as tx:
        summary = tx.run("PROFILE " + query, params).consume()
        tx.rollback()
    assert summary.profile is not None
    return operators_with_details(summary.profile), db_hits(summary.profile)


def _mark(graph: Neo4jGraph, space: str) -> None:
    graph.write("mark", ledger.mark_tx, space, _STAGES, _ITEMS, "new", _AT)


_STATEMENTS: dict[str, tuple[str, dict[str, Any]]] = {
    "marks of items": (ledger._FOR_ITEMS, {}),
    "complete": (ledger._COMPLETE, {"stage": "level1"}),
    "update": (ledger._UPDATE + "SET p.due_at = $due", {"stage": "level1", "due": _AT}),
}


@pytest.mark.parametrize("statement", list(_STATEMENTS))
def test_item_lookups_seek_space_and_item_and_ignore_other_spaces(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str, statement: str
) -> None:
    graph = Neo4jGraph(neo4j_driver, neo4j_server.database, owns_driver=False)
    query, extra = _STATEMENTS[statement]
    params = {"space": neo4j_space, "items": _ITEMS, **extra}
    _mark(graph, neo4j_space)
    operators, alone = _profile(neo4j_driver, neo4j_server.database, query, params)
    assert any("IndexSeek" in op and _FROM_SPACE_AND_ITEM.search(details) for op, details in operators), operators
    assert not [op for op, _ in operators if "Scan" in op], operators

    for n in range(8):  # the same item ids marked in other spaces
        _mark(graph, f"{neo4j_space}-other-{n}")
    _, crowded = _profile(neo4j_driver, neo4j_server.database, query, params)
    assert crowded == alone


def test_the_space_backlog_is_counted_from_the_unique_index_alone(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str
) -> None:
    """The trace's backlog count runs beside every recall: each mark of the space is one
    index entry, and none is read from the store (its stage and item come from the entry)."""
    graph = Neo4jGraph(neo4j_driver, neo4j_server.database, owns_driver=False)
    _mark(graph, neo4j_space)
    params = {"space": neo4j_space, "stages": list(DERIVED_STAGES)}
    with neo4j_driver.session(database=neo4j_server.database, notifications_min_severity="OFF") as session:
        result = session.run("PROFILE " + ledger._SPACE_BACKLOG, params)
        (row,) = [record.data() for record in result]
        profile = result.consume().profile
    assert row == {"embed": len(_ITEMS), "level1": len(_ITEMS)}
    assert profile is not None
    operators = operators_with_details(profile)
    assert any(op == "NodeUniqueIndexSeek" and "Pending(space, item, stage)" in details for op, details in operators)
    marks = len(_ITEMS) * len(_STAGES)
    assert db_hits(profile) <= marks + 1, operators  # the seek's entries; no property read
