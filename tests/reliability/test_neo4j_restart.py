"""Neo4j killed and restarted during ingest over HTTP (server mode): every acknowledged turn
survives, with the stages it still owes (the API leaves Level 1 to workers here, so the
marks must be there for them), and what was sent while Neo4j was down was refused cleanly
(503 ``store_unavailable``, never a 500), then accepted when the client sent it again.

A Neo4j the reliability tests may restart (``restartable_neo4j``: ``ops/neo4j/neo4j-test-server
--run-dir D start``, ``kill``, ``resume``), so that the session's shared server is never
restarted under other tests.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import httpx
import pytest
from pydantic import SecretStr

from eywa.errors import StoreError
from eywa.memory import Memory
from eywa.settings import EywaSettings
from eywa.stores.embedded.keys import SqliteKeyStore
from eywa.stores.server import open_server_graph
from services.api.app import create_app, serve_in_thread
from tests.reliability.neo4j_process import launcher
from tests.reliability.support import HashEmbedder, corpus

pytestmark = pytest.mark.neo4j

SPACE = "restart"
BATCHES = 6


def test_acknowledged_turns_survive_a_neo4j_restart_and_the_rest_is_refused_cleanly(
    tmp_path: Path, restartable_neo4j: tuple[Path, str]
) -> None:
    run_dir, uri = restartable_neo4j
    settings = EywaSettings(data_dir=tmp_path / "data", neo4j_uri=uri, neo4j_password=SecretStr("x"),
                            qdrant_path=tmp_path / "qdrant", rate_limit_per_minute=0, extractor="none")  # fmt: skip
    turns = corpus(BATCHES * 2, seed=17)
    keys = SqliteKeyStore(tmp_path / "keys.sqlite")
    _, secret = keys.create([SPACE], ["read", "write"])
    acknowledged: dict[int, list[str]] = {}
    jobs: list[str] = []
    statuses: list[int] = []
    bodies: list[dict[str, object]] = []
    with Memory.connect(settings, embedder=HashEmbedder()) as mem, serve_in_thread(
        create_app(mem, settings, keys)
    ) as url:
        client = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {secret}"}, timeout=120.0)

        def write() -> None:
            for n in range(BATCHES):
                deadline = time.monotonic() + 180
                while n not in acknowledged and time.monotonic() < deadline:
                    response = client.post(f"/v1/spaces/{SPACE}/turns", json={"turns": turns[2 * n : 2 * n + 2]})
                    statuses.append(response.status_code)
                    if response.status_code == 201:
                        acknowledged[n] = response.json()["ids"]
                        jobs.append(response.json()["job"]["id"])
                    else:
                        bodies.append(response.json())
                        time.sleep(0.5)  # a client backing off before sending the same batch again

        writer = threading.Thread(target=write)
        writer.start()
        while len(acknowledged) < 2:
            time.sleep(0.05)
        launcher(run_dir, "kill")
        with pytest.raises(StoreError):  # down: a clear StoreError, not a driver exception
            open_server_graph(settings)
        launcher(run_dir, "resume")
        writer.join(timeout=400)
        assert not writer.is_alive()
        mem.reconcile()
        assert set(statuses) <= {201, 503}, statuses
        assert all(b.get("code") == "store_unavailable" for b in bodies), bodies
        assert sorted(acknowledged) == list(range(BATCHES))
        ids = [i for n in sorted(acknowledged) for i in acknowledged[n]]
        stored = mem._stores.evidence.get(SPACE, ids)
        assert [e.id for e in stored] == ids and [e.text for e in stored] == [t["text"] for t in turns]
        assert mem.stats(SPACE)["evidence"] == len(ids)  # nothing stored twice
        owed = {(m.item_id, m.stage) for m in mem._stores.ledger.pending_for(SPACE, ids)}
        assert owed == {(i, s) for i in ids for s in ("level1", "nous")}  # vectors done, Level 1 owed
        assert all(mem.job(job).status == "pending" for job in jobs)
        client.close()
    keys.close()
