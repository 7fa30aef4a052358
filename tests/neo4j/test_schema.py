"""The graph schema migrations and their runner.

The parsing tests need no server. The ones marked ``neo4j`` run against the shared test
server, where ``neo4j_driver`` has applied the real migrations. Only the first needs a
schema-free database: ``fresh_schema`` drops what the migrations made and the ledger, and
puts the real schema back afterwards (schema commands are slow, so the others reuse it).
"""

from __future__ import annotations

import re
import shutil
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from neo4j import Driver

from eywa.errors import StoreError
from eywa.stores.neo4j.keyword import in_space, lucene_query
from eywa.stores.neo4j.labels import DROPPED_FULLTEXT_INDEXES, DROPPED_RANGE_INDEXES, FulltextIndex, Label, RelType
from eywa.stores.neo4j.migrations import (
    MigrationChecksumError,
    apply_migrations,
    default_migrations_dir,
    load_migrations,
    parse_migration,
    run_schema_statement,
    split_statements,
)
from eywa.stores.neo4j.records import space_key
from tests.neo4j_server import Neo4jServer

REAL = [m.name for m in load_migrations()]


# ---- parsing, no server ---------------------------------------------------------------


def test_the_repository_migrations_parse_in_order() -> None:
    migrations = load_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert REAL[:3] == ["0001_constraints", "0002_indexes", "0003_fulltext"]
    # Data changes Cypher cannot compute (entity ids are SHA-256s, UTF-8 sizes) are Python migrations;
    # Cypher data migrations (counts, a constant Cypher computes); every other one is a schema one.
    assert {m.name: m.kind for m in migrations if m.kind != "schema"} == {
        "0005_entity_key_ids": "python", "0008_graph_reads": "python", "0019_space_backlog_counts": "data",
        "0021_evidence_bytes": "python", "0023_evidence_signals_version": "data", "0025_space_usage_counts": "data",
        "0028_related_to_orphans": "data",
    }  # fmt: skip
    assert isinstance(default_migrations_dir(), Path)  # found in the checkout


def test_split_drops_comment_lines_and_keeps_multiline_statements() -> None:
    text = "// a comment; with a semicolon\nCREATE INDEX a IF NOT EXISTS\nFOR (n:X) ON (n.p);\n\n"
    text += "MATCH (n) WHERE n.url = 'http://x' RETURN n;"
    assert split_statements(text) == (
        "CREATE INDEX a IF NOT EXISTS\nFOR (n:X) ON (n.p)",
        "MATCH (n) WHERE n.url = 'http://x' RETURN n",
    )


@pytest.mark.parametrize(
    ("name", "body", "problem"),
    [
        ("1_bad.cypher", "CREATE INDEX a IF NOT EXISTS FOR (n:X) ON (n.p);", "NNNN_name"),
        ("0009_empty.cypher", "// nothing\n", "no statements"),
        ("0009_broken.py", "def migrate(tx):\n    return (\n", "0009_broken.py"),
        ("0009_bad.sql", "SELECT 1;", "NNNN_name"),
        ("0009_bare.cypher", "CREATE INDEX a FOR (n:X) ON (n.p);", "IF [NOT] EXISTS"),
        (
            "0009_mixed.cypher",
            "CREATE INDEX a IF NOT EXISTS FOR (n:X) ON (n.p);\nCREATE (:X {p: 1});",
            "mixes schema and data",
        ),
    ],
)
def test_malformed_migrations_are_refused(name: str, body: str, problem: str) -> None:
    with pytest.raises(StoreError, match=re.escape(problem)):
        parse_migration(name, body.encode())


def test_every_name_in_the_migrations_is_an_enum_member() -> None:
    text = "\n".join(
        "\n".join(m.statements) for m in load_migrations()
    )
    labels = set(re.findall(r"\(\w+:(\w+)\)", text))
    indexes = set(re.findall(r"CREATE FULLTEXT INDEX (\w+)", text))
    dropped = set(re.findall(r"DROP INDEX (\w+)", text))
    assert labels == {label.value for label in Label} - {Label.SCHEMA_MIGRATION}
    assert indexes == {index.value for index in FulltextIndex} | DROPPED_FULLTEXT_INDEXES
    assert dropped == DROPPED_FULLTEXT_INDEXES | DROPPED_RANGE_INDEXES
    assert not set(re.findall(r"\[:(\w+)\]", text)) - {rel.value for rel in RelType}


# ---- against the server ---------------------------------------------------------------


def _schema_names(driver: Driver, database: str) -> set[str]:
    indexes = driver.execute_query("SHOW INDEXES YIELD name, type WHERE type <> 'LOOKUP' "
                                   "RETURN name", database_=database).records
    return {record["name"] for record in indexes}


def _ledger(driver: Driver, database: str) -> dict[int, tuple[str, str]]:
    records = driver.execute_query(
        f"MATCH (m:{Label.SCHEMA_MIGRATION}) RETURN m.version AS v, m.name AS n, "
        "m.checksum AS c", database_=database).records
    return {r["v"]: (r["n"], r["c"]) for r in records}


@pytest.fixture
def fresh_schema(neo4j_driver: Driver, neo4j_server: Neo4jServer) -> Iterator[str]:
    """A database without the migrated schema or ledger; restored after the test."""
    database = neo4j_server.database

    def wipe() -> None:
        driver = neo4j_driver
        driver.execute_query(f"MATCH (m:{Label.SCHEMA_MIGRATION}) DELETE m", database_=database)
        for record in driver.execute_query("SHOW CONSTRAINTS YIELD name", database_=database).records:
            driver.execute_query(f"DROP CONSTRAINT `{record['name']}` IF EXISTS", database_=database)
        for name in _schema_names(driver, database):
            driver.execute_query(f"DROP INDEX `{name}` IF EXISTS", database_=database)

    wipe()
    yield database
    wipe()
    apply_migrations(neo4j_driver, database)


@pytest.mark.neo4j
def test_migrations_apply_on_a_fresh_database_and_reapply_is_a_no_op(
    neo4j_driver: Driver, fresh_schema: str
) -> None:
    assert _schema_names(neo4j_driver, fresh_schema) == set()

    assert apply_migrations(neo4j_driver, fresh_schema) == REAL
    assert apply_migrations(neo4j_driver, fresh_schema) == []

    names = _schema_names(neo4j_driver, fresh_schema)
    assert {"evidence_id", "belief_id", "signal_id", "evidence_space_observed_at", "evidence_space_bytes",
            "belief_space_attribute", "pending_space_item", *FulltextIndex} <= names
    assert not names & (DROPPED_FULLTEXT_INDEXES | DROPPED_RANGE_INDEXES)
    states = neo4j_driver.execute_query("SHOW INDEXES YIELD state RETURN collect(state) AS s",
                                        database_=fresh_schema).records[0]["s"]
    assert set(states) == {"ONLINE"}
    ledger = _ledger(neo4j_driver, fresh_schema)
    assert ledger == {m.version: (m.name, m.checksum) for m in load_migrations()}


def _copy_migrations(tmp_path: Path) -> Path:
    folder = tmp_path / "migrations"
    shutil.copytree(Path(str(default_migrations_dir())), folder)
    return folder


@pytest.mark.neo4j
def test_an_edited_applied_migration_is_refused_before_anything_runs(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, tmp_path: Path
) -> None:
    database = neo4j_server.database
    folder = _copy_migrations(tmp_path)
    with (folder / "0002_indexes.cypher").open("a") as edited:
        edited.write("// a harmless-looking edit\n")
    (folder / "0099_later.cypher").write_text(
        "CREATE INDEX must_not_exist IF NOT EXISTS FOR (n:Evidence) ON (n.speaker);\n"
    )

    with pytest.raises(MigrationChecksumError, match="0002_indexes was edited") as caught:
        apply_migrations(neo4j_driver, database, folder)

    assert caught.value.version == 2
    assert "must_not_exist" not in _schema_names(neo4j_driver, database)


@pytest.mark.neo4j
def test_a_deleted_applied_migration_is_refused(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, tmp_path: Path
) -> None:
    database = neo4j_server.database
    folder = _copy_migrations(tmp_path)
    (folder / "0003_fulltext.cypher").unlink()

    with pytest.raises(MigrationChecksumError, match="0003_fulltext was deleted"):
        apply_migrations(neo4j_driver, database, folder)


@pytest.fixture
def ledger_guard(neo4j_driver: Driver, neo4j_server: Neo4jServer) -> Iterator[str]:
    """Forget test-only ledger entries (version >= 90), whatever the test did."""
    yield neo4j_server.database
    neo4j_driver.execute_query(f"MATCH (m:{Label.SCHEMA_MIGRATION}) WHERE m.version >= 90 "
                               "DELETE m", database_=neo4j_server.database)


@pytest.mark.neo4j
def test_a_failing_data_migration_rolls_back_with_its_bookkeeping(
    neo4j_driver: Driver, ledger_guard: str, tmp_path: Path, neo4j_space: str
) -> None:
    database = ledger_guard
    folder = _copy_migrations(tmp_path)
    (folder / "0099_seed.cypher").write_text(
        f"CREATE (:{Label.SPACE} {{id: '{neo4j_space}', space: '{neo4j_space}'}});\n"
        f"CREATE (:{Label.SPACE} {{id: '{neo4j_space}', space: '{neo4j_space}'}});\n"
    )

    with pytest.raises(StoreError, match="already exists"):  # the second CREATE breaks id uniqueness
        apply_migrations(neo4j_driver, database, folder)

    spaces = neo4j_driver.execute_query(
        f"MATCH (s:{Label.SPACE} {{space: $space}}) RETURN count(s) AS n",
        space=neo4j_space, database_=database).records[0]["n"]
    assert spaces == 0  # the first CREATE rolled back with the second
    assert 99 not in _ledger(neo4j_driver, database)


@pytest.mark.neo4j
def test_a_data_migration_is_recorded_once(
    neo4j_driver: Driver, ledger_guard: str, tmp_path: Path, neo4j_space: str
) -> None:
    database = ledger_guard
    folder = _copy_migrations(tmp_path)
    (folder / "0099_seed.cypher").write_text(
        f"CREATE (:{Label.SPACE} {{id: '{neo4j_space}', space: '{neo4j_space}'}});\n"
    )

    assert apply_migrations(neo4j_driver, database, folder) == ["0099_seed"]
    assert apply_migrations(neo4j_driver, database, folder) == []

    spaces = neo4j_driver.execute_query(
        f"MATCH (s:{Label.SPACE} {{space: $space}}) RETURN count(s) AS n",
        space=neo4j_space, database_=database).records[0]["n"]
    assert spaces == 1
    assert _ledger(neo4j_driver, database)[99][0] == "0099_seed"


@pytest.mark.neo4j
def test_full_text_indexes_find_seeded_nodes_by_stem_within_the_space(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str
) -> None:
    database = neo4j_server.database
    other = neo4j_space + "-other"
    neo4j_driver.execute_query(
        f"CREATE (:{Label.EVIDENCE} {{id: $space + ':e1', space: $space, space_key: $key, "
        "text: 'We adopted two rescue greyhounds last spring'}) "
        f"CREATE (:{Label.EVIDENCE} {{id: $space + ':e2', space: $space, space_key: $key, text: 'Lunch was fine'}}) "
        f"CREATE (:{Label.EVIDENCE} {{id: $other + ':e1', space: $other, space_key: $other_key, "
        "text: 'A greyhound in another space'}) "
        f"CREATE (:{Label.BELIEF} {{id: $space + ':b1', space: $space, space_key: $key, status: 'active', "
        "statement: 'The user owns a greyhound'}) "
        f"CREATE (:{Label.BELIEF} {{id: $space + ':b2', space: $space, space_key: $key, status: 'retracted', "
        "statement: 'The user owns a greyhound'})",
        space=neo4j_space, key=space_key(neo4j_space), other=other, other_key=space_key(other),
        database_=database,
    )  # fmt: skip
    query = "CALL db.index.fulltext.queryNodes($index, $q) YIELD node RETURN node.id AS id ORDER BY id"

    def found(index: FulltextIndex, words: str, exclude: str = "") -> list[str]:
        q = in_space(neo4j_space, lucene_query(words) or "", exclude)
        return [r["id"] for r in neo4j_driver.execute_query(query, index=index.value, q=q, database_=database).records]

    try:
        assert found(FulltextIndex.EVIDENCE_KEYWORD, "greyhound") == [f"{neo4j_space}:e1"]  # stemmed, one space
        assert found(FulltextIndex.BELIEF_KEYWORD, "greyhounds", ' -status:"retracted"') == [f"{neo4j_space}:b1"]
    finally:  # raw nodes, not real turns or beliefs: leave nothing for later tests (an embedder switch re-embeds all)
        neo4j_driver.execute_query(
            "MATCH (n) WHERE n.space IN [$space, $other] DETACH DELETE n",
            space=neo4j_space, other=other, database_=database,
        )  # fmt: skip


@pytest.mark.neo4j
def test_a_python_migration_runs_with_its_bookkeeping_in_one_transaction(
    neo4j_driver: Driver, ledger_guard: str, tmp_path: Path, neo4j_space: str
) -> None:
    database = ledger_guard
    folder = _copy_migrations(tmp_path)
    (folder / "0099_seed.py").write_text(
        "def migrate(tx):\n"
        f"    tx.run(\"CREATE (:{Label.SPACE} {{id: $s, space: $s}})\", s={neo4j_space!r}).consume()\n"
        "    raise RuntimeError('half way')\n"
    )
    with pytest.raises(StoreError, match="0099_seed: half way"):
        apply_migrations(neo4j_driver, database, folder)
    count = f"MATCH (s:{Label.SPACE} {{space: $space}}) RETURN count(s) AS n"
    assert neo4j_driver.execute_query(count, space=neo4j_space, database_=database).records[0]["n"] == 0
    assert 99 not in _ledger(neo4j_driver, database)

    (folder / "0099_seed.py").write_text(
        "def migrate(tx):\n"
        f"    tx.run(\"CREATE (:{Label.SPACE} {{id: $s, space: $s}})\", s={neo4j_space!r}).consume()\n"
    )
    assert apply_migrations(neo4j_driver, database, folder) == ["0099_seed"]
    assert apply_migrations(neo4j_driver, database, folder) == []
    assert neo4j_driver.execute_query(count, space=neo4j_space, database_=database).records[0]["n"] == 1
    assert _ledger(neo4j_driver, database)[99][0] == "0099_seed"


@pytest.mark.neo4j
def test_runners_racing_for_the_same_schema_rule_both_succeed(
    neo4j_driver: Driver, neo4j_server: Neo4jServer
) -> None:
    """Two replicas starting together on a fresh database apply the schema at once; the
    loser of a race for one index must not fail its start-up (it did: the server answers
    EquivalentSchemaRuleAlreadyExists although the statement says IF NOT EXISTS)."""
    name = f"race_{uuid.uuid4().hex[:8]}"
    create = f"CREATE INDEX {name} IF NOT EXISTS FOR (n:SchemaRaceProbe) ON (n.{name})"
    drop = f"DROP INDEX {name} IF EXISTS"
    failures: list[BaseException] = []

    def race(statement: str) -> None:
        barrier = threading.Barrier(6)

        def one() -> None:
            with neo4j_driver.session(database=neo4j_server.database) as session:
                barrier.wait()
                try:
                    run_schema_statement(session, statement)
                except BaseException as exc:  # noqa: BLE001 - collected and asserted below
                    failures.append(exc)

        threads = [threading.Thread(target=one) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)

    for _ in range(3):
        race(create)
        race(drop)
    assert failures == []
    with neo4j_driver.session(database=neo4j_server.database) as session:
        names = [r["name"] for r in session.run("SHOW INDEXES YIELD name RETURN name")]
    assert name not in names
