"""The stage ledger's item look-ups (a re-sent batch's marks, completing or postponing a
stage) seek the (space, item) index of migration 0014, so what they touch does not grow with
other spaces' marks of the same ids: with 0006's index on item alone, a seek returned every
space's marks and filtered them afterwards. PROFILE of exactly the statements the store runs.
The space's backlog is one node seek, whatever the number of marks (migration 0018)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from collections.abc import Callable
from typing import Any

import pytest
from neo4j import Driver

from eywa.stores.ledger import PendingStage
from eywa.stores.neo4j import ledger
from eywa.stores.neo4j.graph import Neo4jGraph
from tests.neo4j.plans import db_hits, operators_with_details
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j

_AT = datetime(2024, 5, 1, 12, tzinfo=UTC)
_ITEMS = [f"ev_{n}" for n in range(5)]
_STAGES: list[PendingStage] = ["embed_evidence", "level1"]
# A seek of 0014's index, or of 0006's unique (space, item, stage) where the stage is given.
_FROM_SPACE_AND_ITEM = re.compile(r"Pending\(space, item[,)]")


def _profile(driver: Driver, database: str, query: str, params: dict[str, Any]) -> tuple[list[tuple[str, str]], int]:
    """The profiled operators and total db hits, in a transaction rolled back (``_COMPLETE``
    deletes)."""
    with driver.session(database=database, notifications_min_severity="OFF") as session, session.begin_transaction() as tx:
        result = tx.run("PROFILE " + query, params)
        list(result)  # a profile is complete once the rows are read (consume alone discards them)
        summary = result.consume()
        tx.rollback()
    assert summary.profile is not None
    return operators_with_details(summary.profile), db_hits(summary.profile)


def _mark(graph: Neo4jGraph, space: str) -> None:
    graph.write("mark", ledger.mark_tx, space, _STAGES, _ITEMS, "new", _AT)


_STATEMENTS: dict[str, tuple[str, Callable[[str], dict[str, Any]]]] = {
    "marks of items": (ledger._FOR_ITEMS, lambda space: {}),
    "complete": (ledger._COMPLETE, lambda space: {"marks": [ledger.mark_row(space, ("level1",), _ITEMS)]}),
    "update": (ledger._UPDATE + "SET p.due_at = $due", lambda space: {"stage": "level1", "due": _AT}),
}


@pytest.mark.parametrize("statement", list(_STATEMENTS))
def test_item_lookups_seek_space_and_item_and_ignore_other_spaces(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str, statement: str
) -> None:
    graph = Neo4jGraph(neo4j_driver, neo4j_server.database, owns_driver=False)
    query, extra = _STATEMENTS[statement]
    params = {"space": neo4j_space, "items": _ITEMS, **extra(neo4j_space)}
    _mark(graph, neo4j_space)
    operators, alone = _profile(neo4j_driver, neo4j_server.database, query, params)
    assert any("IndexSeek" in op and _FROM_SPACE_AND_ITEM.search(details) for op, details in operators), operators
    assert not [op for op, _ in operators if "Scan" in op], operators

    for n in range(8):  # the same item ids marked in other spaces
        _mark(graph, f"{neo4j_space}-other-{n}")
    _, crowded = _profile(neo4j_driver, neo4j_server.database, query, params)
    assert crowded == alone


def test_the_space_backlog_is_one_seek_whatever_the_backlog(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str
) -> None:
    """The trace's backlog count runs beside every recall: it reads the space's ``:Backlog``
    node through its unique index, so its db hits are the same with 5 marks and with 2,000
    (it used to read one index entry per mark), and other spaces' counts are not touched."""
    graph = Neo4jGraph(neo4j_driver, neo4j_server.database, owns_driver=False)
    _mark(graph, neo4j_space)

    def profiled() -> tuple[dict[str, Any], list[tuple[str, str]], int]:
        with neo4j_driver.session(database=neo4j_server.database, notifications_min_severity="OFF") as session:
            result = session.run("PROFILE " + ledger._SPACE_BACKLOG, {"space": neo4j_space})
            (row,) = [record.data() for record in result]
            profile = result.consume().profile
        assert profile is not None
        return row, operators_with_details(profile), db_hits(profile)

    row, operators, small = profiled()
    assert row == {"embed": len(_ITEMS), "level1": len(_ITEMS)}
    assert any(op == "NodeUniqueIndexSeek" and "Backlog(space)" in details for op, details in operators), operators
    many = [f"ev_many_{n}" for n in range(2_000)]
    graph.write("mark", ledger.mark_tx, neo4j_space, _STAGES, many, "new", _AT)
    for n in range(4):
        graph.write("mark", ledger.mark_tx, f"{neo4j_space}-other-{n}", _STAGES, many[:500], "new", _AT)
    row, _, large = profiled()
    assert row == {"embed": len(_ITEMS) + len(many), "level1": len(_ITEMS) + len(many)}
    assert large == small, (small, large)


@pytest.mark.parametrize("due", [False, True])
def test_a_spaces_pending_marks_seek_the_space_and_ignore_other_spaces(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str, due: bool
) -> None:
    """``pending(stage, space=…)`` (an erasure reads its space's embed marks twice) seeks its
    space's marks: it scanned every ``:Pending`` node of the store, so its cost grew with
    other spaces' backlogs (7,601 rows scanned for 2,600 marks beside another space's 5,000)."""
    graph = Neo4jGraph(neo4j_driver, neo4j_server.database, owns_driver=False)
    query = ledger.pending_query(space=True, due=due)
    params = {"space": neo4j_space, "stage": "embed_evidence", "due": _AT, "limit": 10_000}
    _mark(graph, neo4j_space)
    rows = graph.read("pending", query, **params)
    assert sorted(r["p"]["item"] for r in rows) == _ITEMS
    operators, alone = _profile(neo4j_driver, neo4j_server.database, query, params)
    assert any("IndexSeek" in op and _FROM_SPACE_AND_ITEM.search(details) for op, details in operators), operators
    assert not [op for op, _ in operators if "Scan" in op], operators

    many = [f"ev_many_{n}" for n in range(500)]
    for n in range(4):  # other spaces' marks of the same stage
        graph.write("mark", ledger.mark_tx, f"{neo4j_space}-other-{n}", _STAGES, many, "new", _AT)
    _, crowded = _profile(neo4j_driver, neo4j_server.database, query, params)
    assert crowded == alone, (alone, crowded)
