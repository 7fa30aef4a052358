"""The audit cookbook on Neo4j specifically: the read transaction and the CLI.

What every audit answers is the backend-neutral contract in
``tests/conformance/test_audit_contract.py``; the header grammar is unit-tested in
``tests/unit/test_audit_registry.py``.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest
from neo4j import Driver
from typer.testing import CliRunner

from eywa.cli.app import app
from eywa.errors import StoreError
from eywa.stores.dimensions import SameAsEdge
from eywa.stores.neo4j.audit_queries import Neo4jAuditQueries
from eywa.stores.neo4j.dimensions import Neo4jDimensionStore
from eywa.stores.neo4j.graph import Neo4jGraph
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j

_WRITING_AUDIT = """// purpose: Tries to write, which a read transaction must refuse.
// param: space - the space
// returns: n int
CREATE (x:Evidence {id: 'ev_written_by_an_audit', space: $space})
RETURN 1 AS n
"""


def test_an_audit_runs_in_a_read_transaction(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str, tmp_path: Path
) -> None:
    (tmp_path / "sneaky.cypher").write_text(_WRITING_AUDIT, encoding="utf-8")
    audits = Neo4jAuditQueries(Neo4jGraph(neo4j_driver, neo4j_server.database, owns_driver=False), tmp_path)
    with pytest.raises(StoreError, match="audit sneaky"):
        audits.run("sneaky", {"space": neo4j_space})
    found, _, _ = neo4j_driver.execute_query(
        "MATCH (x:Evidence {id: 'ev_written_by_an_audit'}) RETURN count(x) AS n", database_=neo4j_server.database
    )
    assert found[0]["n"] == 0


def test_audit_cli_runs_on_neo4j_when_the_uri_is_set(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str, tmp_path: Path
) -> None:
    graph = Neo4jGraph(neo4j_driver, neo4j_server.database, owns_driver=False)
    merged = datetime(2024, 5, 1, tzinfo=timezone.utc)
    Neo4jDimensionStore(graph).add_same_as(SameAsEdge(space=neo4j_space, source="adelaide", target="ada", score=0.8, at=merged))
    env = {
        "EYWA_NEO4J_URI": neo4j_server.uri, "EYWA_NEO4J_USER": neo4j_server.user,
        "EYWA_NEO4J_PASSWORD": neo4j_server.password, "EYWA_NEO4J_DATABASE": neo4j_server.database,
        "EYWA_DATA_DIR": str(tmp_path / "data"), "EYWA_EXTRACTOR": "none",
    }  # fmt: skip
    runner = CliRunner()
    result = runner.invoke(app, ["audit", "merged_entities", "--param", f"space={neo4j_space}"], env=env)
    assert result.exit_code == 0, result.output
    assert "adelaide" in result.stdout and "2024-05-01T00:00:00+00:00" in result.stdout  # from Neo4j
    listed = runner.invoke(app, ["audit", "--list"], env=env)
    assert listed.exit_code == 0 and "touched_between" in listed.stdout
    bad = runner.invoke(app, ["audit", "merged_entities", "--param", "nospace"], env=env)
    assert bad.exit_code != 0 and "key=value" in bad.stderr
    applied = runner.invoke(app, ["schema", "apply"], env=env)
    assert applied.exit_code == 0 and "up to date" in applied.stdout
