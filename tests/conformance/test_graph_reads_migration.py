"""Stores written before graph-native reads are migrated on open: the co-mention edges are
backfilled from the stored mentions (both backends), and on Neo4j every turn and belief
gains its ``space_key`` and turns without neighbour context gain it, so the graph walk and
the space-keyed keyword search answer as for a store written by this version.

The old format is made by removing what the new version writes from a store it wrote,
then the migration runs through the ordinary path (opening the embedded store; applying
the Neo4j migrations).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from neo4j import Driver

from eywa.stores.bundle import Stores
from eywa.stores.embedded.factory import DATABASE_FILE, open_embedded
from eywa.stores.embedded.migrations import FORMAT_VERSION, MIGRATIONS
from eywa.stores.entity_graph import Reach
from eywa.stores.neo4j.labels import Label, RelType
from eywa.stores.neo4j.migrations import apply_migrations, load_migrations
from eywa.stores.server import open_server
from tests.conformance.conftest import STORE_DIM, server_settings
from tests.conformance.test_entity_graph import MENTIONS, ent, write

GRAPH_READS = next(m for m in load_migrations() if m.name.endswith("_graph_reads"))
# The embedded format that came before the co-mention edges (later formats add more).
BEFORE_EDGES = next(n for n, step in enumerate(MIGRATIONS) if step.__name__ == "_co_mention_edges")


def walks(stores: Stores, ids: dict[str, str]) -> list[Reach]:
    """What the graph route asks of the store, from every entity, and its answers."""
    return [
        stores.graph.neighbours("g", [ent("g", name)], 2, 10, evidence_ids=list(ids.values()))
        for name in "ABCDEF"
    ]


def test_embedded_co_mention_edges_are_backfilled_on_open(tmp_path: Path) -> None:
    stores = open_embedded(tmp_path, STORE_DIM)
    try:
        ids = write(stores, "g", MENTIONS)
        expected = walks(stores, ids)
    finally:
        stores.close()
    with sqlite3.connect(tmp_path / DATABASE_FILE) as conn:  # what the previous format held
        conn.execute("DELETE FROM entity_edges")
        conn.execute(f"PRAGMA user_version = {BEFORE_EDGES:d}")

    stores = open_embedded(tmp_path, STORE_DIM)
    try:
        assert walks(stores, ids) == expected
        assert len(expected[0].entities) > 1  # the walk from A goes somewhere: the check has teeth
    finally:
        stores.close()
    with sqlite3.connect(tmp_path / DATABASE_FILE) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == FORMAT_VERSION


_STRIP = f"""
MATCH (e:{Label.EVIDENCE}) WHERE e.space = $space
REMOVE e.space_key, e.near_text, e.far_text
"""
_CONTEXT = f"""
MATCH (e:{Label.EVIDENCE}) WHERE e.space = $space
RETURN e.id AS id, e.space_key AS key, e.near_text AS near, e.far_text AS far ORDER BY id
"""


@pytest.mark.neo4j
def test_neo4j_space_keys_edges_and_context_are_backfilled(
    request: pytest.FixtureRequest, tmp_path: Path, neo4j_driver: Driver
) -> None:
    settings = server_settings(request, tmp_path)
    database = settings.neo4j_database
    stores = open_server(settings, STORE_DIM)
    try:
        ids = write(stores, "g", MENTIONS)
        expected = walks(stores, ids)
        found = [item_id for _, item_id, _ in stores.keyword.search("g", "Turn", 10)]
        context = neo4j_driver.execute_query(_CONTEXT, space="g", database_=database).records
        neo4j_driver.execute_query(f"MATCH ()-[r:{RelType.CO_MENTIONED}]->() DELETE r", database_=database)
        neo4j_driver.execute_query(_STRIP, space="g", database_=database)
        neo4j_driver.execute_query(
            f"MATCH (m:{Label.SCHEMA_MIGRATION} {{version: $v}}) DELETE m", v=GRAPH_READS.version, database_=database
        )
        assert stores.keyword.search("g", "Turn", 10) == []  # without space keys nothing is found

        assert apply_migrations(neo4j_driver, database) == [GRAPH_READS.name]

        assert walks(stores, ids) == expected
        assert len(expected[0].entities) > 1
        assert len(found) == len(MENTIONS)
        # Ids, not scores: Lucene counts removed documents in its statistics until it merges.
        assert [item_id for _, item_id, _ in stores.keyword.search("g", "Turn", 10)] == found
        assert neo4j_driver.execute_query(_CONTEXT, space="g", database_=database).records == context
        assert apply_migrations(neo4j_driver, database) == []
    finally:
        stores.close()
