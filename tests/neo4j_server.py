"""Pytest plugin: the Neo4j server that tests marked ``neo4j`` run against.

Registered in ``tests/conftest.py`` with ``pytest_plugins = ["tests.neo4j_server"]``.

Where the server comes from, in order:

1. ``EYWA_NEO4J_URI`` (with ``EYWA_NEO4J_USER``, ``EYWA_NEO4J_PASSWORD``,
   ``EYWA_NEO4J_DATABASE``): a server someone else runs.
2. ``EYWA_TEST_NEO4J_URI_FILES`` (or ``EYWA_TEST_NEO4J_URI_FILE``): the files that
   ``ops/neo4j/neo4j-test-server run`` writes when ``make test`` started throwaway servers
   (auth disabled; any credentials pass). ``make test`` starts two side by side, and the
   Neo4j tests are split between them in two groups (``pytest_collection_modifyitems``).
3. Neither: tests marked ``neo4j`` are skipped with the reason, except under ``CI=true``,
   where a missing server fails them, so CI can never go green without running them.

The environment is read once, in ``pytest_configure``, before ``clean_environ`` strips
``EYWA_*`` from each test. Tests isolate by space
(``neo4j_space``) or, in the conformance suite, empty the graph first (see the groups below).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import pytest
from neo4j import Driver, GraphDatabase

from eywa.stores.neo4j.migrations import apply_migrations

URI_FILE_ENV = "EYWA_TEST_NEO4J_URI_FILE"
URI_FILES_ENV = "EYWA_TEST_NEO4J_URI_FILES"


@dataclass(frozen=True)
class Neo4jServer:
    """How to reach the test server."""

    uri: str
    user: str
    password: str
    database: str


def _locate(environ: dict[str, str]) -> list[Neo4jServer] | str:
    """The configured servers (one or more, in order), or the reason there is none."""
    user = environ.get("EYWA_NEO4J_USER", "neo4j")
    password = environ.get("EYWA_NEO4J_PASSWORD", "")
    database = environ.get("EYWA_NEO4J_DATABASE", "neo4j")
    if environ.get("EYWA_NEO4J_URI"):
        return [Neo4jServer(environ["EYWA_NEO4J_URI"], user, password, database)]
    listed = environ.get(URI_FILES_ENV) or environ.get(URI_FILE_ENV)
    if not listed:
        return (
            "no Neo4j server: set EYWA_NEO4J_URI, or run `make test`, which starts one "
            "with ops/neo4j/neo4j-test-server"
        )
    servers = []
    for uri_file in listed.split(os.pathsep):
        path = Path(uri_file)
        uri = path.read_text().strip() if path.is_file() else ""
        if not uri:
            return f"{uri_file} holds no URI (did neo4j-test-server start fail?)"
        servers.append(Neo4jServer(uri, user, password, database))
    return servers


def _ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def _unavailable(reason: str) -> NoReturn:
    if _ci():
        pytest.fail(f"{reason} (CI=true: Neo4j tests must run, not skip)", pytrace=False)
    pytest.skip(reason)


_LOCATED: list[Neo4jServer] | str | None = None


def _located() -> list[Neo4jServer] | str:
    global _LOCATED
    if _LOCATED is None:
        _LOCATED = _locate(dict(os.environ))
    return _LOCATED


def pytest_configure(config: pytest.Config) -> None:
    """Read the environment before any test's ``clean_environ`` strips ``EYWA_*``."""
    _located()


NEO4J_FIXTURES = frozenset({"neo4j_server", "neo4j_uri", "neo4j_driver"})
# The reliability tests' own Neo4j (tests/reliability/conftest.py), which they kill and
# restart: they never query the shared server, so they run beside its group, together
# on one process so that one extra JVM serves them all.
RESTARTABLE_FIXTURE = "restartable_neo4j"
# The groups of tests that share one server each, in the order of the servers. With one
# server every Neo4j test is in the first group. With two, the conformance suite (whose
# server runs wipe the whole graph first) has the second server to itself, and the other
# Neo4j tests (plans, schema, migrations, the CLI, API replicas, workers) the first.
NEO4J_GROUPS = ("neo4j", "neo4j-conformance")
CONFORMANCE_DIR = Path(__file__).resolve().parent / "conformance"


def _group_of(node: pytest.Item | pytest.Module, servers: int) -> str:
    """The Neo4j group of a test (or of a module's tests) that reaches the shared servers."""
    if servers > 1 and CONFORMANCE_DIR in Path(str(node.path)).resolve().parents:
        return NEO4J_GROUPS[1]
    return NEO4J_GROUPS[0]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put every test that reaches a Neo4j test server into that server's xdist group.

    ``make test`` runs the suite on several processes (pytest-xdist, ``--dist loadgroup``).
    Tests share a server by space, but many touch database-wide state (the conformance
    suite empties the graph before each server test; migrations, the schema, the recorded
    embedder; a memory's first reconcile pass takes every space's due work); keeping each
    server's tests on one worker runs them one after another exactly as a serial run does,
    while embedded tests fill the other workers. ``make test`` starts two servers, so two
    such groups run side by side, each alone on its database. Tests on the reliability
    tests' restartable Neo4j form a group of their own.
    """
    found = _located()
    servers = len(found) if isinstance(found, list) else 1
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        if RESTARTABLE_FIXTURE in fixtures:
            item.add_marker(pytest.mark.xdist_group(RESTARTABLE_FIXTURE))
        elif item.get_closest_marker("neo4j") is not None or NEO4J_FIXTURES.intersection(fixtures):
            item.add_marker(pytest.mark.xdist_group(_group_of(item, servers)))


def pytest_collection_finish(session: pytest.Session) -> None:
    """Refuse to run when xdist silently ignored the group (pytest-xdist#1386: its
    ``loadgroup`` stops grouping on pytest 9.2, and the Neo4j tests would then race)."""
    if not getattr(session.config.option, "loadgroup", False):
        return  # not an xdist worker scheduling by group
    lost = [
        item.nodeid for item in session.items
        if item.get_closest_marker("xdist_group") is not None and "@" not in item.nodeid
    ]
    if lost:
        raise pytest.UsageError(
            f"pytest-xdist did not group {len(lost)} Neo4j tests (first: {lost[0]}); "
            "this pytest/pytest-xdist pair is incompatible, see the pin in pyproject.toml"
        )


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip (or, under CI, fail) tests marked ``neo4j`` when there is no server."""
    if item.get_closest_marker("neo4j") is not None:
        found = _located()
        if isinstance(found, str):
            _unavailable(found)


@pytest.fixture(scope="session")
def neo4j_servers() -> list[Neo4jServer]:
    """Every configured server, in order; skips (fails under CI) when none is."""
    found = _located()
    if isinstance(found, str):
        _unavailable(found)
    return found


@pytest.fixture(scope="module")
def neo4j_server(request: pytest.FixtureRequest, neo4j_servers: list[Neo4jServer]) -> Neo4jServer:
    """The server of this module's group (``pytest_collection_modifyitems``; groups are
    split by module, so module-scoped fixtures, such as a memory built once for many
    questions, may use it)."""
    return neo4j_servers[NEO4J_GROUPS.index(_group_of(request.node, len(neo4j_servers)))]


@pytest.fixture(scope="module")
def neo4j_uri(neo4j_server: Neo4jServer) -> str:
    """The Bolt URI of this test's server."""
    return neo4j_server.uri


@pytest.fixture(scope="session")
def _neo4j_drivers() -> Iterator[dict[Neo4jServer, Driver]]:
    """One driver per server for the session, opened (and the schema migrated) on first use."""
    drivers: dict[Neo4jServer, Driver] = {}
    try:
        yield drivers
    finally:
        for driver in drivers.values():
            driver.close()


@pytest.fixture(scope="module")
def neo4j_driver(neo4j_server: Neo4jServer, _neo4j_drivers: dict[Neo4jServer, Driver]) -> Driver:
    """The session's driver to this test's server, connected, with the graph schema migrated."""
    driver = _neo4j_drivers.get(neo4j_server)
    if driver is None:
        driver = GraphDatabase.driver(neo4j_server.uri, auth=(neo4j_server.user, neo4j_server.password))
        try:
            driver.verify_connectivity()
            apply_migrations(driver, neo4j_server.database)
        except BaseException:
            driver.close()
            raise
        _neo4j_drivers[neo4j_server] = driver
    return driver


@pytest.fixture
def neo4j_space() -> str:
    """A space name no other test uses, so tests share the database without wiping it."""
    return f"test-{uuid.uuid4().hex[:12]}"
