"""The server-mode write path over real HTTP: the API (``build_app`` with
``EYWA_JOB_RUNNER=celery``) stores turns, a real Celery worker on a real Redis runs Level 1
and the Nous update on the same embedded store, and the API then serves what the worker
derived, with the new beliefs embedded for vector recall by its periodic reconciliation (the
embedded vector store belongs to the API process, so the worker cannot embed them)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from eywa.errors import ConfigurationError
from eywa.settings import EywaSettings
from eywa.runtime import open_key_store
from services.api.app import build_app, serve_in_thread
from tests.workers.conftest import WorkerFactory, broker, start_worker, wait_for  # noqa: F401  (fixtures)

pytestmark = pytest.mark.redis

SPACE = "home"
JOB_TIMEOUT = 90.0
TURNS = [
    {"text": "I live in Paris.", "speaker": "Cecilia", "session": "s1", "observed_at": "2023-01-05T10:00:00Z",
     "external_id": "t1"},
    {"text": "I work at Google now.", "speaker": "Cecilia", "session": "s2", "observed_at": "2023-02-05T10:00:00Z",
     "external_id": "t2"},
    {"text": "I live in Lyon.", "speaker": "Cecilia", "session": "s3", "observed_at": "2023-05-05T10:00:00Z",
     "external_id": "t3"},
]


@pytest.fixture
def api(tmp_path: Path, broker: str) -> Iterator[tuple[httpx.Client, Path]]:  # noqa: F811
    """``eywa serve``'s app in celery mode on a free local port, with a read+write key."""
    data = tmp_path / "mem"
    settings = EywaSettings(
        data_dir=data, redis_url=broker, job_runner="celery", rate_limit_per_minute=0, reconcile_interval_s=0.5
    )
    keys = open_key_store(settings)
    _, secret = keys.create([SPACE], ["read", "write"])
    keys.close()
    app = build_app(settings)
    with serve_in_thread(app) as url, httpx.Client(
        base_url=f"{url}/v1/spaces/{SPACE}", headers={"Authorization": f"Bearer {secret}"}, timeout=30.0
    ) as client:
        yield client, data


def job_state(client: httpx.Client, job_id: str) -> dict[str, Any]:
    response = client.get(client.base_url.copy_with(path=f"/v1/jobs/{job_id}"))
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def test_turns_posted_over_http_are_derived_by_the_worker_and_served_by_the_api(
    api: tuple[httpx.Client, Path], start_worker: WorkerFactory  # noqa: F811
) -> None:
    client, data = api
    posted = client.post("/turns", json={"turns": TURNS})
    assert posted.status_code == 201, posted.text
    body = posted.json()
    assert len(body["ids"]) == 3 and body["job"]["status"] == "pending"
    # No worker yet: the API stored the turns (Level 0) but derived nothing itself.
    assert client.get(f"/evidence/{body['ids'][1]}").json()["text"] == "I work at Google now."
    assert client.get("/beliefs").json() == []
    assert job_state(client, body["job"]["id"])["status"] == "pending"

    start_worker(data)
    wait_for(lambda: job_state(client, body["job"]["id"])["status"] in {"done", "failed"}, JOB_TIMEOUT, "the job")
    job = job_state(client, body["job"]["id"])
    assert job["status"] == "done", job
    assert job["detail"]["space"] == SPACE and job["detail"]["accepted"] == 3

    beliefs = client.get("/beliefs", params={"status": "any"}).json()
    assert {(b["attribute"], b["value"]) for b in beliefs} >= {("employer", "Google"), ("residence", "Lyon")}
    assert all(set(b["evidence_ids"]) <= set(body["ids"]) for b in beliefs)
    dims = {d["attribute"]: d for d in client.get("/entities/Cecilia/dimensions").json()}
    assert dims["residence"]["mode"].casefold() == "lyon"
    assert dims["employer"]["mode"].casefold() == "google"
    assert max(dims["residence"]["distribution"].values()) > 0.5
    deltas = client.get("/entities/Cecilia/dimensions/residence/deltas").json()
    assert len(deltas) == 2

    # The worker wrote no vectors; the API's periodic reconciliation embeds the beliefs from
    # the ledger's marks (nothing is embedded because a job was read).
    belief_ids = {b["id"] for b in beliefs}

    def vector_hits() -> set[str]:
        recalled = client.post("/recall", json={"query": "Where does Cecilia work?", "k": 5}).json()
        return {hit["id"] for hit in recalled["trace"]["routes"]["vector"] if hit["kind"] == "belief"}

    wait_for(lambda: vector_hits() == belief_ids, 30.0, "the beliefs' vectors")


def test_celery_runner_without_redis_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="EYWA_REDIS_URL"):
        build_app(EywaSettings(data_dir=tmp_path, job_runner="celery"))
