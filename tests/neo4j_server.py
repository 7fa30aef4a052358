"""Pytest plugin: the Neo4j server that tests marked ``neo4j`` run against.

Registered in ``tests/conftest.py`` with ``pytest_plugins = ["tests.neo4j_server"]``.

Where the server comes from, in order:

1. ``EYWA_NEO4J_URI`` (with ``EYWA_NEO4J_USER``, ``EYWA_NEO4J_PASSWORD``,
   ``EYWA_NEO4J_DATABASE``): a server someone else runs.
2. ``EYWA_TEST_NEO4J_URI_FILE``: the file that ``ops/neo4j/neo4j-test-server`` writes when
   ``make test`` started a throwaway server (auth disabled; any credentials pass).
3. Neither: tests marked ``neo4j`` are skipped with the reason, except under ``CI=true``,
   where a missing server fails them, so CI can never go green without running them.

The environment is read once, in ``pytest_configure``, before ``clean_environ`` strips
``EYWA_*`` from each test. Tests isolate by space
(``neo4j_space``), never by wiping the database, so they can share one server.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import pytest
from neo4j import Driver, GraphDatabase

from eywa.stores.neo4j.migrations import apply_migrations

URI_FILE_ENV = "EYWA_TEST_NEO4J_URI_FILE"


@dataclass(frozen=True)
class Neo4jServer:
    """How to reach the test server."""

    uri: str
    user: str
    password: str
    database: str


def _locate(environ: dict[str, str]) -> Neo4jServer | str:
    """The configured server, or the reason there is none."""
    user = environ.get("EYWA_NEO4J_USER", "neo4j")
    password = environ.get("EYWA_NEO4J_PASSWORD", "")
    database = environ.get("EYWA_NEO4J_DATABASE", "neo4j")
    if environ.get("EYWA_NEO4J_URI"):
        return Neo4jServer(environ["EYWA_NEO4J_URI"], user, password, database)
    uri_file = environ.get(URI_FILE_ENV)
    if not uri_file:
        return (
            "no Neo4j server: set EYWA_NEO4J_URI, or run `make test`, which starts one "
            "with ops/neo4j/neo4j-test-server"
        )
    path = Path(uri_file)
    uri = path.read_text().strip() if path.is_file() else ""
    if not uri:
        return f"{URI_FILE_ENV}={uri_file} holds no URI (did neo4j-test-server start fail?)"
    return Neo4jServer(uri, user, password, database)


def _ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def _unavailable(reason: str) -> NoReturn:
    if _ci():
        pytest.fail(f"{reason} (CI=true: Neo4j tests must run, not skip)", pytrace=False)
    pytest.skip(reason)


_LOCATED: Neo4jServer | str | None = None
_OWN_RUN_DIR: Path | None = None  # the server this xdist worker started for itself, if any
LAUNCHER = Path(__file__).resolve().parents[1] / "ops" / "neo4j" / "neo4j-test-server"


def _worker() -> str:
    """The pytest-xdist worker id (``gw0``, ``gw1``, …), or ``""`` in a single process."""
    return os.environ.get("PYTEST_XDIST_WORKER", "")


_PER_WORKER = False  # decided in pytest_configure, while the environment is intact


def _server_per_worker() -> bool:
    """Whether each xdist worker runs its Neo4j tests on a server of its own.

    Under ``make test`` (the launcher's URI file, no ``EYWA_NEO4J_URI``) the first worker
    uses the launcher's server and every other worker starts one more the same way, so the
    Neo4j tests spread over the workers without sharing a database (conformance tests empty
    the graph; a few touch the schema). A server someone else runs is shared: then the
    Neo4j tests are kept on one worker instead (``pytest_collection_modifyitems``).
    """
    return _PER_WORKER


def _start_own_server() -> Neo4jServer | str:
    """Start this worker's own server with the launcher (jars already fetched by the run)."""
    global _OWN_RUN_DIR
    run_dir = Path(tempfile.mkdtemp(prefix=f"eywa-neo4j-{_worker()}-"))
    environment = {k: v for k, v in os.environ.items() if not k.startswith("EYWA_NEO4J_TEST_")}
    environment.update(EYWA_NEO4J_TEST_HEAP="512m", EYWA_NEO4J_TEST_PAGECACHE="64m")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    done = subprocess.run(
        [sys.executable, str(LAUNCHER), "--run-dir", str(run_dir), "--port", str(port), "start"],
        env=environment, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        return f"this worker's Neo4j did not start: {done.stderr.strip()[-500:]}"
    _OWN_RUN_DIR = run_dir
    return Neo4jServer((run_dir / "bolt-uri").read_text().strip(), "neo4j", "", "neo4j")


_BASE: Neo4jServer | str = "Neo4j server not located yet"


def _located() -> Neo4jServer | str:
    """The server of this process; a worker's own is started by its first Neo4j test."""
    global _LOCATED
    if _LOCATED is None:
        own = _PER_WORKER and _worker() not in ("", "gw0") and isinstance(_BASE, Neo4jServer)
        _LOCATED = _start_own_server() if own else _BASE
    return _LOCATED


def pytest_configure(config: pytest.Config) -> None:
    """Read the environment before any test's ``clean_environ`` strips ``EYWA_*``."""
    global _BASE, _PER_WORKER, _LOCATED
    _PER_WORKER = not os.environ.get("EYWA_NEO4J_URI") and bool(os.environ.get(URI_FILE_ENV))
    _BASE = _locate(dict(os.environ))
    _LOCATED = None


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stop the server this worker started for itself."""
    if _OWN_RUN_DIR is not None:
        subprocess.run([sys.executable, str(LAUNCHER), "--run-dir", str(_OWN_RUN_DIR), "stop"],
                       capture_output=True, timeout=120, check=False)  # fmt: skip


NEO4J_FIXTURES = frozenset({"neo4j_server", "neo4j_uri", "neo4j_driver"})


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On a shared server, put every test that reaches Neo4j into one xdist group.

    Tests share a server by space, but conformance tests empty the graph and a few touch
    database-wide state (migrations, the schema, the recorded embedder); on one worker they
    run one after another exactly as a serial run does. Under ``make test`` each worker has
    a server of its own instead (``_server_per_worker``) and no group is needed.
    """
    if _server_per_worker():
        return
    for item in items:
        uses_fixture = NEO4J_FIXTURES.intersection(getattr(item, "fixturenames", ()))
        if item.get_closest_marker("neo4j") is not None or uses_fixture:
            item.add_marker(pytest.mark.xdist_group("neo4j"))


def pytest_collection_finish(session: pytest.Session) -> None:
    """Refuse to run when xdist silently ignored a group (pytest-xdist#1386: its
    ``loadgroup`` stops grouping on pytest 9.2, and grouped tests would then race)."""
    if not getattr(session.config.option, "loadgroup", False):
        return  # not an xdist worker scheduling by group
    lost = [
        item.nodeid for item in session.items
        if item.get_closest_marker("xdist_group") is not None and "@" not in item.nodeid
    ]
    if lost:
        raise pytest.UsageError(
            f"pytest-xdist did not group {len(lost)} tests (first: {lost[0]}); "
            "this pytest/pytest-xdist pair is incompatible, see the pin in pyproject.toml"
        )


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip (or, under CI, fail) tests marked ``neo4j`` when there is no server."""
    if item.get_closest_marker("neo4j") is not None:
        found = _located()
        if isinstance(found, str):
            _unavailable(found)


@pytest.fixture(scope="session")
def neo4j_server() -> Neo4jServer:
    """The server to use; skips (fails under CI) when none is configured."""
    found = _located()
    if isinstance(found, str):
        _unavailable(found)
    return found


@pytest.fixture(scope="session")
def neo4j_uri(neo4j_server: Neo4jServer) -> str:
    """The Bolt URI of the test server."""
    return neo4j_server.uri


@pytest.fixture(scope="session")
def neo4j_driver(neo4j_server: Neo4jServer) -> Iterator[Driver]:
    """One driver for the session, connected, with the graph schema migrated."""
    driver = GraphDatabase.driver(
        neo4j_server.uri, auth=(neo4j_server.user, neo4j_server.password)
    )
    try:
        driver.verify_connectivity()
        apply_migrations(driver, neo4j_server.database)
        yield driver
    finally:
        driver.close()


@pytest.fixture
def neo4j_space() -> str:
    """A space name no other test uses, so tests share the database without wiping it."""
    return f"test-{uuid.uuid4().hex[:12]}"
