"""Real Celery workers on a real Redis: jobs finish, crashes lose nothing, order holds."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import redis

from eywa.ids import entity_key
from eywa.stores.embedded.factory import open_embedded_graph
from tests.workers.conftest import SPACE, TURNS, WorkerFactory, kill_group, wait_for, write_turns
from workers.locks import CLAIM_KEY, dimension_lock, task_claim
from services.queue import CeleryJobRunner

pytestmark = pytest.mark.redis

JOB_TIMEOUT = 60.0


def snapshot(directory: Path) -> dict[str, object]:
    """What Level 1 and Nous left in the store, in a comparable form."""
    stores = open_embedded_graph(directory)
    try:
        beliefs = stores.beliefs.beliefs(SPACE, status=None)
        dims = stores.dimensions.dimensions(SPACE)
        deltas = {
            (d.entity_key, d.attribute): [
                (x.id, x.at, round(x.surprise_bits, 9), sorted(x.posterior.items()) if isinstance(x.posterior, dict) else x.posterior)
                for x in stores.dimensions.deltas(SPACE, d.entity_key, d.attribute)
            ]
            for d in dims
        }
        return {
            "beliefs": sorted((b.id, b.status) for b in beliefs),
            "dimensions": sorted((d.entity_key, d.attribute, (d.mode or "").casefold(), round(d.entropy_bits, 9))
                                 for d in dims),
            "deltas": deltas,
        }
    finally:
        stores.close()


def wait_done(runner: CeleryJobRunner, job_id: str, timeout: float = JOB_TIMEOUT) -> dict[str, object]:
    wait_for(lambda: runner.status(job_id).status in {"done", "failed"}, timeout, f"job {job_id}")
    status = runner.status(job_id)
    assert status.status == "done", status.detail
    return status.detail


def test_a_job_makes_beliefs_and_dimensions_visible(
    tmp_path: Path, runner: CeleryJobRunner, start_worker: WorkerFactory
) -> None:
    data = tmp_path / "mem"
    ids = write_turns(data, TURNS)
    assert snapshot(data)["beliefs"] == []
    start_worker(data)
    job = runner.submit(SPACE, ids)
    assert runner.status(job).detail["space"] == SPACE
    detail = wait_done(runner, job)
    after = snapshot(data)
    assert detail["accepted"] == len(after["beliefs"]) >= 4  # type: ignore[arg-type]
    modes = {(k, a): m for k, a, m, _ in after["dimensions"]}  # type: ignore[attr-defined]
    assert modes[("cecilia", "residence")] == "berlin"
    assert modes[("cecilia", "employer")] == "google"
    assert len(after["deltas"][("cecilia", "residence")]) == 3  # type: ignore[index]
    again = runner.submit(SPACE, ids)
    assert runner.status(again).status in {"done", "running"}  # the ledger: nothing left to do
    wait_for(lambda: "deltas" in runner.status(again).detail, JOB_TIMEOUT, "the second task's counts")
    assert wait_done(runner, again)["deltas"] == 0
    assert snapshot(data) == after


def test_a_worker_killed_mid_task_is_redelivered_and_nothing_is_lost_or_duplicated(
    tmp_path: Path, runner: CeleryJobRunner, start_worker: WorkerFactory
) -> None:
    reference, data = tmp_path / "reference", tmp_path / "mem"
    write_turns(reference, TURNS, extractor="rules")
    ids = write_turns(data, TURNS)
    doomed = start_worker(data, app="tests.workers.slow_worker", concurrency=1, EYWA_TEST_STALL_S="120")
    job = runner.submit(SPACE, ids)
    wait_for(lambda: len(snapshot(data)["beliefs"]) >= 4, JOB_TIMEOUT, "beliefs written by the doomed worker")  # type: ignore[arg-type]
    assert runner.status(job).status == "running"
    assert snapshot(data)["deltas"] == {}
    kill_group(doomed)  # SIGKILL: no ack was sent
    start_worker(data)
    wait_done(runner, job)
    assert snapshot(data) == snapshot(reference)


def test_out_of_order_jobs_on_two_slots_equal_in_order_application(
    tmp_path: Path, runner: CeleryJobRunner, start_worker: WorkerFactory
) -> None:
    reference, data = tmp_path / "reference", tmp_path / "mem"
    write_turns(reference, TURNS, extractor="rules")
    ids = write_turns(data, TURNS)
    start_worker(data, concurrency=2)
    jobs = [runner.submit(SPACE, [i]) for i in reversed(ids)]
    for job in jobs:
        wait_done(runner, job)
    assert snapshot(data) == snapshot(reference)


def test_a_held_dimension_lock_holds_back_the_update(
    tmp_path: Path, runner: CeleryJobRunner, start_worker: WorkerFactory, broker: str
) -> None:
    data = tmp_path / "mem"
    ids = write_turns(data, TURNS[:1])
    client = redis.Redis.from_url(broker)
    with dimension_lock(client, (SPACE, entity_key("Cecilia"), "residence"), lease_s=30, wait_s=1):
        start_worker(data)
        job = runner.submit(SPACE, ids)
        wait_for(lambda: len(snapshot(data)["beliefs"]) == 1, JOB_TIMEOUT, "the belief")  # type: ignore[arg-type]
        wait_for(lambda: runner.status(job).status == "running", JOB_TIMEOUT, "the job to start")
        assert snapshot(data)["deltas"] == {}
    wait_done(runner, job)
    assert len(snapshot(data)["deltas"][("cecilia", "residence")]) == 1  # type: ignore[index]
    client.close()


def test_a_task_claim_is_renewed_while_its_task_runs_past_the_lease(broker: str) -> None:
    """A second delivery of a task id must not take the claim while the first one runs, however
    long: the claim is renewed every third of its lease by another thread."""
    client = redis.Redis.from_url(broker)
    try:
        with task_claim(client, "job-long", lease_s=0.6) as held:
            assert held
            time.sleep(1.5)  # two and a half leases
            assert client.pttl(CLAIM_KEY.format("job-long")) > 0  # still held: renewed
            second = client.lock(CLAIM_KEY.format("job-long"), timeout=5, blocking_timeout=0)
            assert not second.acquire()
        assert not client.exists(CLAIM_KEY.format("job-long"))  # released at the end
    finally:
        client.close()
