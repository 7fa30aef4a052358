"""The ``memory`` fixture, parametrised over backends. Tests here state the contract that
every backend must keep; they never ask which backend they run on.

``embedded`` opens ``Memory.open`` in a temporary directory. ``server`` (marked ``neo4j``)
opens ``Memory.connect`` on the shared Neo4j test server with vectors in qdrant-client's
local mode under the test's temporary directory. The contract tests use literal space names
("ana", "home"), so each server-variant test starts from an empty graph: everything but the
migration ledger is deleted first (Neo4j tests never run in parallel).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from neo4j import Driver
from pydantic import SecretStr

from eywa import Memory
from eywa.embedding import Embedder
from eywa.embedding.minilm import MiniLMEmbedder
from eywa.extraction.base import Extractor
from eywa.settings import EywaSettings
from eywa.stores.bundle import Stores
from eywa.stores.embedded.factory import open_embedded
from eywa.stores.neo4j.labels import Label
from eywa.stores.server import open_server
from tests.suite_threads import SUITE_EMBED_THREADS
from tests.neo4j_server import Neo4jServer

MemoryFactory = Callable[..., Memory]
STORE_DIM = 8
BACKENDS = ["embedded", pytest.param("server", marks=pytest.mark.neo4j)]

_WIPE = f"MATCH (n) WHERE NOT n:{Label.SCHEMA_MIGRATION} DETACH DELETE n"


def wipe_graph(driver: Driver, database: str) -> None:
    """Delete every node except the migration ledger (the schema itself stays)."""
    driver.execute_query(_WIPE, database_=database)


def server_settings(request: pytest.FixtureRequest, tmp_path: Path) -> EywaSettings:
    """Settings for ``Memory.connect`` against the test server, on an emptied graph."""
    server: Neo4jServer = request.getfixturevalue("neo4j_server")
    driver: Driver = request.getfixturevalue("neo4j_driver")
    wipe_graph(driver, server.database)
    return EywaSettings(
        data_dir=tmp_path / "data",
        neo4j_uri=server.uri,
        neo4j_user=server.user,
        neo4j_password=SecretStr(server.password),
        neo4j_database=server.database,
        qdrant_path=tmp_path / "qdrant",
    )


def replica_settings(settings: EywaSettings, tmp_path: Path, name: str) -> EywaSettings:
    """Settings for another replica over the same Neo4j as ``settings``: the graph is what
    replicas share, while each keeps its own qdrant-client local-mode folder
    (``qdrant-<name>``), since such a folder is one client's and refuses a second."""
    return settings.model_copy(update={"qdrant_path": tmp_path / f"qdrant-{name}"})


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    """The real offline model, loaded once per test session."""
    return MiniLMEmbedder(threads=SUITE_EMBED_THREADS)


@pytest.fixture(params=BACKENDS)
def open_memory(request: pytest.FixtureRequest, tmp_path: Path, embedder: Embedder) -> Iterator[MemoryFactory]:
    """Opens (and reopens) a Memory on one backend; closes whatever it opened."""
    opened: list[Memory] = []
    settings = server_settings(request, tmp_path) if request.param == "server" else None

    def factory(extractor: Extractor | None = None, **overrides: Any) -> Memory:
        """A Memory of the test's backend; ``overrides`` are ``EywaSettings`` fields (limits)."""
        if settings is not None:
            mem = Memory.connect(settings.model_copy(update=overrides), embedder=embedder, extractor=extractor)
        elif overrides:
            path = tmp_path / "mem"
            mem = Memory.open(path, settings=EywaSettings(data_dir=path, **overrides), embedder=embedder, extractor=extractor)
        else:
            mem = Memory.open(tmp_path / "mem", embedder=embedder, extractor=extractor)
        opened.append(mem)
        return mem

    yield factory
    for mem in opened:
        mem.close()


@pytest.fixture
def memory(open_memory: MemoryFactory) -> Memory:
    return open_memory()


@pytest.fixture(params=BACKENDS)
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Stores]:
    """The raw store bundle of one backend (vectors of width 8), closed afterwards."""
    if request.param == "server":
        bundle = open_server(server_settings(request, tmp_path), STORE_DIM)
    else:
        bundle = open_embedded(tmp_path / "embedded", STORE_DIM)
    yield bundle
    bundle.close()
