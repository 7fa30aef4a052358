"""The test plugin's split of the Neo4j tests between the servers ``make test`` starts.

Each server's tests must run in one xdist group (one process, in order: the conformance
suite empties the graph before each server test), and with one server every Neo4j test must
be in the same group, or two processes would share one database.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest

from tests.neo4j_server import NEO4J_GROUPS, Neo4jServer, _group_of, _locate

TESTS = Path(__file__).resolve().parents[1]


def _item(path: Path) -> pytest.Item:
    return cast(pytest.Item, SimpleNamespace(path=path))


def test_one_server_keeps_every_neo4j_test_in_one_group() -> None:
    for path in (TESTS / "conformance" / "test_erasure.py", TESTS / "neo4j" / "test_schema.py"):
        assert _group_of(_item(path), servers=1) == NEO4J_GROUPS[0]


def test_two_servers_give_the_conformance_suite_the_second() -> None:
    assert _group_of(_item(TESTS / "conformance" / "test_erasure.py"), servers=2) == NEO4J_GROUPS[1]
    for other in ("neo4j/test_schema.py", "cli/test_cli_server_mode.py", "services/test_api_replicas.py"):
        assert _group_of(_item(TESTS / other), servers=2) == NEO4J_GROUPS[0]


def test_the_uri_files_are_read_in_order(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    first.write_text("bolt://127.0.0.1:7001\n")
    second.write_text("bolt://127.0.0.1:7002\n")
    found = _locate({"EYWA_TEST_NEO4J_URI_FILES": f"{first}:{second}", "EYWA_TEST_NEO4J_URI_FILE": str(first)})
    assert found == [Neo4jServer("bolt://127.0.0.1:7001", "neo4j", "", "neo4j"),
                     Neo4jServer("bolt://127.0.0.1:7002", "neo4j", "", "neo4j")]  # fmt: skip


def test_an_empty_uri_file_is_a_reason_not_a_server(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.write_text("")
    found = _locate({"EYWA_TEST_NEO4J_URI_FILES": f"{tmp_path / 'a'}:{empty}"})
    assert isinstance(found, str) and "holds no URI" in found


def test_an_explicit_server_is_the_only_one() -> None:
    found = _locate({"EYWA_NEO4J_URI": "bolt://db:7687", "EYWA_TEST_NEO4J_URI_FILES": "/x:/y"})
    assert found == [Neo4jServer("bolt://db:7687", "neo4j", "", "neo4j")]
