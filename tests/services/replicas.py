"""Two ``eywa serve`` replicas over one Neo4j and one Redis, for the tests that drive them.

Each replica gets its own data directory and local-mode Qdrant folder under ``tmp_path / "a"``
and ``tmp_path / "b"`` (local mode cannot be shared between processes; deployments point both
at ``EYWA_QDRANT_URL``). A key is made first with ``eywa keys create`` against Neo4j, as an
operator does, and the replicas are started at once (starting them is most of a test's time).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from subprocess import Popen

import httpx
import pytest
from neo4j import Driver
from pydantic import SecretStr
from typer.testing import CliRunner

from eywa.bench.service import free_port, start_api, stop_api
from eywa.cli import app
from eywa.settings import EywaSettings, as_environment
from tests.conformance.conftest import wipe_graph
from tests.neo4j_server import Neo4jServer

HOST = "127.0.0.1"


def replica_settings(server: Neo4jServer, redis_url: str, directory: Path) -> EywaSettings:
    return EywaSettings(
        data_dir=directory / "data", qdrant_path=directory / "qdrant", neo4j_uri=server.uri,
        neo4j_user=server.user, neo4j_password=SecretStr(server.password), neo4j_database=server.database,
        redis_url=redis_url, job_runner="inline",
    )  # fmt: skip


@dataclass
class Replicas:
    """The two replicas' clients, the key made before they started, and their processes
    (``processes[1]`` is the second replica's, for a test that stops it before the other)."""

    a: httpx.Client
    b: httpx.Client
    key: dict[str, str]
    processes: list[Popen[bytes]]
    urls: tuple[str, str]


@contextmanager
def two_replicas(
    tmp_path: Path, server: Neo4jServer, driver: Driver, redis_url: str, monkeypatch: pytest.MonkeyPatch,
    *, space: str, scope: str, settings: Mapping[str, object] | None = None,
) -> Iterator[Replicas]:  # fmt: skip
    """Two replicas on a wiped graph, with a key for ``space`` and ``scope`` (the header) and
    ``settings`` over the replicas' own (``space_max_turns``, …); both stopped on the way out
    (``stop_api`` leaves one stopped already as it is)."""
    wipe_graph(driver, server.database)
    first, second = (
        replica_settings(server, redis_url, tmp_path / name).model_copy(update=dict(settings or {}))
        for name in ("a", "b")
    )
    for name, value in as_environment(first).items():  # `eywa keys create` against Neo4j
        monkeypatch.setenv(name, value)
    made = CliRunner().invoke(app, ["keys", "create", "--space", space, "--scope", scope])
    assert made.exit_code == 0, made.output
    ports = (free_port(HOST), free_port(HOST))
    with ThreadPoolExecutor(2) as pool:
        starting = [pool.submit(start_api, s, tmp_path / f"serve-{p}.log", HOST, p) for s, p in zip((first, second), ports)]
        processes = [f.result() for f in starting]
    urls = (f"http://{HOST}:{ports[0]}", f"http://{HOST}:{ports[1]}")
    try:
        with httpx.Client(base_url=urls[0], timeout=60.0) as a, httpx.Client(base_url=urls[1], timeout=60.0) as b:
            yield Replicas(a, b, {"X-API-Key": made.stdout.strip()}, processes, urls)
    finally:
        for process in processes:
            stop_api(process)
