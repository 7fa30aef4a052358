"""The recall path's filtered reads seek an index that starts with the space (migration
0013), rather than scanning every space's nodes of the label: the planner's plan (EXPLAIN,
so no data is needed) for exactly the statements the stores run."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from neo4j import Driver

from eywa.stores.neo4j import beliefs, dimensions, entity_graph, evidence, keyword
from tests.neo4j.plans import operators_with_details, planned
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j


@pytest.mark.parametrize(
    ("query", "params"),
    [
        (beliefs._filtered(["subject", "attribute", "status"]), {"subject": "ana", "attribute": "pets", "status": "active"}),
        (beliefs._filtered(["subject", "attribute"]), {"subject": "ana", "attribute": "pets"}),
        (dimensions._ENTITY_DIMENSIONS, {"entity_key": "ana"}),
        (dimensions._DELTAS, {"entity_key": "ana", "attribute": "pets"}),
    ],
    ids=["beliefs by subject, attribute and status", "beliefs by subject and attribute", "dimensions of an entity",
         "deltas of a dimension"],
)
def test_a_filtered_read_seeks_an_index_from_the_space(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str, query: str, params: dict[str, Any]
) -> None:
    found = planned(neo4j_driver, neo4j_server.database, query, {"space": neo4j_space, **params})
    assert "NodeIndexSeek" in found
    assert "NodeByLabelScan" not in found and "AllNodesScan" not in found


@pytest.mark.parametrize(
    ("query", "params"),
    [
        (evidence._RECALL_TURNS, {"ids": ["ev_1", "ev_2"]}),
        (evidence._RECALL_NEIGHBOURS, {"ids": ["ev_1", "ev_2"], "before": 1, "after": 1}),
        (beliefs._RECALL, {"ids": ["bel_1"]}),
        (beliefs._ABOUT, {"subjects": [["Ana", "ana"], ["Bo", "bo"]], "attributes": ["pets", "hobbies"]}),
        (beliefs._LINES, {"ids": ["bel_1", "bel_2"], "attributes": ["pets", "hobbies"]}),
        (evidence._ENTITIES_NAMED, {"ids": ["ent_1", "ent_2"]}),
        (
            entity_graph._WALK,
            {"starts": ["ent_1"], "hops": 2, "limit": 50, "evidence_ids": ["ev_1"], "belief_ids": ["bel_1"]},
        ),
        (
            evidence._DATES_BETWEEN,
            {"lo": datetime(2023, 1, 1, tzinfo=UTC), "hi": datetime(2023, 3, 1, tzinfo=UTC), "limit": 80,
             "kinds": ["date", "time"]},
        ),  # fmt: skip
        (evidence._WITH_DATE_SIGNALS, {"kind": "date", "limit": 80}),
    ],
    ids=["recall turns", "recall neighbours", "recall beliefs", "beliefs about", "belief lines", "entities named",
         "graph walk", "turns dated in a window", "turns with a date"],
)
def test_a_recall_read_seeks_indexes_and_scans_no_label(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str, query: str, params: dict[str, Any]
) -> None:
    found = planned(neo4j_driver, neo4j_server.database, query, {"space": neo4j_space, **params})
    assert any(op.endswith("IndexSeek") for op in found)
    assert "NodeByLabelScan" not in found and "AllNodesScan" not in found


def test_the_keyword_search_reads_the_fulltext_index_only(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str
) -> None:
    statement = keyword.search_statement("evidence", neo4j_space, "Which dog did Ana adopt?", 20)
    assert statement is not None
    found = planned(neo4j_driver, neo4j_server.database, *statement)
    assert "ProcedureCall" in found
    assert "NodeByLabelScan" not in found and "AllNodesScan" not in found


def test_the_recall_dimensions_read_seeks_the_state_and_delta_indexes(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str
) -> None:
    params = {"space": neo4j_space, "keys": ["ana"], "pairs": [["ana", "pets"]]}
    found = planned(neo4j_driver, neo4j_server.database, dimensions._RECALL, params)
    # The states by (space, entity_key), the deltas by (space, entity_key, attribute). The
    # merge-edge part is ``same_as``'s statement, planned as before: no index holds SAME_AS
    # edges by space, so it reads the (few) merge edges of every space.
    assert found.count("NodeIndexSeek") >= 2 and "AllNodesScan" not in found


@pytest.mark.parametrize("query", [beliefs._RECALL, beliefs._CITES, beliefs._LINES], ids=["recall", "cites", "lines"])
def test_given_beliefs_are_sought_by_id(neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str, query: str) -> None:
    """Never the space's (space, status) index, whatever the statistics the plan was made with."""
    params = {"space": neo4j_space, "ids": ["bel_1", "bel_2"], "attributes": ["pets"]}
    with neo4j_driver.session(database=neo4j_server.database, notifications_min_severity="OFF") as session:
        plan = session.run("EXPLAIN " + query, params).consume().plan
    assert plan is not None
    found = operators_with_details(plan)
    assert any(op == "NodeUniqueIndexSeek" and "Belief(id)" in details for op, details in found), found
    assert not [op for op, _ in found if "Scan" in op], found
