"""The ledger's backlog on Neo4j is one round trip with every stage counted through the
(stage, due_at) index: the API reads it before every write while ``EYWA_MAX_EMBED_BACKLOG``
is set, so four queries per write (one per stage) were four round trips per request."""

from __future__ import annotations

from typing import Any

import pytest
from neo4j import Driver

from eywa.batches import coerce_turns, prepare_batch
from eywa.signals import detect_signals
from eywa.stores.neo4j.evidence import Neo4jEvidenceStore
from eywa.stores.neo4j.graph import Neo4jGraph
from eywa.stores.neo4j.ledger import Neo4jStageLedger
from tests.neo4j.test_embedder_switch import wipe_graph
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j


class CountingGraph(Neo4jGraph):
    """A graph that records the operation of every read."""

    reads: list[str]

    def read(self, operation: str, query: str, /, **params: Any) -> list[dict[str, Any]]:
        self.reads.append(operation)
        return super().read(operation, query, **params)


def test_backlog_is_one_read_counting_every_stage(neo4j_driver: Driver, neo4j_server: Neo4jServer) -> None:
    wipe_graph(neo4j_driver, neo4j_server.database)
    graph = CountingGraph(neo4j_driver, neo4j_server.database, owns_driver=False)
    graph.reads = []
    evidence, ledger = Neo4jEvidenceStore(graph), Neo4jStageLedger(graph)
    assert ledger.backlog() == {"embed_evidence": 0, "level1": 0, "nous": 0, "embed_belief": 0}
    for space, count in (("home", 3), ("work", 2)):
        batch = prepare_batch(space, coerce_turns([{"text": f"Turn {n} of {space}.", "speaker": "Ana"}
                                                   for n in range(count)]), evidence, detect_signals)  # fmt: skip
        evidence.add(batch.new, batch.mentions)
    ledger.complete("home", "level1", [m.item_id for m in ledger.pending("level1", limit=10, space="home")][:2])
    graph.reads = []
    assert ledger.backlog() == {"embed_evidence": 5, "level1": 3, "nous": 5, "embed_belief": 0}
    assert graph.reads == ["backlog"]
    graph.close()
