"""The Neo4j keyword search is filtered by space inside Lucene: what it costs one space does
not grow with the other spaces' data, and it still returns all of that space's hits.

Measured with PROFILE on exactly the query ``Neo4jKeywordIndex.search`` runs
(``search_statement``): its database hits are counted with one space seeded, then again
after many more matching turns were written to other spaces.
"""

from __future__ import annotations

import pytest
from neo4j import Driver

from eywa.batches import coerce_turns, prepare_batch
from eywa.signals import detect_signals
from eywa.stores.neo4j.evidence import Neo4jEvidenceStore
from eywa.stores.neo4j.graph import Neo4jGraph
from eywa.stores.neo4j.keyword import Neo4jKeywordIndex, search_statement
from tests.neo4j.plans import db_hits
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j

QUESTION = "Which greyhound did Ana adopt from the shelter?"
OWN_TURNS = 30
OTHER_SPACES, OTHER_TURNS = 4, 100  # each; every one of them matches the question too
LIMIT = 40  # above OWN_TURNS: every matching turn of the space must come back


def seed(store: Neo4jEvidenceStore, space: str, count: int) -> None:
    turns = [
        {"text": f"Ana adopted greyhound number {i} from the shelter.", "speaker": "Ana",
         "session": f"s{i // 20}", "external_id": f"t{i}"}
        for i in range(count)
    ]  # fmt: skip
    for start in range(0, count, 200):
        batch = prepare_batch(space, coerce_turns(turns[start : start + 200]), store, detect_signals)
        store.add(batch.new, batch.mentions)


def profiled_hits(driver: Driver, database: str, space: str) -> int:
    statement = search_statement("evidence", space, QUESTION, LIMIT)
    assert statement is not None
    query, params = statement
    with driver.session(database=database) as session:
        summary = session.run("PROFILE " + query, params).consume()
    assert summary.profile is not None
    return db_hits(summary.profile)


def test_a_spaces_keyword_cost_does_not_grow_with_other_spaces(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str
) -> None:
    graph = Neo4jGraph(neo4j_driver, neo4j_server.database, owns_driver=False)
    store, index = Neo4jEvidenceStore(graph), Neo4jKeywordIndex(graph)
    seed(store, neo4j_space, OWN_TURNS)
    alone_hits = profiled_hits(neo4j_driver, neo4j_server.database, neo4j_space)
    alone = {item_id for _, item_id, _ in index.search(neo4j_space, QUESTION, LIMIT)}
    assert len(alone) == OWN_TURNS

    for n in range(OTHER_SPACES):
        seed(store, f"{neo4j_space}-other-{n}", OTHER_TURNS)
    crowded_hits = profiled_hits(neo4j_driver, neo4j_server.database, neo4j_space)
    crowded = {item_id for _, item_id, _ in index.search(neo4j_space, QUESTION, LIMIT)}

    assert crowded == alone  # still every hit of the space, and only those
    assert crowded_hits <= alone_hits + 4  # small constant slack; 400 matching turns were added (13x its own)
