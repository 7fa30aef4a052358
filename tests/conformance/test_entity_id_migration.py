"""Entity ids derive from ``eywa.ids.entity_key`` on both backends, and a store written with
the old ids (``name.casefold()`` alone) is migrated on open: the same entities, read back
under the new ids, with their mentions; two old entities that now share a key become one.

The old format is written the way an earlier version wrote it (rows and nodes with the old
ids), then the store is opened again through its ordinary factory.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest
from neo4j import Driver

from eywa.batches import coerce_turns, prepare_batch
from eywa.ids import entity_id, stable_id
from eywa.models import Entity
from eywa.signals import detect_signals
from eywa.stores.bundle import GraphStores
from eywa.stores.embedded.factory import DATABASE_FILE, open_embedded_graph
from eywa.stores.embedded.migrations import FORMAT_VERSION
from eywa.stores.neo4j.labels import Label, RelType
from eywa.stores.neo4j.migrations import apply_migrations
from eywa.stores.server import open_server_graph
from tests.conformance.conftest import server_settings
from tests.neo4j_server import Neo4jServer

TURNS = [
    {"text": "I adopted a cat last week.", "speaker": "Mary  Ann", "session": "s1",
     "observed_at": "2023-05-25T10:00:00"},
    {"text": "The cat sleeps all day.", "speaker": "Mary Ann", "session": "s1",
     "observed_at": "2023-05-25T10:01:00"},
]  # fmt: skip
NOW = datetime(2024, 1, 1, tzinfo=UTC)


def old_entity_id(space: str, name: str) -> str:
    """How entity ids were made before ``entity_key``: the case-folded name alone."""
    return stable_id("ent", space, name.casefold())


def test_entity_ids_collapse_whitespace_and_case() -> None:
    assert entity_id("s", "Mary  Ann ") == entity_id("s", "mary ann") == entity_id("s", "MARY\tANN")
    assert entity_id("s", "Mary Ann") != entity_id("t", "Mary Ann")
    assert entity_id("s", "Alice") == old_entity_id("s", "Alice")  # plain names keep their ids


def test_one_entity_for_names_that_differ_only_in_whitespace(tmp_path: Path) -> None:
    stores = open_embedded_graph_for_test(tmp_path)
    try:
        ids = write(stores, "home", TURNS)
        entities = stores.evidence.entities("home")
        assert [e.id for e in entities] == [entity_id("home", "Mary Ann")]
        assert stores.evidence.mentions("home", ids) == {i: [entity_id("home", "Mary Ann")] for i in ids}
    finally:
        stores.close()


def open_embedded_graph_for_test(directory: Path) -> GraphStores:
    from eywa.stores.embedded.factory import open_embedded

    open_embedded(directory, 8).close()  # creates the directory's tables and vectors
    return open_embedded_graph(directory)


def write(stores: GraphStores, space: str, turns: Sequence[Mapping[str, object]]) -> list[str]:
    batch = prepare_batch(space, coerce_turns(turns), stores.evidence, detect_signals, now=NOW)
    stores.evidence.add(batch.new, batch.mentions)
    return batch.ids


def assert_migrated(stores: GraphStores, space: str, ids: list[str]) -> None:
    """One person entity under the new id, mentioned by both turns, found by that id."""
    new = entity_id(space, "Mary Ann")
    entities = stores.evidence.entities(space)
    assert [(e.id, e.kind) for e in entities] == [(new, "person")]
    assert entities[0].name in {"Mary  Ann", "Mary Ann"}
    assert stores.evidence.mentions(space, ids) == {i: [new] for i in ids}
    assert sorted(stores.evidence.evidence_mentioning(space, [new], 10)) == sorted(ids)


def test_embedded_store_with_old_entity_ids_is_migrated_on_open(tmp_path: Path) -> None:
    space = "home"
    stores = open_embedded_graph_for_test(tmp_path)
    try:
        ids = write(stores, space, TURNS)
    finally:
        stores.close()
    with sqlite3.connect(tmp_path / DATABASE_FILE) as conn:  # what the old version wrote
        conn.execute("DELETE FROM mentions")
        conn.execute("DELETE FROM entities")
        for turn_id, turn in zip(ids, TURNS, strict=True):
            name = str(turn["speaker"])
            old = old_entity_id(space, name)
            conn.execute("INSERT OR IGNORE INTO entities VALUES (?, ?, ?, 'person', '[]')", (old, space, name))
            conn.execute("INSERT INTO mentions VALUES (?, ?, ?)", (turn_id, old, space))
        conn.execute("PRAGMA user_version = 0")
    assert old_entity_id(space, "Mary  Ann") != entity_id(space, "Mary  Ann")

    stores = open_embedded_graph(tmp_path)
    try:
        assert_migrated(stores, space, ids)
    finally:
        stores.close()
    with sqlite3.connect(tmp_path / DATABASE_FILE) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == FORMAT_VERSION
        assert conn.execute("SELECT count(*) FROM entities").fetchone()[0] == 1


def test_a_migrated_embedded_store_is_not_migrated_twice(tmp_path: Path) -> None:
    stores = open_embedded_graph_for_test(tmp_path)
    stores.close()
    with sqlite3.connect(tmp_path / DATABASE_FILE) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == FORMAT_VERSION
        conn.execute("INSERT INTO entities VALUES ('ent_left_alone', 'home', 'Mary  Ann', 'person', '[]')")
    open_embedded_graph(tmp_path).close()
    with sqlite3.connect(tmp_path / DATABASE_FILE) as conn:
        assert conn.execute("SELECT id FROM entities").fetchall() == [("ent_left_alone",)]


_OLD_NODES = f"""
MATCH (e:{Label.EVIDENCE} {{space: $space}})-[m:{RelType.MENTIONS}]->(n:{Label.ENTITY})
DELETE m WITH DISTINCT n DETACH DELETE n
"""
_OLD_NODE = f"""
MATCH (e:{Label.EVIDENCE} {{id: $evidence, space: $space}})
MERGE (n:{Label.ENTITY} {{id: $id}})
  ON CREATE SET n.space = $space, n.name = $name, n.kind = 'person', n.aliases = [$alias]
MERGE (e)-[:{RelType.MENTIONS}]->(n)
"""


@pytest.mark.neo4j
def test_neo4j_store_with_old_entity_ids_is_migrated(
    request: pytest.FixtureRequest, tmp_path: Path, neo4j_driver: Driver, neo4j_server: Neo4jServer
) -> None:
    settings = server_settings(request, tmp_path)
    space = "home"
    stores = open_server_graph(settings)
    try:
        ids = write(stores, space, TURNS)
        database = neo4j_server.database
        neo4j_driver.execute_query(_OLD_NODES, space=space, database_=database)
        for turn_id, turn in zip(ids, TURNS, strict=True):
            name = str(turn["speaker"])
            neo4j_driver.execute_query(
                _OLD_NODE, evidence=turn_id, space=space, id=old_entity_id(space, name), name=name,
                alias=name.upper(), database_=database,
            )  # fmt: skip
        neo4j_driver.execute_query(
            f"MATCH (m:{Label.SCHEMA_MIGRATION} {{version: 5}}) DELETE m", database_=database
        )
        assert [e.id for e in stores.evidence.entities(space)] != [entity_id(space, "Mary Ann")]

        assert apply_migrations(neo4j_driver, database) == ["0005_entity_key_ids"]

        assert_migrated(stores, space, ids)
        merged = stores.evidence.entities(space)[0]
        assert isinstance(merged, Entity) and set(merged.aliases) == {"MARY  ANN", "MARY ANN"}
        assert apply_migrations(neo4j_driver, database) == []
    finally:
        stores.close()
