"""The dimension route's read with ``deltas="cited"`` touches the same number of db hits
however long a dimension's history grows (the same values said again and again), where the
read of every delta grows with it: the cited deltas are sought by id, the pair's others
never read. PROFILE of exactly the statement the store runs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from neo4j import Driver

from eywa.nous import ledger as nous
from eywa.nous.observations import Observation
from eywa.stores.neo4j import dimensions
from eywa.stores.neo4j.dimensions import Neo4jDimensionStore
from eywa.stores.neo4j.graph import Neo4jGraph
from eywa.stores.neo4j.records import dimension_id
from tests.neo4j.plans import db_hits, operators_with_details
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j

T0 = datetime(2023, 1, 1, tzinfo=UTC)
HOBBIES = ["chess", "piano", "climbing", "yoga"]


def said(space: str, start: int, n: int) -> list[Observation]:
    """``n`` more observations of the same four hobbies, every fifth one negative."""
    return [
        Observation(
            space=space, entity="Ana", attribute="hobbies", value=HOBBIES[i % len(HOBBIES)],
            polarity="negative" if i % 5 == 4 else "positive", at=T0 + timedelta(hours=i),
            reliability=0.9, belief_id=f"b{i}", evidence_ids=(f"e{i}",),
        )
        for i in range(start, start + n)
    ]  # fmt: skip


def _profile(driver: Driver, database: str, query: str, params: dict[str, Any]) -> tuple[list[tuple[str, str]], int, int]:
    """Operators, db hits and the number of deltas read."""
    with driver.session(database=database, notifications_min_severity="OFF") as session:
        result = session.run("PROFILE " + query, params)
        (row,) = [record.data() for record in result]
        profile = result.consume().profile
    assert profile is not None
    return operators_with_details(profile), db_hits(profile), len(row["deltas"])


def test_the_cited_read_does_not_grow_with_the_history(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str
) -> None:
    store = Neo4jDimensionStore(Neo4jGraph(neo4j_driver, neo4j_server.database, owns_driver=False))
    pair = ["ana", "hobbies", dimension_id(neo4j_space, "ana", "hobbies")]
    params = {"space": neo4j_space, "keys": ["ana"], "pairs": [pair]}
    cited: list[int] = []
    every: list[int] = []
    done = 0
    for size in (40, 160, 640):
        nous.apply_beliefs(store, said(neo4j_space, done, size - done))
        done = size
        operators, hits, read = _profile(neo4j_driver, neo4j_server.database, dimensions._RECALL_CITED, params)
        assert any(op == "NodeUniqueIndexSeek" and "Delta(id)" in details for op, details in operators), operators
        assert not [op for op, _ in operators if op in ("NodeByLabelScan", "AllNodesScan")], operators
        assert read <= 5 * len(HOBBIES)
        cited.append(hits)
        every.append(_profile(neo4j_driver, neo4j_server.database, dimensions._RECALL, params)[1])
    assert every[2] > 10 * every[0]  # the history did grow sixteenfold
    assert max(cited) <= min(cited) * 1.1, cited
