"""docs/service.md, ``EYWA_STAGE_MAX_ATTEMPTS``: "A job reads ``failed`` once one of its stages
failed this many times", and ``GET /v1/jobs/{id}``'s ``detail`` holds "after a failure ``error``
and ``attempts``". The job book's unit tests pass ``max_attempts`` by hand; this goes through
the setting and the HTTP route, with an extractor whose endpoint is down.

Also: "502 ``upstream_error``: an extractor or embedding endpoint failed", for a write that
waits for Level 1 (``EYWA_LEVEL1_WAIT=true``), whose turns stay stored (Level 0 committed
first, the Level 1 mark kept for the reconciler), so a retry of the batch stores nothing twice.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from eywa import Memory
from eywa.errors import ExtractorError
from eywa.models import CandidateFact, Evidence
from eywa.settings import EywaSettings
from tests.contract.conftest import HashEmbedder
from tests.services.conftest import Service, build_service

TURN = {"text": "I work at Acme.", "speaker": "Ana", "session": "s1"}


class EndpointDown:
    """An extractor whose endpoint never answers."""

    name = "down"
    version = "1"

    def propose(self, space: str, evidence: Sequence[Evidence]) -> Iterable[CandidateFact]:
        raise ExtractorError("extractor endpoint down")


def _service(tmp_path: Path, **settings: Any) -> Iterator[tuple[Service, Memory]]:
    chosen = EywaSettings(data_dir=tmp_path, **settings)
    mem = Memory.open(tmp_path, settings=chosen, embedder=HashEmbedder(), extractor=EndpointDown())
    service = build_service(mem, tmp_path, chosen)
    try:
        yield service, mem
    finally:
        service.client.close()
        service.keys.close()
        mem.close()


@pytest.fixture
def failing_at_once(tmp_path: Path) -> Iterator[tuple[Service, Memory]]:
    yield from _service(tmp_path, stage_max_attempts=1, level1_wait=False)


@pytest.fixture
def failing_by_default(tmp_path: Path) -> Iterator[tuple[Service, Memory]]:
    yield from _service(tmp_path, level1_wait=False)


@pytest.fixture
def waiting(tmp_path: Path) -> Iterator[tuple[Service, Memory]]:
    yield from _service(tmp_path, level1_wait=True)


def _job_after_one_failure(service: Service, mem: Memory) -> dict[str, Any]:
    headers = service.headers(["jobs"])
    written = service.client.post("/v1/spaces/jobs/turns", json={"turns": [TURN]}, headers=headers)
    assert written.status_code == 201, written.text
    with contextlib.suppress(ExtractorError):  # wait() re-raises what the background thread met
        mem.wait()  # the background thread's first Level 1 attempt
    answer = service.client.get(f"/v1/jobs/{written.json()['job']['id']}", headers=headers)
    assert answer.status_code == 200, answer.text
    job: dict[str, Any] = answer.json()
    return job


def test_a_job_reads_failed_once_a_stage_failed_stage_max_attempts_times(failing_at_once: tuple[Service, Memory]) -> None:
    job = _job_after_one_failure(*failing_at_once)
    assert job["status"] == "failed", job
    assert job["detail"]["attempts"] == 1 and "extractor endpoint down" in job["detail"]["error"]
    assert job["detail"]["pending"] == 1  # the mark is kept: still retried


def test_below_the_default_of_eight_attempts_a_failing_job_is_still_pending(
    failing_by_default: tuple[Service, Memory],
) -> None:
    job = _job_after_one_failure(*failing_by_default)
    assert job["status"] == "pending" and job["detail"]["attempts"] == 1, job


def test_a_write_waiting_for_a_failing_extractor_is_a_502_and_its_turns_stay_stored(
    waiting: tuple[Service, Memory],
) -> None:
    service, mem = waiting
    headers = service.headers(["jobs"])
    refused = service.client.post("/v1/spaces/jobs/turns", json={"turns": [TURN]}, headers=headers)
    assert refused.status_code == 502 and refused.json()["code"] == "upstream_error", refused.text
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert mem.stats("jobs")["evidence"] == 1
    again = service.client.post("/v1/spaces/jobs/turns", json={"turns": [TURN]}, headers=headers)
    assert again.status_code == 502 and mem.stats("jobs")["evidence"] == 1  # the retry stored nothing twice
    with pytest.raises(ExtractorError):  # in-process, the same failure is the extractor's error
        mem.remember("jobs", [TURN])
    assert mem.stats("jobs")["evidence"] == 1 and mem.pending("jobs").level1 == 1
