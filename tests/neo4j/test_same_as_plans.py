"""The merge-edge reads seek the SAME_AS (space) index of migration 0015: the dimension
route reads a space's active merge edges on every recall, and without the index each read
scanned every space's SAME_AS edges. PROFILE of exactly the statements the store runs, with
merge edges in other spaces added: the db hits stay the same."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from neo4j import Driver

from eywa.stores.dimensions import SameAsEdge
from eywa.stores.neo4j import dimensions
from eywa.stores.neo4j.graph import Neo4jGraph
from tests.neo4j.plans import db_hits, operators_with_details, planned
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j

_AT = datetime(2024, 5, 1, 12, tzinfo=UTC)


def _merge(store: dimensions.Neo4jDimensionStore, space: str) -> None:
    for source, target in (("Ana", "Anna"), ("Bo", "Bob"), ("Cy", "Cyrus")):
        store.add_same_as(SameAsEdge(space=space, source=source, target=target, score=0.9, at=_AT))


def _profile(driver: Driver, database: str, query: str, params: dict[str, Any]) -> tuple[list[tuple[str, str]], int, list[Any]]:
    with driver.session(database=database, notifications_min_severity="OFF") as session:
        result = session.run("PROFILE " + query, params)
        rows = [record.values() for record in result]
        profile = result.consume().profile
    assert profile is not None
    return operators_with_details(profile), db_hits(profile), rows


@pytest.mark.parametrize(
    ("query", "params"),
    [
        (dimensions._RECALL, {"keys": ["ana"], "pairs": [["ana", "pets"]]}),
        (dimensions._SAME_AS, {"all": False}),
    ],
    ids=["recall dimensions", "merge edges"],
)
def test_merge_edges_are_read_through_the_space_index(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str, query: str, params: dict[str, Any]
) -> None:
    store = dimensions.Neo4jDimensionStore(Neo4jGraph(neo4j_driver, neo4j_server.database, owns_driver=False))
    _merge(store, neo4j_space)
    arguments = {"space": neo4j_space, **params}
    operators, alone, rows = _profile(neo4j_driver, neo4j_server.database, query, arguments)
    assert any("RelationshipIndexSeek" in op and "SAME_AS" in details for op, details in operators), operators
    assert not [op for op, _ in operators if "RelationshipTypeScan" in op], operators

    for n in range(8):
        _merge(store, f"{neo4j_space}-other-{n}")
    _, crowded, again = _profile(neo4j_driver, neo4j_server.database, query, arguments)
    assert again == rows
    assert crowded == alone
    assert [(e.source, e.target) for e in store.same_as(neo4j_space)] == [("Ana", "Anna"), ("Bo", "Bob"), ("Cy", "Cyrus")]


@pytest.mark.parametrize(
    ("query", "params"),
    [
        (dimensions._REMOVE_SAME_AS, {"a": "Ana", "b": "Anna", "at": _AT, "by": None}),
        (dimensions._DELETE_SAME_AS, {"keys": ["ana"]}),
    ],
    ids=["remove a merge", "erase merges"],
)
def test_merge_edge_writes_seek_the_space_index(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str, query: str, params: dict[str, Any]
) -> None:
    found = planned(neo4j_driver, neo4j_server.database, query, {"space": neo4j_space, **params})
    assert "DirectedRelationshipIndexSeek" in found
    assert not [op for op in found if "Scan" in op], found
