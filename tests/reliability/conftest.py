"""A Neo4j of the reliability tests' own, which they may SIGKILL and restart.

The session's shared server (``tests.neo4j_server``) is never restarted under other tests.
One extra server per session (``ops/neo4j/neo4j-test-server --run-dir D start``) is shared
by the tests that restart Neo4j: a JVM start is the expensive part of each, so they share
it, and isolate by space like every other Neo4j test. Each test leaves it running.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.reliability.neo4j_process import free_port, launcher


@pytest.fixture(scope="session")
def restartable_neo4j(tmp_path_factory: pytest.TempPathFactory, neo4j_servers: object) -> Iterator[tuple[Path, str]]:
    """``(run_dir, bolt_uri)`` of a second Neo4j (the shared one must exist: its jars are
    what this one runs)."""
    run_dir = tmp_path_factory.mktemp("restartable-neo4j")
    launcher(run_dir, "start", "--port", str(free_port()))
    try:
        yield run_dir, (run_dir / "bolt-uri").read_text().strip()
    finally:
        launcher(run_dir, "stop")
