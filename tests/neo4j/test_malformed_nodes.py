"""Nodes an operator wrote or edited by hand come back as the store's error, not a KeyError.

The graph is open to Cypher (audits, repairs); a read that meets a node lacking a property
Eywa needs must tell the caller which label is malformed, through ``StoreError``.
"""

from __future__ import annotations

from collections.abc import Callable
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


def test_hand_written_records_of_the_service_are_store_errors(
    neo4j_server: Neo4jServer, neo4j_driver: Driver, neo4j_space: str, tmp_path: Path
) -> None:
    """The access log, job records, corrections, erasure records and API keys had decoders
    of their own that raised KeyError (a 500 over HTTP) on a node lacking a property."""
    from eywa.stores.neo4j.graph import Neo4jGraph
    from eywa.stores.neo4j.keys import Neo4jKeyStore

    key_id = f"hand-key-{neo4j_space}"
    neo4j_driver.execute_query(
        "CREATE (:AccessEvent {space: $space, at: datetime(), route: 'GET /x', status: 200})"
        " CREATE (:Job {id: $job, space: $space})"
        " CREATE (:Correction {id: 'hand-correction', space: $space, target_id: 't', at: datetime()})"
        " CREATE (:Erasure {id: $erasure, space: $space})"
        " CREATE (:ApiKey {id: $key})",
        space=neo4j_space, job=f"hand-job-{neo4j_space}", erasure=f"hand-erasure-{neo4j_space}", key=key_id,
        database_=neo4j_server.database,
    )  # fmt: skip
    stores = open_server(_settings(neo4j_server, tmp_path), 8)
    keys = Neo4jKeyStore(Neo4jGraph(neo4j_driver, neo4j_server.database, owns_driver=False))
    try:
        reads: dict[str, Callable[[], object]] = {
            "AccessEvent": lambda: stores.access.events(space=neo4j_space),
            "Job": lambda: stores.jobs.get_job(f"hand-job-{neo4j_space}"),
            "Correction": lambda: stores.corrections.corrections(neo4j_space),
            "Erasure": lambda: stores.erasure.get(f"hand-erasure-{neo4j_space}"),
            "ApiKey": lambda: keys.get(key_id),
        }
        for label, read in reads.items():
            with pytest.raises(StoreError, match=rf":{label} node (lacks the property|holds a malformed value)"):
                read()
    finally:
        stores.close()
        neo4j_driver.execute_query(
            "MATCH (n) WHERE n.space = $space OR n.id = $key DETACH DELETE n",
            space=neo4j_space, key=key_id, database_=neo4j_server.database,
        )  # fmt: skip
