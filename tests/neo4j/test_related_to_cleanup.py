"""A belief's ``RELATED_TO`` edge (subject entity → value entity) goes with the belief on
Neo4j: when Level 1 replaces the belief (``Memory.reprocess`` under another extractor
version), and, for edges that deletes before session 36 left behind, through migration 0028.
The erasure path is tests/conformance/test_erasure_everywhere.py."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest
from neo4j import Driver, ManagedTransaction

from eywa import Memory
from eywa.settings import EywaSettings
from eywa.models import CandidateFact, Evidence
from eywa.stores.neo4j.labels import Label, RelType
from eywa.stores.neo4j.migrations import load_migrations
from tests.conformance.conftest import server_settings
from tests.neo4j_server import Neo4jServer
from tests.reliability.support import HashEmbedder

pytestmark = pytest.mark.neo4j

SPACE = "harbour"
TURN = {"text": "We moved to Grellport last spring, near Tarnmoor.", "speaker": "Pia", "session": "s1",
        "observed_at": "2024-05-01T10:00:00"}  # fmt: skip
_EDGES = f"MATCH (:{Label.ENTITY})-[r:{RelType.RELATED_TO}]->(:{Label.ENTITY}) WHERE r.space = $space RETURN r.belief AS b"


class Residence:
    """Proposes Pia's residence Grellport from the turn that says it (version ``version``), or
    nothing at all."""

    name = "scripted"

    def __init__(self, version: str, *, says: bool) -> None:
        self.version, self.says = version, says

    def propose(self, space: str, evidence: Sequence[Evidence]) -> Iterable[CandidateFact]:
        return [
            CandidateFact(statement="Pia lives in Grellport.", subject="Pia", attribute="residence", value="Grellport",
                          evidence_ids=(turn.id,))
            for turn in evidence if self.says and "Grellport" in turn.text
        ]  # fmt: skip


def _edges(driver: Driver, server: Neo4jServer) -> list[str]:
    records, _, _ = driver.execute_query(_EDGES, space=SPACE, database_=server.database)
    return [r["b"] for r in records]


def _pia_in_grellport(settings: EywaSettings) -> str:
    """Writes the turn with version 1 of the extractor; the id of the belief it made."""
    memory = Memory.connect(settings, embedder=HashEmbedder(), extractor=Residence("1", says=True))
    try:
        memory.remember(SPACE, [TURN])
        memory.wait()
        [belief] = memory.beliefs(SPACE, subject="Pia", attribute="residence")
        return belief.id
    finally:
        memory.close()


def test_a_belief_level1_replaces_takes_its_related_to_edge_with_it(
    request: pytest.FixtureRequest, tmp_path: Path, neo4j_driver: Driver, neo4j_server: Neo4jServer
) -> None:
    settings = server_settings(request, tmp_path)
    belief = _pia_in_grellport(settings)
    assert _edges(neo4j_driver, neo4j_server) == [belief]  # the edge the test is about exists
    second = Memory.connect(settings, embedder=HashEmbedder(), extractor=Residence("2", says=False))
    try:
        assert second.reprocess(SPACE) == 1
        second.wait()
        assert second.beliefs(SPACE, subject="Pia", attribute="residence") == []
    finally:
        second.close()
    assert _edges(neo4j_driver, neo4j_server) == []


def _migrate(tx: ManagedTransaction) -> None:
    (migration,) = [m for m in load_migrations() if m.name == "0028_related_to_orphans"]
    for statement in migration.statements:
        tx.run(statement).consume()


def test_the_migration_removes_edges_whose_belief_is_gone_and_keeps_the_others(
    request: pytest.FixtureRequest, tmp_path: Path, neo4j_driver: Driver, neo4j_server: Neo4jServer
) -> None:
    belief = _pia_in_grellport(server_settings(request, tmp_path))
    # An edge a delete before session 36 left: its belief no longer exists.
    neo4j_driver.execute_query(
        f"MATCH (n:{Label.ENTITY})-[r:{RelType.RELATED_TO}]->(v:{Label.ENTITY}) WHERE r.space = $space "
        f"CREATE (v)-[:{RelType.RELATED_TO} {{belief: 'bel_gone', attribute: 'residence', space: $space}}]->(n)",
        space=SPACE, database_=neo4j_server.database,
    )  # fmt: skip
    assert sorted(_edges(neo4j_driver, neo4j_server)) == sorted([belief, "bel_gone"])
    with neo4j_driver.session(database=neo4j_server.database) as session:
        session.execute_write(_migrate)
    assert _edges(neo4j_driver, neo4j_server) == [belief]
