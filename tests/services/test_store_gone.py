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
