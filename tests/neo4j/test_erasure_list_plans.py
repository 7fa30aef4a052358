"""Listing a space's erasure records seeks migration 0017's (space, at) index, so its db hits
do not grow with other spaces' records; listing by state alone seeks 0010's (state, at)
index. The store used to run one statement for every shape (``$space IS NULL OR …``), which
the planner cannot turn into a seek: it scanned every space's records. PROFILE of exactly the
statements ``Neo4jErasureStore.erasures`` runs."""

from __future__ import annotations

from typing import Any

import pytest
from neo4j import Driver

from eywa.stores.neo4j import erasure
from eywa.stores.neo4j.graph import Neo4jGraph
from eywa.stores.neo4j.erasure import Neo4jErasureStore
from eywa.stores.neo4j.labels import Label
from tests.neo4j.plans import db_hits, operators_with_details
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j

_SEED = f"""
UNWIND range(1, $n) AS i
CREATE (:{Label.ERASURE} {{id: $space + '-' + toString(i), space: $space, at: datetime() + duration({{seconds: i}}),
  author: null, selector: '{{}}', state: CASE WHEN i % 2 = 0 THEN 'done' ELSE 'pending' END, turn_ids: [],
  content_macs: [], belief_ids: [], candidate_ids: [], counts: '{{}}'}})
"""


def _seed(driver: Driver, database: str, space: str, n: int) -> None:
    driver.execute_query(_SEED, space=space, n=n, database_=database)


def _profile(driver: Driver, database: str, query: str, params: dict[str, Any]) -> tuple[list[tuple[str, str]], int]:
    with driver.session(database=database, notifications_min_severity="OFF") as session:
        result = session.run("PROFILE " + query, params)
        result.data()
        profile = result.consume().profile
    assert profile is not None
    return operators_with_details(profile), db_hits(profile)


@pytest.mark.parametrize("state", [None, "pending"])
def test_a_space_s_records_are_sought_whatever_other_spaces_hold(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str, state: str | None
) -> None:
    database = neo4j_server.database
    _seed(neo4j_driver, database, neo4j_space, 4)
    params = {"space": neo4j_space, "state": state}
    operators, alone = _profile(neo4j_driver, database, erasure._LIST_SPACE, params)
    assert any("IndexSeek" in op and "Erasure(space, at)" in details for op, details in operators), operators
    assert not [op for op, _ in operators if "Scan" in op], operators
    for n in range(3):
        _seed(neo4j_driver, database, f"{neo4j_space}-other-{n}", 50)
    _, crowded = _profile(neo4j_driver, database, erasure._LIST_SPACE, params)
    assert crowded == alone, (alone, crowded)
    store = Neo4jErasureStore(Neo4jGraph(neo4j_driver, database, owns_driver=False))
    listed = store.erasures(neo4j_space, state)  # type: ignore[arg-type]
    assert len(listed) == (2 if state else 4) and {r.space for r in listed} == {neo4j_space}
    assert [r.at for r in listed] == sorted(r.at for r in listed)


def test_records_by_state_alone_seek_the_state_index(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str
) -> None:
    _seed(neo4j_driver, neo4j_server.database, neo4j_space, 4)
    operators, _ = _profile(neo4j_driver, neo4j_server.database, erasure._LIST_STATE, {"state": "pending", "space": None})
    assert any("IndexSeek" in op and "Erasure(state, at)" in details for op, details in operators), operators
    store = Neo4jErasureStore(Neo4jGraph(neo4j_driver, neo4j_server.database, owns_driver=False))
    pending = [r for r in store.erasures(state="pending") if r.space == neo4j_space]
    assert len(pending) == 2 and {r.state for r in pending} == {"pending"}
    assert {r.id for r in store.erasures() if r.space == neo4j_space} == {f"{neo4j_space}-{i}" for i in range(1, 5)}
