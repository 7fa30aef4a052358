"""Degrade, don't fail: with the vector store unreachable, recall answers from the other
routes and its trace says which route was skipped and why; only when no route can answer
does it raise.

The failure is real: the memory's vectors live in Qdrant through qdrant-client (local
mode, as the server-backend tests run it), and the client is shut under the running
memory, so every search fails inside qdrant-client and is mapped at the store boundary.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import get_args

import pytest
from fastapi.testclient import TestClient
from qdrant_client import QdrantClient

from eywa.errors import StoreError
from eywa.memory import Memory
from eywa.models import RouteName
from eywa.settings import EywaSettings
from eywa.stores.embedded.factory import open_embedded
from eywa.stores.embedded.keys import SqliteKeyStore
from eywa.stores.qdrant.vectors import QdrantServerVectorStore
from services.api.app import create_app
from tests.contract.conftest import HashEmbedder

TURNS = [
    {"text": "I work at Acme as a data engineer.", "speaker": "Ana", "observed_at": "2024-03-02T10:00:00Z"},
    {"text": "We adopted a puppy named Pickle.", "speaker": "Ana", "observed_at": "2024-04-02T10:00:00Z"},
]


@dataclasses.dataclass
class Degradable:
    memory: Memory
    qdrant: QdrantClient


def _memory(directory: Path, settings: EywaSettings) -> Degradable:
    embedder = HashEmbedder()
    stores = open_embedded(directory, embedder.dim)
    qdrant = QdrantClient(path=str(directory / "qdrant"))
    stores = dataclasses.replace(stores, vectors=QdrantServerVectorStore(qdrant, embedder.dim))
    return Degradable(Memory(stores, embedder, settings), qdrant)


@pytest.fixture
def degradable(tmp_path: Path) -> Iterator[Degradable]:
    built = _memory(tmp_path / "m", EywaSettings(data_dir=tmp_path / "m"))
    built.memory.remember("home", TURNS)
    yield built
    built.memory.close()
    built.qdrant.close()


def test_recall_skips_an_unreachable_vector_store_and_says_so(degradable: Degradable) -> None:
    healthy = degradable.memory.recall("home", "Where does Ana work?")
    assert healthy.trace["skipped"] == {} and "vector" in healthy.trace["routes"]
    degradable.qdrant.close()  # Qdrant goes away under the running memory
    degraded = degradable.memory.recall("home", "Where does Ana work?")
    # Both routes searching the vector store are skipped: the vector route and the person route.
    assert set(degraded.trace["skipped"]) == {"vector", "person"}
    assert all(reason.startswith("qdrant store failed during search") for reason in degraded.trace["skipped"].values())
    assert not {"vector", "person"} & set(degraded.trace["routes"]) and "keyword" in degraded.trace["routes"]
    assert "Acme" in degraded.context


def test_recall_raises_when_no_route_could_answer(tmp_path: Path) -> None:
    others = [route for route in get_args(RouteName) if route != "vector"]  # every route but the failing one
    settings = EywaSettings(data_dir=tmp_path, disabled_stages=others)
    built = _memory(tmp_path / "m", settings)
    try:
        built.memory.remember("home", TURNS)
        built.qdrant.close()
        with pytest.raises(StoreError, match="qdrant store failed during search"):
            built.memory.recall("home", "Where does Ana work?")
    finally:
        built.memory.close()


def test_the_api_answers_a_degraded_recall_and_counts_the_skip(degradable: Degradable, tmp_path: Path) -> None:
    keys = SqliteKeyStore(tmp_path / "keys.sqlite")
    client = TestClient(create_app(degradable.memory, EywaSettings(data_dir=tmp_path), keys))
    headers = {"Authorization": f"Bearer {keys.create(['home'], ['read'])[1]}"}
    degradable.qdrant.close()
    answer = client.post("/v1/spaces/home/recall", json={"query": "Where does Ana work?"}, headers=headers)
    assert answer.status_code == 200 and "vector" in answer.json()["trace"]["skipped"]
    assert 'eywa_recall_routes_skipped_total{route="vector"} 1.0' in client.get("/metrics").text
    client.close()
    keys.close()
