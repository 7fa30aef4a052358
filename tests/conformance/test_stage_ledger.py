"""The stage ledger, job records and tombstones, on every backend: Level 0 marks what each turn
owes in its own transaction, a Level 1 batch clears ``level1`` with its beliefs, pending work
is found by stage (bounded, earliest due first), failures are counted, jobs and tombstones
round-trip, and a change of embedder marks everything for re-embedding."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from eywa.batches import coerce_turns, prepare_batch
from eywa.errors import ErasedError
from eywa.models import Belief, CheckScore, SupportLink, ValidationReport
from eywa.signals import detect_signals
from eywa.stores.bundle import Stores
from eywa.stores.ledger import JobRecord, StageDone

AT = datetime(2024, 3, 2, 10, 0, tzinfo=timezone.utc)
OK = ValidationReport(accepted=True, score=0.9, checks=(CheckScore(name="support", score=0.9, passed=True),))


def store_turns(stores: Stores, space: str, texts: list[str]) -> list[str]:
    batch = prepare_batch(space, coerce_turns([{"text": t, "speaker": "Ana"} for t in texts]), stores.evidence,
                          detect_signals)  # fmt: skip
    stores.evidence.add(batch.new, batch.mentions)
    return batch.ids


def belief(bid: str, space: str, evidence: str, version: str | None = "1") -> Belief:
    return Belief(
        id=bid, space=space, statement="Ana lives in Lyon.", subject="Ana", attribute="residence", value="Lyon",
        polarity="positive", modality="asserted", valid_from=None, valid_to=None, recorded_at=AT, status="active",
        extractor="rules", extractor_version=version, evidence_ids=(evidence,), report=OK,
        support=(SupportLink(evidence_id=evidence, span=(0, 5), score=0.9),),
    )  # fmt: skip


def stages_of(stores: Stores, space: str, ids: list[str]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for mark in stores.ledger.pending_for(space, ids):
        found.setdefault(mark.item_id, set()).add(mark.stage)
    return found


def test_level0_marks_every_new_turn_once(stores: Stores) -> None:
    ids = store_turns(stores, "home", ["I live in Lyon.", "I work at Acme."])
    expected = {"embed_evidence", "level1", "nous"}
    assert stages_of(stores, "home", ids) == {i: expected for i in ids}
    store_turns(stores, "home", ["I live in Lyon.", "I work at Acme."])  # sent again: a no-op
    assert stores.ledger.backlog() == {"embed_evidence": 2, "level1": 2, "nous": 2, "embed_belief": 0}
    assert stores.ledger.level1_backlog() == 2
    mark = stores.ledger.pending("level1", limit=10, space="home")[0]
    assert (mark.reason, mark.attempts, mark.error) == ("new", 0, None) and mark.due_at == mark.since


def test_pending_is_bounded_filtered_and_earliest_due_first(stores: Stores) -> None:
    home = store_turns(stores, "home", [f"Turn number {n}." for n in range(5)])
    other = store_turns(stores, "other", ["Elsewhere."])
    later = datetime.now(timezone.utc) + timedelta(hours=1)
    stores.ledger.touch("home", "level1", home[:2], later)
    assert len(stores.ledger.pending("level1", limit=3)) == 3
    due = stores.ledger.pending("level1", limit=10, due_before=datetime.now(timezone.utc))
    assert {m.item_id for m in due} == set(home[2:]) | set(other)
    ordered = stores.ledger.pending("level1", limit=10, space="home")
    assert {m.item_id for m in ordered[-2:]} == set(home[:2])  # touched: due last
    assert {m.space for m in ordered} == {"home"}
    assert stores.ledger.pending("level1", limit=0) == []


def test_a_level1_batch_clears_its_marks_with_its_beliefs(stores: Stores) -> None:
    ids = store_turns(stores, "home", ["I live in Lyon.", "Nice weather."])
    done = StageDone(space="home", evidence_ids=tuple(ids), done_by="rules@1")
    new, _ = stores.beliefs.add([belief("bel_1", "home", ids[0])], [], done)
    assert new == ["bel_1"]
    assert stages_of(stores, "home", ids) == {i: {"embed_evidence", "nous"} for i in ids}
    assert stages_of(stores, "home", ["bel_1"]) == {"bel_1": {"embed_belief"}}
    assert stores.beliefs.get("home", "bel_1") is not None
    assert stores.beliefs.get("home", "bel_1").extractor_version == "1"  # type: ignore[union-attr]
    # A batch with no belief still records its turns as read.
    more = store_turns(stores, "home", ["Nothing to see."])
    stores.beliefs.add([], [], StageDone(space="home", evidence_ids=tuple(more), done_by="rules@1"))
    assert stages_of(stores, "home", more) == {more[0]: {"embed_evidence", "nous"}}


def test_reprocessing_marks_the_turns_another_version_read(stores: Stores) -> None:
    ids = store_turns(stores, "home", ["I live in Lyon.", "I work at Acme.", "Unread yet."])
    stores.beliefs.add([], [], StageDone(space="home", evidence_ids=tuple(ids[:2]), done_by="rules@1"))
    for stage in ("nous", "embed_evidence"):
        stores.ledger.complete("home", stage, ids)
    assert stores.ledger.mark_outdated("home", "rules@1", AT) == 0  # ids[2] has level1 pending already
    assert stores.ledger.mark_outdated("home", "rules@2", AT) == 2
    marks = stores.ledger.pending_for("home", ids[:2])
    assert {(m.item_id, m.stage, m.reason) for m in marks} == {
        (i, s, "reprocess") for i in ids[:2] for s in ("level1", "nous")
    }
    assert stores.ledger.mark_outdated("home", "rules@2", AT) == 0  # resumable: nothing marked twice


def test_failures_are_counted_and_push_the_mark_back(stores: Stores) -> None:
    ids = store_turns(stores, "home", ["I live in Lyon."])
    later = datetime.now(timezone.utc) + timedelta(minutes=5)
    stores.ledger.fail("home", "level1", ids, "ExtractorError: endpoint down", later)
    stores.ledger.fail("home", "level1", ids, "ExtractorError: still down", later)
    (mark,) = stores.ledger.pending("level1", limit=5)
    assert (mark.attempts, mark.error) == (2, "ExtractorError: still down")
    assert stores.ledger.pending("level1", limit=5, due_before=datetime.now(timezone.utc)) == []
    assert stores.ledger.complete("home", "level1", ids) == 1
    assert stores.ledger.complete("home", "level1", ids) == 0
    assert stores.ledger.mark("home", "level1", ids, "reprocess", AT) == 1
    assert stores.ledger.mark("home", "level1", ids, "reprocess", AT) == 0


def test_jobs_round_trip_and_prune(stores: Stores) -> None:
    job = JobRecord(id="job_1", space="home", evidence_ids=("ev_a", "ev_b"), submitted_at=AT, author="key_1")
    stores.jobs.add_job(job)
    stores.jobs.add_job(job.model_copy(update={"space": "other"}))  # an existing id is kept
    assert stores.jobs.get_job("job_1") == job
    assert stores.jobs.get_job("job_2") is None
    assert stores.jobs.prune_jobs(AT) == 0
    assert stores.jobs.prune_jobs(AT + timedelta(seconds=1)) == 1
    assert stores.jobs.get_job("job_1") is None


def test_a_tombstoned_turn_loses_its_work_and_is_refused_when_sent_again(stores: Stores) -> None:
    ids = store_turns(stores, "home", ["I live in Lyon.", "I work at Acme."])
    assert stores.tombstones.add_tombstones("home", ids[:1], AT) == 1
    assert stores.tombstones.add_tombstones("home", ids[:1], AT) == 0
    assert stores.tombstones.tombstoned("home", ids) == {ids[0]}
    assert stores.tombstones.tombstoned("other", ids) == set()
    assert stages_of(stores, "home", ids) == {ids[0]: {"embed_evidence"}, ids[1]: {"embed_evidence", "level1", "nous"}}
    # A turn whose id is tombstoned (erased before) is refused with its whole batch.
    batch = prepare_batch("home", coerce_turns([{"text": "A new turn.", "speaker": "Ana"},
                                                {"text": "An erased turn.", "speaker": "Ana"}]),
                          stores.evidence, detect_signals)  # fmt: skip
    stores.tombstones.add_tombstones("home", [batch.ids[1]], AT)
    with pytest.raises(ErasedError) as caught:
        stores.evidence.add(batch.new, batch.mentions)
    assert caught.value.evidence_ids == (batch.ids[1],) and caught.value.space == "home"
    assert stores.evidence.get("home", batch.ids) == []
    assert stores.ledger.pending_for("home", batch.ids) == []


def test_a_change_of_embedder_marks_every_turn_and_belief(stores: Stores) -> None:
    assert stores.ledger.embedder() is None
    assert stores.ledger.switch_embedder("model-a/8", AT) == 0  # empty store: nothing to redo
    ids = store_turns(stores, "home", ["I live in Lyon.", "I work at Acme."])
    stores.beliefs.add([belief("bel_1", "home", ids[0])], [])
    for stage in ("embed_evidence", "embed_belief"):
        stores.ledger.complete("home", stage, [*ids, "bel_1"])
    assert stores.ledger.switch_embedder("model-a/8", AT) == 0
    assert stores.ledger.switch_embedder("model-b/8", AT) == 3
    assert stores.ledger.embedder() == "model-b/8"
    assert {(m.item_id, m.reason) for m in stores.ledger.pending("embed_evidence", limit=10)} == {
        (i, "embedder") for i in ids
    }
    assert [m.item_id for m in stores.ledger.pending("embed_belief", limit=10)] == ["bel_1"]
