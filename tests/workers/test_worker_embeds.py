"""The Celery workers embed when they share the vector store: the API process then embeds
queries only. ``POST /turns`` goes through the real app with a Celery job runner on a real
Redis; the job's task then runs in this process (``apply``) on the same store objects, standing
for a worker on a shared vector store (a Qdrant server, which these machines cannot run).
Nothing is timed."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
import redis
from fastapi.testclient import TestClient

from eywa.embedding import embedder_id
from eywa.memory import Memory
from eywa.runtime import vectors_shared, workers_embed
from eywa.settings import EywaSettings
from eywa.stores.bundle import Stores
from eywa.stores.embedded.factory import open_embedded
from eywa.stores.embedded.keys import SqliteKeyStore
from services.api.app import create_app
from services.queue import celery_job_runner
from tests.workers.conftest import broker  # noqa: F401  (fixture)
from workers import tasks
from workers.locks import CLAIM_KEY

pytestmark = pytest.mark.redis

SPACE = "shared"
TURNS = [
    {"text": "I work at Google now.", "speaker": "Cecilia", "observed_at": "2023-05-01T10:00:00Z"},
    {"text": "I live in Boston.", "speaker": "Cecilia", "observed_at": "2023-05-01T10:01:00Z"},
]
QUERY = "Where does Cecilia work?"
QUERY_WITHOUT_NAMES = "Where does work?"


class CountingEmbedder:
    """A deterministic embedder that records every text it was asked to embed."""

    model_id = "counting"
    dim = 16

    def __init__(self) -> None:
        self.texts: list[str] = []

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.texts.extend(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in text.casefold().split():
                out[row, sum(map(ord, word)) % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        out /= np.where(norms == 0, 1.0, norms)  # in place: the rows stay float32
        return out


@pytest.fixture
def stores(tmp_path: Path) -> Iterator[Stores]:
    opened = open_embedded(tmp_path / "mem", CountingEmbedder.dim, embedder_id(CountingEmbedder()))
    yield opened
    opened.close()


def test_vectors_are_shared_only_with_a_qdrant_server() -> None:
    assert not vectors_shared(EywaSettings())  # embedded: Qdrant Edge in the API process
    assert not vectors_shared(EywaSettings(neo4j_uri="bolt://h:7687"))  # qdrant-client local mode
    served = EywaSettings(neo4j_uri="bolt://h:7687", qdrant_url="http://q:6333")
    assert vectors_shared(served) and not workers_embed(served)
    assert workers_embed(served.model_copy(update={"job_runner": "celery"}))


def test_in_celery_mode_the_worker_embeds_and_the_api_embeds_only_queries(
    tmp_path: Path, broker: str, stores: Stores, monkeypatch: pytest.MonkeyPatch  # noqa: F811
) -> None:
    settings = EywaSettings(data_dir=tmp_path / "mem", redis_url=broker, job_runner="celery", rate_limit_per_minute=0)
    api_embedder, worker_embedder = CountingEmbedder(), CountingEmbedder()
    memory = Memory(stores, api_embedder, settings, extractor=None, embed_writes=False)
    keys = SqliteKeyStore(tmp_path / "keys.sqlite")
    _, secret = keys.create([SPACE], ["read", "write"])
    app = create_app(memory, settings, keys, celery_job_runner(settings, memory))
    headers = {"Authorization": f"Bearer {secret}"}
    try:
        with TestClient(app) as client:
            posted = client.post(f"/v1/spaces/{SPACE}/turns", json={"turns": TURNS}, headers=headers)
            assert posted.status_code == 201, posted.text
            ids, job_id = posted.json()["ids"], posted.json()["job"]["id"]
            assert api_embedder.texts == []  # Level 0 only: no turn embedded by the API

            before = client.post(f"/v1/spaces/{SPACE}/recall", json={"query": QUERY}, headers=headers).json()
            assert before["trace"]["pending"] == {"embed": 2, "level1": 2}
            assert ids[0] in [item["id"] for item in before["items"]]  # by keyword already
            assert not before["trace"]["routes"].get("vector")  # no vector yet
            # The query, as asked and without the person it names (the person route's), nothing else.
            assert api_embedder.texts == [QUERY, QUERY_WITHOUT_NAMES]

            worker = redis.Redis.from_url(broker)
            monkeypatch.setenv("EYWA_REDIS_URL", broker)  # the workers' app reads its config from it
            monkeypatch.setattr(tasks, "worker_settings", lambda: settings)
            monkeypatch.setattr(tasks, "worker_stores", lambda: stores)
            monkeypatch.setattr(tasks, "worker_embedding", lambda: (stores, worker_embedder))
            monkeypatch.setattr(tasks, "worker_redis", lambda: worker)
            # A delivery of the message while another one holds its claim waits for it.
            claimed = worker.lock(CLAIM_KEY.format(job_id), timeout=60)
            assert claimed.acquire()
            outcomes: list[dict[str, Any]] = []  # what extract_and_validate returns
            waiting = threading.Thread(target=lambda: outcomes.append(
                tasks.extract_and_validate.apply(args=[SPACE, ids], task_id=job_id).get()
            ))  # fmt: skip
            waiting.start()
            waiting.join(timeout=0.5)
            assert waiting.is_alive() and worker_embedder.texts == [] and memory.pending(SPACE).embed == 2
            claimed.release()
            waiting.join(timeout=60)
            first = outcomes[0]
            assert first["embedded"] >= 2 and first["accepted"] >= 1
            assert any("Google" in text for text in worker_embedder.texts)
            # A duplicate of the message (redelivered past the visibility timeout) finds the
            # work done and answers the first run's counts, not zeros.
            assert tasks.extract_and_validate.apply(args=[SPACE, ids], task_id=job_id).get() == first
            worker.close()

            after = client.post(f"/v1/spaces/{SPACE}/recall", json={"query": QUERY}, headers=headers).json()
            assert after["trace"]["pending"] == {"embed": 0, "level1": 0}
            hits = after["trace"]["routes"]["vector"]
            assert {h["id"] for h in hits if h["kind"] == "evidence"} == set(ids)
            beliefs = {b.id for b in memory.beliefs(SPACE)}
            assert beliefs and {h["id"] for h in hits if h["kind"] == "belief"} == beliefs
            assert client.get(f"/v1/jobs/{job_id}", headers=headers).json()["status"] == "done"
            assert api_embedder.texts == [QUERY, QUERY_WITHOUT_NAMES] * 2
    finally:
        keys.close()
        memory.close()


def test_beat_reconciliations_that_piled_up_behind_a_queue_return_at_once(
    broker: str, stores: Stores, monkeypatch: pytest.MonkeyPatch  # noqa: F811
) -> None:
    client = redis.Redis.from_url(broker)
    monkeypatch.setenv("EYWA_REDIS_URL", broker)
    monkeypatch.setattr(tasks, "worker_settings", lambda: EywaSettings(redis_url=broker))
    monkeypatch.setattr(tasks, "worker_stores", lambda: stores)
    monkeypatch.setattr(tasks, "worker_embedding", lambda: None)
    monkeypatch.setattr(tasks, "worker_redis", lambda: client)
    try:
        assert "skipped" not in tasks.reconcile.run(skip_within_s=60.0)
        assert tasks.reconcile.run(skip_within_s=60.0)["skipped"] is True  # a copy sent while the first waited
        assert "skipped" not in tasks.reconcile.run()  # asked for directly (a worker starting): always runs
    finally:
        client.close()
