"""Nodes an operator wrote or edited by hand come back as the store's error, not a KeyError.

The graph is open to Cypher (audits, repairs); a read that meets a node lacking a property
Eywa needs must tell the caller which label is malformed, through ``StoreError``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from neo4j import Driver
from pydantic import SecretStr

from eywa.errors import EywaError, StoreError
from eywa.settings import EywaSettings
from eywa.stores.server import open_server
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j


def _settings(neo4j_server: Neo4jServer, tmp_path: Path) -> EywaSettings:
    return EywaSettings(
        data_dir=tmp_path / "data", neo4j_uri=neo4j_server.uri, neo4j_user=neo4j_server.user,
        neo4j_password=SecretStr(neo4j_server.password), neo4j_database=neo4j_server.database,
        qdrant_path=tmp_path / "qdrant",
    )  # fmt: skip


def test_a_hand_written_belief_without_its_statement_is_a_store_error(
    neo4j_server: Neo4jServer, neo4j_driver: Driver, neo4j_space: str, tmp_path: Path
) -> None:
    settings = _settings(neo4j_server, tmp_path)
    neo4j_driver.execute_query(
        "CREATE (:Belief {id: 'hand-made', space: $space, subject: 'Ana', status: 'active'})",
        space=neo4j_space, database_=neo4j_server.database,
    )  # fmt: skip
    stores = open_server(settings, 8)  # the raw bundle: no embedder is recorded
    try:
        with pytest.raises(StoreError, match=r":Belief node lacks the property 'statement'") as caught:
            stores.beliefs.beliefs(neo4j_space)
        assert isinstance(caught.value, EywaError)
        assert isinstance(caught.value.__cause__, KeyError)
    finally:
        stores.close()
        neo4j_driver.execute_query(
            "MATCH (b:Belief {space: $space}) DETACH DELETE b",
            space=neo4j_space, database_=neo4j_server.database,
        )  # fmt: skip


def test_the_recall_reads_of_hand_written_nodes_are_store_errors(
    neo4j_server: Neo4jServer, neo4j_driver: Driver, neo4j_space: str, tmp_path: Path
) -> None:
    settings = _settings(neo4j_server, tmp_path)
    neo4j_driver.execute_query(
        "CREATE (:Belief {id: 'hand-belief', space: $space, subject: 'Ana', status: 'active', evidence_ids: []})"
        " CREATE (:Evidence {id: 'hand-turn', space: $space, session: 's', seq: 0, observed_at: datetime()})",
        space=neo4j_space, database_=neo4j_server.database,
    )  # fmt: skip
    stores = open_server(settings, 8)
    try:
        with pytest.raises(StoreError, match=r":Belief node lacks the property 'statement'"):
            stores.beliefs.recall_beliefs(neo4j_space, ["hand-belief"])
        with pytest.raises(StoreError, match=r":Evidence node lacks the property 'text'"):
            stores.evidence.recall_turns(neo4j_space, ["hand-turn"])
    finally:
        stores.close()
        neo4j_driver.execute_query(
            "MATCH (n) WHERE n.space = $space AND (n:Belief OR n:Evidence) DETACH DELETE n",
            space=neo4j_space, database_=neo4j_server.database,
        )  # fmt: skip
