"""The API's side of reliability: ``/readyz`` says whether Redis keeps its data and how far
Level 1 is behind, ``/metrics`` exports the backlog, writes are refused with 503 and
``Retry-After`` while the backlog is over ``EYWA_MAX_BACKLOG`` (nothing written), an erased
turn sent again is refused with 410, and a job id answers from the store after a restart."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from eywa.batches import evidence_id
from eywa.memory import Memory
from eywa.models import Turn
from eywa.settings import EywaSettings
from tests.reliability.redis_process import RedisProcess
from tests.reliability.support import HashEmbedder
from tests.services.conftest import Service, build_service

TURNS = [
    {"text": "I live in Lyon.", "speaker": "Ana", "external_id": "m-1"},
    {"text": "I work at Acme.", "speaker": "Ana", "external_id": "m-2"},
    {"text": "I adopted a cat.", "speaker": "Ana", "external_id": "m-3"},
]


@pytest.fixture
def queued(tmp_path: Path) -> Iterator[Memory]:
    """A memory that leaves Level 1 to someone else (no extractor), bounded at 2 turns."""
    directory = tmp_path / "queued"
    settings = EywaSettings(data_dir=directory, extractor="none", max_backlog=2, backlog_retry_after_s=7)
    mem = Memory.open(directory, settings=settings, embedder=HashEmbedder())
    yield mem
    mem.close()


def test_writes_over_the_backlog_bound_get_503_with_retry_after_and_write_nothing(
    queued: Memory, tmp_path: Path
) -> None:
    svc = build_service(queued, tmp_path)
    headers = svc.headers(["q"])
    first = svc.client.post("/v1/spaces/q/turns", json={"turns": TURNS}, headers=headers)
    assert first.status_code == 201 and first.json()["job"]["status"] == "pending"
    assert queued.backlog()["level1_backlog"] == 3
    refused = svc.client.post("/v1/spaces/q/turns", json={"turns": [{"text": "One more.", "speaker": "Ana"}]},
                              headers=headers)  # fmt: skip
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "7"
    assert refused.json()["code"] == "overloaded" and "backlog of 3" in refused.json()["detail"]
    assert queued.stats("q")["evidence"] == 3
    ready = svc.client.get("/readyz").json()
    assert ready["level1_backlog"] == 3 and ready["backlog"]["level1"] == 3 and ready["backlog"]["nous"] == 3
    metrics = svc.client.get("/metrics").text
    assert "eywa_level1_backlog 3.0" in metrics and 'eywa_stage_backlog{stage="level1"} 3.0' in metrics
    svc.client.close()
    svc.keys.close()


def test_an_erased_turn_sent_again_is_refused_with_410(service: Service, memory: Memory) -> None:
    headers = service.headers(["gone"])
    turn = {"text": "My passport number is X1234.", "speaker": "Ana", "external_id": "m-erased"}
    doomed = evidence_id("gone", Turn.model_validate(turn), 0)
    memory._stores.tombstones.add_tombstones("gone", [doomed], datetime.now(UTC))
    refused = service.client.post("/v1/spaces/gone/turns", json={"turns": [turn]}, headers=headers)
    assert refused.status_code == 410, refused.text
    assert refused.json()["code"] == "erased" and doomed in refused.json()["detail"]
    assert memory.stats("gone")["evidence"] == 0


def test_a_job_answers_from_the_store_after_the_api_restarts(memory: Memory, tmp_path: Path) -> None:
    first = build_service(memory, tmp_path / "a")
    headers = first.headers(["jobs"])
    posted = first.client.post("/v1/spaces/jobs/turns", json={"turns": TURNS}, headers=headers).json()
    first.client.close()
    first.keys.close()
    second = build_service(memory, tmp_path / "b")  # another process (a replica, a restart)
    status = second.client.get(f"/v1/jobs/{posted['job']['id']}", headers=second.headers(["jobs"]))
    assert status.status_code == 200 and status.json()["status"] == "done"
    assert status.json()["detail"]["space"] == "jobs" and status.json()["detail"]["evidence"] == 3
    assert status.json()["detail"]["author"] == posted["author"]
    second.client.close()
    second.keys.close()


@pytest.mark.parametrize("persistent", [False, True], ids=["no-persistence", "appendonly"])
def test_readyz_says_whether_redis_keeps_its_data(memory: Memory, tmp_path: Path, persistent: bool) -> None:
    server = RedisProcess(tmp_path / "redis", persistent=persistent).start()
    try:
        svc = build_service(memory, tmp_path, EywaSettings(data_dir=tmp_path, redis_url=server.url,
                                                           rate_limit_per_minute=0))  # fmt: skip
        ready = svc.client.get("/readyz").json()
        assert ready["redis"]["reachable"] is True
        assert ready["redis"]["persistent"] is persistent and ready["redis"]["appendonly"] is persistent
        assert ready["level1_backlog"] == 0
        server.kill()
        assert svc.client.get("/readyz").json()["redis"] == {"reachable": False, "persistent": None}
        svc.client.close()
        svc.keys.close()
    finally:
        server.close()
