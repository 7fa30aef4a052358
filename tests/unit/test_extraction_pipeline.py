"""Level 1 end to end on the embedded stores: idempotence, supersession, explain."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from eywa.errors import NotFoundError
from eywa.extraction.pipeline import explain, extract_beliefs
from eywa.extraction.rules import RuleExtractor
from eywa.extraction.validator import Validator
from eywa.ids import content_hash
from eywa.models import Evidence
from eywa.signals import detect_signals
from eywa.stores.embedded.beliefs import SqliteBeliefStore
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.evidence import SqliteEvidenceStore

T0 = datetime(2023, 5, 9, 13, 0, tzinfo=timezone.utc)


def turn(eid: str, text: str, at: datetime, speaker: str = "Cecilia", seq: int = 0) -> Evidence:
    return Evidence(
        id=eid, space="home", session="s1", seq=seq, speaker=speaker, role=None, text=text, observed_at=at,
        recorded_at=at, content_hash=content_hash(text), signals=detect_signals(text, at, speaker=speaker),
    )


@pytest.fixture
def stores(tmp_path: Path) -> tuple[SqliteEvidenceStore, SqliteBeliefStore]:
    db = SqliteDatabase(tmp_path / "eywa.db")
    return SqliteEvidenceStore(db), SqliteBeliefStore(db)


def level1(stores: tuple[SqliteEvidenceStore, SqliteBeliefStore], ids: list[str], batch_size: int = 32):  # type: ignore[no-untyped-def]
    evidence, beliefs = stores
    return extract_beliefs(
        space="home", evidence_ids=ids, evidence_store=evidence, belief_store=beliefs,
        extractor=RuleExtractor(), validator=Validator(), batch_size=batch_size, now=T0,
    )


def test_rerunning_level1_writes_no_duplicates(stores: tuple[SqliteEvidenceStore, SqliteBeliefStore]) -> None:
    evidence, beliefs = stores
    evidence.add([turn("a", "I work at Google now.", T0), turn("b", "I'm vegetarian.", T0, seq=1)], [])
    first = level1(stores, ["a", "b", "missing"], batch_size=1)
    # "I'm vegetarian" is no meat and no fish: two beliefs.
    assert (first.accepted, len(first.beliefs), first.missing_evidence) == (3, 3, 1)
    ids_before = beliefs.ids("home")
    second = level1(stores, ["a", "b"])
    assert second.beliefs == () and second.duplicates == 3
    assert beliefs.ids("home") == ids_before
    assert beliefs.counts("home") == {"belief_active": 3}


def test_a_later_value_of_a_single_attribute_supersedes_the_earlier(stores: tuple[SqliteEvidenceStore, SqliteBeliefStore]) -> None:
    evidence, beliefs = stores
    later = T0 + timedelta(days=400)
    evidence.add([turn("old", "I work at Google now.", T0), turn("new", "I work at Microsoft now.", later, seq=1)], [])
    level1(stores, ["old"])
    report = level1(stores, ["new"])
    assert report.superseded == 1
    (active,) = beliefs.beliefs("home", subject="cecilia", attribute="employer")
    assert active.value == "Microsoft" and active.supersedes is not None
    (old,) = beliefs.beliefs("home", attribute="employer", status="superseded")
    assert old.value == "Google" and beliefs.superseded_by("home", old.id) == [active.id]


def test_an_older_belief_arriving_late_is_stored_as_superseded(stores: tuple[SqliteEvidenceStore, SqliteBeliefStore]) -> None:
    evidence, beliefs = stores
    evidence.add([turn("new", "I live in Boston.", T0 + timedelta(days=30)), turn("old", "I live in Denver.", T0, seq=1)], [])
    level1(stores, ["new"])
    level1(stores, ["old"])
    assert [b.value for b in beliefs.beliefs("home", attribute="residence")] == ["Boston"]
    assert [b.value for b in beliefs.beliefs("home", attribute="residence", status="superseded")] == ["Denver"]


def test_multi_valued_attributes_are_never_superseded(stores: tuple[SqliteEvidenceStore, SqliteBeliefStore]) -> None:
    evidence, beliefs = stores
    evidence.add([turn("a", "I love painting.", T0), turn("b", "I love hiking.", T0 + timedelta(days=9), seq=1)], [])
    level1(stores, ["a", "b"])
    assert {b.value for b in beliefs.beliefs("home", attribute="hobbies")} == {"painting", "hiking"}


def test_explain_returns_belief_report_and_full_turns(stores: tuple[SqliteEvidenceStore, SqliteBeliefStore]) -> None:
    evidence, beliefs = stores
    evidence.add([turn("a", "Morning! I work at Google now.", T0)], [])
    (belief,) = level1(stores, ["a"]).beliefs
    why = explain(beliefs, evidence, "home", belief.id)
    assert why.belief.id == belief.id and why.report is not None and why.report.accepted
    assert [t.text for t in why.turns] == ["Morning! I work at Google now."]
    assert why.belief.support[0].evidence_id == "a"
    with pytest.raises(NotFoundError):
        explain(beliefs, evidence, "elsewhere", belief.id)


def test_a_later_batch_reads_what_came_before_it_from_the_stores(stores: tuple[SqliteEvidenceStore, SqliteBeliefStore]) -> None:
    # One turn per batch: what the second and fourth turns lean on (a pet named in the first,
    # the question of the third) is only in the stores when they are read.
    evidence, beliefs = stores
    evidence.add([
        turn("pet", "Our old dog Rufus loves the beach.", T0),
        turn("gone", "Rufus passed away on Sunday.", T0 + timedelta(days=30), seq=1),
        turn("ask", "So you're vegetarian these days?", T0 + timedelta(days=31), speaker="Melinda", seq=2),
        turn("yes", "Vegetarian, yes.", T0 + timedelta(days=31, minutes=1), seq=3),
    ], [])  # fmt: skip
    level1(stores, ["pet", "gone", "ask", "yes"], batch_size=1)
    held = {(b.attribute, b.value, b.polarity, b.evidence_ids) for b in beliefs.beliefs("home", subject="Cecilia")}
    assert ("pets", "Rufus", "negative", ("gone",)) in held
    assert ("diet", "meat", "negative", ("yes",)) in held  # "vegetarian", canonical


def test_a_name_no_earlier_belief_holds_as_a_pet_ends_nothing(stores: tuple[SqliteEvidenceStore, SqliteBeliefStore]) -> None:
    evidence, beliefs = stores
    evidence.add([turn("a", "My friend Rufus loves the beach.", T0), turn("b", "Rufus passed away.", T0, seq=1)], [])
    level1(stores, ["a", "b"], batch_size=1)
    assert not [b for b in beliefs.beliefs("home") if b.attribute == "pets"]
