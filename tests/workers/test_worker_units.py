"""Worker pieces without a worker process: config, repair of flags, JSON logs, job records."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from pathlib import Path

import pytest
import redis
from celery import Celery

from eywa.batches import coerce_turns, prepare_batch
from eywa.errors import ConfigurationError, NotFoundError
from eywa.models import Candidate, CandidateFact, ReasonCode, ValidationReport
from eywa.reconcile import StoreJobBook
from eywa.settings import EywaSettings
from eywa.jobs import QUEUE, celery_config
from eywa.signals import detect_signals
from eywa.stores.bundle import Stores
from eywa.stores.embedded.factory import open_embedded
from workers.logging import JsonFormatter
from eywa.level1 import repaired_fact
from services.queue import CeleryJobRunner, celery_job_runner


def test_config_acks_late_requeues_lost_tasks_and_prefetches_one() -> None:
    conf = celery_config(EywaSettings(redis_url="redis://h:1/2", celery_visibility_timeout_s=8))
    assert conf["broker_url"] == conf["result_backend"] == "redis://h:1/2"
    assert conf["task_acks_late"] and conf["task_reject_on_worker_lost"]
    assert conf["worker_prefetch_multiplier"] == 1
    assert conf["accept_content"] == ["json"]
    assert conf["broker_transport_options"]["visibility_timeout"] == 8
    assert conf["broker_transport_options"]["unacked_restore_interval"] == 2
    assert {e["task"] for e in conf["beat_schedule"].values()} == {
        "eywa.reconcile", "eywa.repair_candidates", "eywa.materialise_decay", "eywa.apply_retention"
    }  # retention (#13) joined the beat


def test_config_without_redis_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError, match="EYWA_REDIS_URL"):
        celery_config(EywaSettings())


def _candidate(reasons: tuple[ReasonCode, ...], polarity: str = "positive") -> Candidate:
    fact = CandidateFact(statement="Cecilia works at Google.", subject="Cecilia", attribute="employer",
                         value="Google", polarity=polarity, modality="asserted", evidence_ids=("e1",))  # type: ignore[arg-type]
    report = ValidationReport(accepted=False, score=0.5, checks=(), reasons=reasons)
    return Candidate(id="c1", space="s", fact=fact, status="repair", reasons=reasons, report=report,
                     extractor="rules", recorded_at=datetime(2024, 1, 1, tzinfo=UTC))


def test_repair_flips_polarity_and_marks_lost_hedges() -> None:
    fixed = repaired_fact(_candidate((ReasonCode.POLARITY_FLIP, ReasonCode.MODALITY_LOST)))
    assert fixed is not None
    assert (fixed.polarity, fixed.modality) == ("negative", "hedged")
    assert fixed.statement == "Cecilia works at Google."
    assert repaired_fact(_candidate((ReasonCode.POLARITY_FLIP,), polarity="negative")).polarity == "positive"  # type: ignore[union-attr]


def test_repair_leaves_unrepairable_candidates_alone() -> None:
    assert repaired_fact(_candidate((ReasonCode.POLARITY_FLIP, ReasonCode.UNSUPPORTED))) is None
    assert repaired_fact(_candidate(())) is None


def test_json_log_lines_carry_message_and_extras() -> None:
    record = logging.makeLogRecord({"name": "workers", "levelname": "INFO", "msg": "done %s", "args": ("x",),
                                    "space": "alice"})
    line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "done x"
    assert line["space"] == "alice"
    assert line["level"] == "info"
    assert "task_id" not in line  # outside a task


@pytest.mark.redis
def test_an_unknown_job_is_not_found_and_a_queued_one_is_pending(redis_url: str, tmp_path: Path) -> None:
    app = Celery("eywa-unit", set_as_current=False)
    app.conf.update(celery_config(EywaSettings(redis_url=redis_url)))
    client = redis.Redis.from_url(redis_url)
    stores = open_embedded(tmp_path / "mem", 8)
    book = StoreJobBook(stores, max_attempts=3)
    runner = CeleryJobRunner(app, client, book)
    try:
        assert runner.ping()
        with pytest.raises(NotFoundError):
            runner.status("job_missing")
        ids = write_level0(stores, ["I live in Paris.", "I work at Acme."])
        job = runner.submit("alice", ids, author="key_1")
        status = runner.status(job)
        assert (status.status, status.detail["space"], status.detail["evidence"]) == ("pending", "alice", 2)
        assert (status.detail["pending"], status.detail["author"]) == (2, "key_1")
        assert not CeleryJobRunner(app, redis.Redis.from_url("redis://127.0.0.1:1/0"), book).ping()
        # The record is the store's: with the broker's copy gone, the job still answers.
        client.flushdb()
        assert runner.status(job).status == "pending"
        for stage in ("level1", "nous"):
            stores.ledger.complete("alice", stage, ids)
        assert runner.status(job).status == "done"
    finally:
        stores.close()
        client.close()
        app.close()


@pytest.mark.redis
def test_the_api_runner_sends_without_subscribing_to_the_result(redis_url: str, tmp_path: Path) -> None:
    stores = open_embedded(tmp_path / "mem", 8)
    runner = celery_job_runner(EywaSettings(redis_url=redis_url), StoreJobBook(stores, max_attempts=3))
    client = redis.Redis.from_url(redis_url)
    try:
        ids = write_level0(stores, ["I live in Paris."])
        subscribed = client.info("commandstats").get("cmdstat_subscribe", {}).get("calls", 0)
        job = runner.submit("alice", ids)
        assert client.info("commandstats").get("cmdstat_subscribe", {}).get("calls", 0) == subscribed
        assert runner.status(job).status == "pending"  # states are still read from the backend
        client.set(f"celery-task-meta-{job}", json.dumps({"status": "STARTED", "result": None, "task_id": job}))
        assert runner.status(job).status == "running"
    finally:
        stores.close()
        client.close()


@pytest.mark.redis
def test_dispatch_hands_the_message_to_the_sender_and_close_delivers_it(redis_url: str, tmp_path: Path) -> None:
    stores = open_embedded(tmp_path / "mem", 8)
    book = StoreJobBook(stores, max_attempts=3)
    runner = celery_job_runner(EywaSettings(redis_url=redis_url), book)
    client = redis.Redis.from_url(redis_url)
    try:
        client.delete(QUEUE)
        ids = write_level0(stores, ["I live in Paris.", "I work at Acme."])
        jobs = [book.record_job("alice", ids[:1]), book.record_job("alice", ids[1:])]
        for job, ident in zip(jobs, ids, strict=True):
            runner.dispatch(job, "alice", [ident], request_id="req-1")
        runner.close()  # returns once the sender delivered both
        sent = [json.loads(m) for m in client.lrange(QUEUE, 0, -1)]
        assert sorted(m["headers"]["id"] for m in sent) == sorted(jobs)
        assert {m["headers"]["request_id"] for m in sent} == {"req-1"}
        runner.dispatch("job_after_close", "alice", ids)  # after close: sent by the caller
        assert client.llen(QUEUE) == 3
    finally:
        stores.close()
        client.close()


def test_dispatch_without_a_broker_returns_and_leaves_the_job_to_the_beat(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    stores = open_embedded(tmp_path / "mem", 8)
    book = StoreJobBook(stores, max_attempts=3)
    settings = EywaSettings(redis_url="redis://127.0.0.1:1/0")
    runner = celery_job_runner(settings, book)
    try:
        ids = write_level0(stores, ["I live in Paris."])
        job = book.record_job("alice", ids)
        with caplog.at_level(logging.WARNING, logger="services.queue"):
            runner.dispatch(job, "alice", ids)  # never raises: the job is recorded
            runner.close()
        assert f"job {job} not queued" in caplog.text
        assert book.job(job).status == "pending"  # the ledger still owes its Level 1
        assert {m.stage for m in stores.ledger.pending_for("alice", ids)} >= {"level1", "nous"}
    finally:
        stores.close()


def write_level0(stores: Stores, texts: list[str]) -> list[str]:
    batch = prepare_batch("alice", coerce_turns([{"text": t, "speaker": "Ana"} for t in texts]), stores.evidence,
                          detect_signals)  # fmt: skip
    stores.evidence.add(batch.new, batch.mentions)
    return batch.ids
