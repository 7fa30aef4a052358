"""The embedded data directory deleted under a running server (README "What survives a crash").

Before, nothing noticed: a write was acknowledged (201) into files no path led to any more,
lost at the next restart; recall answered from them and ``/readyz`` said ready. Now every
call through the memory is refused with a 503 problem+json (``store_unavailable``) naming
what happened, ``/readyz`` is 503 saying the store is gone, and ``/healthz`` (liveness: the
process is up) stays 200. The Python API raises the same ``StoreError``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from eywa.errors import StoreError
from eywa.memory import Memory
from eywa.settings import EywaSettings
from tests.reliability.support import HashEmbedder
from tests.services.conftest import build_service

TURN = {"text": "I live in Lyon.", "speaker": "Ana"}


def test_a_deleted_data_directory_is_refused_clearly_on_every_call(tmp_path: Path) -> None:
    directory = tmp_path / "mem"
    settings = EywaSettings(data_dir=directory, rate_limit_per_minute=0)
    memory = Memory.open(directory, settings=settings, embedder=HashEmbedder())
    svc = build_service(memory, tmp_path / "api", settings)
    try:
        headers = svc.headers(["gone"])
        assert svc.client.post("/v1/spaces/gone/turns", json={"turns": [TURN]}, headers=headers).status_code == 201
        assert svc.client.get("/readyz").status_code == 200

        shutil.rmtree(directory)

        write = svc.client.post("/v1/spaces/gone/turns", json={"turns": [{**TURN, "text": "I live in Oslo."}]},
                                headers=headers)  # fmt: skip
        assert write.status_code == 503 and write.headers["content-type"] == "application/problem+json"
        assert write.json()["code"] == "store_unavailable" and "data directory was deleted" in write.json()["detail"]
        read = svc.client.post("/v1/spaces/gone/recall", json={"query": "Where does Ana live?"}, headers=headers)
        assert read.status_code == 503 and read.json()["code"] == "store_unavailable"
        ready = svc.client.get("/readyz")
        assert ready.status_code == 503 and "stores" in ready.json()["detail"]
        assert "data directory was deleted" in ready.json()["detail"]
        assert svc.client.get("/healthz").status_code == 200
        with pytest.raises(StoreError, match="data directory was deleted"):
            memory.remember("gone", [TURN])
        assert not directory.exists()  # nothing was written back under the path
    finally:
        svc.client.close()
        svc.keys.close()
        memory.close()


@pytest.mark.parametrize("lost", ["vectors", "vectors/evidence"])
def test_a_deleted_vector_store_is_refused_clearly_and_a_restart_rebuilds_it(tmp_path: Path, lost: str) -> None:
    """``vectors/`` (or one shard of it) deleted under the server: before, nothing noticed
    until the next open — a write was acknowledged (201) with its vector in unlinked files,
    recall answered from them and ``/readyz`` said ready. Now the next call is a 503 naming
    the shard and saying to restart; after the restart the open's count check marks what the
    lost shards held and the background embeds it again: the state of a clean run."""
    directory = tmp_path / "mem"
    settings = EywaSettings(data_dir=directory, rate_limit_per_minute=0)
    memory = Memory.open(directory, settings=settings, embedder=HashEmbedder())
    svc = build_service(memory, tmp_path / "api", settings)
    try:
        headers = svc.headers(["gone"])
        assert svc.client.post("/v1/spaces/gone/turns", json={"turns": [TURN]}, headers=headers).status_code == 201
        memory.wait()
        shutil.rmtree(directory / lost)

        write = svc.client.post("/v1/spaces/gone/turns", json={"turns": [{**TURN, "text": "I live in Oslo."}]},
                                headers=headers)  # fmt: skip
        assert write.status_code == 503 and write.json()["code"] == "store_unavailable", write.text
        assert "the vector store's evidence shard was deleted" in write.json()["detail"]
        assert "restart the process" in write.json()["detail"]
        read = svc.client.post("/v1/spaces/gone/recall", json={"query": "Where does Ana live?"}, headers=headers)
        assert read.status_code == 503 and read.json()["code"] == "store_unavailable"
        ready = svc.client.get("/readyz")
        assert ready.status_code == 503 and "vector store's evidence shard was deleted" in ready.json()["detail"]
        with pytest.raises(StoreError, match="vector store's evidence shard was deleted"):
            memory.remember("gone", [TURN])
    finally:
        svc.client.close()
        svc.keys.close()
        memory.close()  # the shards' flush into deleted files: a warning, not a raise
    with Memory.open(directory, settings=settings, embedder=HashEmbedder()) as again:
        again.wait()
        assert again.stats("gone")["evidence"] == 1 and again.pending("gone").embed == 0
        assert again._stores.vectors.count("evidence", "gone") == 1
        found = again.recall("gone", "Where does Ana live?")
        assert [item.text for item in found.items if "vector" in item.routes] == ["I live in Lyon."]
