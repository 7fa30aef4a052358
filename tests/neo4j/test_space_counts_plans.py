"""The grouped space counts (``Neo4jSpaceCatalog``) seek each label's space index with the
asked spaces, so a page's one statement touches the asked spaces' nodes, not every space's:
EXPLAIN of exactly the statement the store runs: no label is scanned."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from neo4j import Driver

from eywa.stores.neo4j import spaces
from tests.neo4j.plans import operators_with_details
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j

_AT = datetime(2024, 5, 1, 12, tzinfo=UTC)
_SEEKS = {
    "Evidence": re.compile(r"Evidence\(space, session, seq\)"),
    "Belief": re.compile(r"Belief\(space, status\)"),
    "Candidate": re.compile(r"Candidate\(space, status\)"),
    "Dimension": re.compile(r"Dimension\(space, entity_key\)"),
    "Backlog": re.compile(r"Backlog\(space\)"),
    "Erasure": re.compile(r"Erasure\(space, at\)"),
}


def test_each_label_is_sought_by_space(neo4j_driver: Driver, neo4j_server: Neo4jServer) -> None:
    params = {"spaces": ["a", "b"], "recorded_from": _AT, "recorded_to": _AT}
    with neo4j_driver.session(database=neo4j_server.database, notifications_min_severity="OFF") as session:
        summary = session.run("EXPLAIN " + spaces._COUNTS, params).consume()
    assert summary.plan is not None
    ops = operators_with_details(summary.plan)
    for label, index in _SEEKS.items():
        assert any("IndexSeek" in op and index.search(details) for op, details in ops), (label, ops)
    assert not [op for op, _ in ops if "Scan" in op], ops
