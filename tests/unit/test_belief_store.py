"""The embedded belief store: atomic adds, space isolation, supersession, FTS rows, erasure."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from eywa.models import Belief, Candidate, CandidateFact, CheckScore, ReasonCode, SupportLink, ValidationReport
from eywa.stores.embedded.beliefs import SqliteBeliefStore
from eywa.stores.embedded.database import SqliteDatabase

AT = datetime(2023, 5, 9, tzinfo=timezone.utc)
OK = ValidationReport(accepted=True, score=1.0, checks=(CheckScore(name="support", score=1.0, passed=True),))


def belief(bid: str, value: str, space: str = "home", attribute: str = "employer") -> Belief:
    return Belief(
        id=bid, space=space, statement=f"Cecilia works at {value}.", subject="Cecilia", attribute=attribute,
        value=value, polarity="positive", modality="asserted", valid_from=None, valid_to=None, recorded_at=AT,
        status="active", extractor="rules", evidence_ids=("e1",), report=OK, event_at=AT,
        support=(SupportLink(evidence_id="e1", span=(0, 10), score=0.9, anchors=("date:2023-05-07",)),),
    )


def candidate(cid: str, space: str = "home") -> Candidate:
    fact = CandidateFact(statement="Cecilia eats meat.", subject="Cecilia", evidence_ids=("e2",))
    report = ValidationReport(
        accepted=False, score=0.5, checks=(CheckScore(name="polarity", score=0.0, passed=False),),
        reasons=(ReasonCode.POLARITY_FLIP,), repairable=True,
    )
    return Candidate(id=cid, space=space, fact=fact, status="repair", reasons=report.reasons, report=report,
                     extractor="rules", recorded_at=AT)


@pytest.fixture
def store(tmp_path: Path) -> SqliteBeliefStore:
    return SqliteBeliefStore(SqliteDatabase(tmp_path / "eywa.db"))


def test_add_round_trips_and_skips_existing_ids(store: SqliteBeliefStore) -> None:
    assert store.add([belief("b1", "Google")], [candidate("c1")]) == (["b1"], ["c1"])
    assert store.add([belief("b1", "Google")], [candidate("c1")]) == ([], [])
    assert store.get("home", "b1") == belief("b1", "Google")
    (cand,) = store.candidates("home", status="repair")
    assert cand.reasons == (ReasonCode.POLARITY_FLIP,) and cand.fact.evidence_ids == ("e2",)
    assert store.candidates("home") == []
    assert store.count_by_reason("home") == {"polarity_flip": 1}
    assert store.counts("home") == {"belief_active": 1, "candidate_repair": 1}


def test_every_read_is_scoped_to_its_space(store: SqliteBeliefStore) -> None:
    store.add([belief("b1", "Google"), belief("b2", "Acme", space="other")], [candidate("c9", space="other")])
    assert store.get("other", "b1") is None
    assert [b.id for b in store.beliefs("home")] == ["b1"]
    assert store.ids("other") == ["b2"]
    assert store.beliefs_citing("home", ["e1"]) == [store.get("home", "b1")]
    assert store.candidates_citing("home", ["e2"]) == [] and store.candidates_citing("other", ["e2"]) == ["c9"]
    assert store.supersede("home", "b1", "b2") is False  # b2 lives in another space


def test_supersede_is_idempotent_and_keeps_the_old_belief(store: SqliteBeliefStore) -> None:
    store.add([belief("b1", "Google"), belief("b2", "Microsoft")], [])
    assert store.supersede("home", "b1", "b2") is True
    assert store.supersede("home", "b1", "b2") is False
    old, new = store.get("home", "b1"), store.get("home", "b2")
    assert old is not None and old.status == "superseded"
    assert new is not None and new.supersedes == "b1" and new.status == "active"


def test_statements_are_searchable_until_retracted_or_deleted(store: SqliteBeliefStore, tmp_path: Path) -> None:
    store.add([belief("b1", "Google"), belief("b2", "Microsoft")], [candidate("c1")])
    db = store._db  # the same connection the keyword route reads
    hits = db.query("SELECT id FROM belief_fts WHERE belief_fts MATCH ? AND space = ?", ("working", "home"))
    assert {r["id"] for r in hits} == {"b1", "b2"}
    assert store.set_status("home", ["b1"], "retracted") == 1
    store.delete("home", ["b2"], ["c1"])
    assert db.query("SELECT id FROM belief_fts WHERE space = ?", ("home",)) == []
    assert store.get("home", "b2") is None and store.candidates("home", status=None) == []
