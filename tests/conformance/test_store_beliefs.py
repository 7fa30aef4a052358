"""BeliefStore contract, on every backend: round trips with support links, idempotent adds,
supersession, retraction leaving the keyword index, citations, counts and erasure."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from eywa.models import Belief, Candidate, CandidateFact, CheckScore, ReasonCode, SupportLink, ValidationReport
from eywa.signals import detect_signals
from eywa.stores.bundle import Stores
from eywa.batches import coerce_turns, prepare_batch

AT = datetime(2023, 5, 9, 8, 30, 0, 250000, tzinfo=timezone.utc)
OK = ValidationReport(
    accepted=True, score=0.92, checks=(CheckScore(name="support", score=0.92, passed=True, detail="lexical"),)
)


@pytest.fixture
def turns(stores: Stores) -> list[str]:
    """Two stored turns per space that beliefs can cite."""
    ids = []
    for space in ("home", "other"):
        batch = prepare_batch(
            space,
            coerce_turns([
                {"text": "Cecilia works at Google since 7 May 2023.", "speaker": "Cecilia"},
                {"text": "Cecilia now works at Acme.", "speaker": "Cecilia"},
            ]),
            stores.evidence, detect_signals,
        )  # fmt: skip
        stores.evidence.add(batch.new, batch.mentions)
        ids.extend(batch.ids)
    return ids


def belief(bid: str, value: str, evidence: str, space: str = "home", day: int = 0, **kw: object) -> Belief:
    fields: dict[str, object] = {
        "id": bid, "space": space, "statement": f"Cecilia works at {value}.", "subject": "Cecilia",
        "attribute": "employer", "value": value, "polarity": "positive", "modality": "asserted",
        "valid_from": AT, "valid_to": None, "recorded_at": AT, "status": "active", "extractor": "rules",
        "evidence_ids": (evidence,), "report": OK, "event_at": AT + timedelta(days=day),
        "support": (SupportLink(evidence_id=evidence, span=(0, 25), score=0.9, anchors=("date:2023-05-07",)),),
    }  # fmt: skip
    fields.update(kw)
    return Belief.model_validate(fields)


def candidate(cid: str, evidence: str, space: str = "home") -> Candidate:
    fact = CandidateFact(statement="Cecilia eats meat.", subject="Cecilia", evidence_ids=(evidence,))
    report = ValidationReport(
        accepted=False, score=0.4, checks=(CheckScore(name="polarity", score=0.0, passed=False),),
        reasons=(ReasonCode.POLARITY_FLIP, ReasonCode.UNSUPPORTED), repairable=False,
    )  # fmt: skip
    return Candidate(id=cid, space=space, fact=fact, status="rejected", reasons=report.reasons,
                     report=report, extractor="rules", recorded_at=AT)  # fmt: skip


def test_add_round_trips_and_skips_existing_ids(stores: Stores, turns: list[str]) -> None:
    google, cand = belief("bel_1", "Google", turns[0]), candidate("cand_1", turns[1])
    assert stores.beliefs.add([google], [cand]) == (["bel_1"], ["cand_1"])
    assert stores.beliefs.add([google], [cand]) == ([], [])
    assert stores.beliefs.get("home", "bel_1") == google
    assert stores.beliefs.candidates("home") == [cand]
    assert stores.beliefs.candidates("home", status="repair") == []
    assert stores.beliefs.count_by_reason("home") == {"polarity_flip": 1, "unsupported": 1}
    assert stores.beliefs.counts("home") == {"belief_active": 1, "candidate_rejected": 1}
    assert stores.beliefs.ids("home") == ["bel_1"]


def test_reads_are_scoped_to_their_space(stores: Stores, turns: list[str]) -> None:
    stores.beliefs.add(
        [belief("bel_1", "Google", turns[0]), belief("bel_9", "Acme", turns[2], space="other")],
        [candidate("cand_9", turns[3], space="other")],
    )
    assert stores.beliefs.get("other", "bel_1") is None
    assert [b.id for b in stores.beliefs.beliefs("home")] == ["bel_1"]
    assert stores.beliefs.get_many("home", ["bel_9", "bel_1"]) == [stores.beliefs.get("home", "bel_1")]
    assert stores.beliefs.beliefs_citing("home", [turns[2]]) == []
    assert stores.beliefs.candidates_citing("home", [turns[3]]) == []
    assert stores.beliefs.candidates_citing("other", [turns[3]]) == ["cand_9"]
    assert stores.beliefs.supersede("home", "bel_1", "bel_9") is False  # bel_9 lives elsewhere
    assert stores.keyword.search("home", "Acme", 5, kinds=("belief",)) == []


def test_supersession_is_recorded_once(stores: Stores, turns: list[str]) -> None:
    old, new = belief("bel_1", "Google", turns[0]), belief("bel_2", "Acme", turns[1], day=3)
    stores.beliefs.add([old, new], [])
    assert stores.beliefs.supersede("home", "bel_1", "bel_2") is True
    assert stores.beliefs.supersede("home", "bel_1", "bel_2") is False
    assert stores.beliefs.supersede("home", "bel_1", "bel_missing") is False
    assert stores.beliefs.get("home", "bel_1").status == "superseded"  # type: ignore[union-attr]
    assert stores.beliefs.get("home", "bel_2").supersedes == "bel_1"  # type: ignore[union-attr]
    assert stores.beliefs.superseded_by("home", "bel_1") == ["bel_2"]
    assert [b.id for b in stores.beliefs.beliefs("home", subject="cecilia")] == ["bel_2"]
    everything = stores.beliefs.beliefs("home", subject="CECILIA", attribute="employer", status=None)
    assert [b.id for b in everything] == ["bel_1", "bel_2"]  # event-time order
    assert stores.beliefs.beliefs("home", attribute="city", status=None) == []


def test_retracted_beliefs_leave_the_keyword_index(stores: Stores, turns: list[str]) -> None:
    stores.beliefs.add([belief("bel_1", "Google", turns[0]), belief("bel_2", "Acme", turns[1])], [])
    assert [h[1] for h in stores.keyword.search("home", "Google", 5, kinds=("belief",))] == ["bel_1"]
    assert stores.beliefs.set_status("home", ["bel_1"], "retracted") == 1
    assert stores.keyword.search("home", "Google", 5, kinds=("belief",)) == []
    assert stores.beliefs.counts("home") == {"belief_active": 1, "belief_retracted": 1}
    kinds = {h[0] for h in stores.keyword.search("home", "Acme", 5, kinds=("evidence", "belief"))}
    assert kinds == {"evidence", "belief"}


def test_citations_and_erasure(stores: Stores, turns: list[str]) -> None:
    stores.beliefs.add(
        [belief("bel_1", "Google", turns[0]), belief("bel_2", "Acme", turns[1])],
        [candidate("cand_1", turns[0])],
    )
    assert [b.id for b in stores.beliefs.beliefs_citing("home", [turns[0]])] == ["bel_1"]
    assert stores.beliefs.candidates_citing("home", turns[:2]) == ["cand_1"]
    stores.beliefs.delete("home", ["bel_1"], ["cand_1"])
    assert stores.beliefs.ids("home") == ["bel_2"] and stores.beliefs.candidates("home") == []
    assert stores.beliefs.beliefs_citing("home", [turns[0]]) == []
    assert stores.keyword.search("home", "Google", 5, kinds=("belief",)) == []
    assert stores.beliefs.add([belief("bel_1", "Google", turns[0])], []) == (["bel_1"], [])


def test_recall_beliefs_read_active_beliefs_with_their_cited_turns(stores: Stores, turns: list[str]) -> None:
    both = belief("bel_1", "Google", turns[1], evidence_ids=(turns[1], "ev_gone", turns[0]), support=())
    stores.beliefs.add([both, belief("bel_2", "Acme", turns[1]), belief("bel_3", "Initech", turns[0])], [])
    stores.beliefs.add([belief("bel_9", "Acme", turns[2], space="other")], [])
    stores.beliefs.set_status("home", ["bel_3"], "retracted")
    found = stores.beliefs.recall_beliefs("home", ["bel_2", "bel_missing", "bel_3", "bel_9", "bel_1", "bel_2"])
    assert [b.id for b in found] == ["bel_2", "bel_1"]  # active ones of the space, in the order asked
    assert (found[1].statement, found[1].subject) == ("Cecilia works at Google.", "Cecilia")
    # The cited turns in the belief's order (one no longer stored left out), read as recall reads turns.
    assert [t.id for t in found[1].cited] == [turns[1], turns[0]]
    assert found[1].cited == tuple(stores.evidence.recall_turns("home", [turns[1], turns[0]]))
    assert [t.id for t in found[0].cited] == [turns[1]] and found[0].cited[0].mentions
    assert stores.beliefs.recall_beliefs("home", []) == []
    assert [b.id for b in stores.beliefs.recall_beliefs("other", ["bel_9", "bel_1"])] == ["bel_9"]


def test_belief_cites_read_what_recall_beliefs_cites_without_the_turns(stores: Stores, turns: list[str]) -> None:
    both = belief("bel_1", "Google", turns[1], evidence_ids=(turns[1], "ev_gone", turns[0]), support=())
    gone = belief("bel_4", "Hooli", turns[1], evidence_ids=("ev_gone",), support=())
    stores.beliefs.add([both, belief("bel_2", "Acme", turns[1]), belief("bel_3", "Initech", turns[0]), gone], [])
    stores.beliefs.add([belief("bel_9", "Acme", turns[2], space="other")], [])
    stores.beliefs.set_status("home", ["bel_3"], "retracted")
    asked = ["bel_2", "bel_missing", "bel_3", "bel_9", "bel_1", "bel_4", "bel_2"]
    found = stores.beliefs.belief_cites("home", asked)
    # Active ones of the space, in the order asked; the cited turns still stored, in the belief's order.
    assert [(b.id, b.subject, b.cited) for b in found] == [
        ("bel_2", "Cecilia", (turns[1],)), ("bel_1", "Cecilia", (turns[1], turns[0])), ("bel_4", "Cecilia", ())
    ]
    recalled = stores.beliefs.recall_beliefs("home", asked)
    assert [(b.id, b.subject, tuple(t.id for t in b.cited)) for b in recalled] == [(b.id, b.subject, b.cited) for b in found]
    assert stores.beliefs.belief_cites("home", []) == []
    assert [b.id for b in stores.beliefs.belief_cites("other", ["bel_9", "bel_1"])] == ["bel_9"]


def test_beliefs_about_lists_each_subjects_active_beliefs_of_the_attributes_in_one_call(
    stores: Stores, turns: list[str]
) -> None:
    hobby = belief("bel_h", "climbing", turns[0], attribute="hobbies", statement="Cecilia climbs.", day=3)
    late = belief("bel_late", "Acme", turns[1], day=2)
    early = belief("bel_early", "Google", turns[0], day=1)
    gone = belief("bel_gone", "Initech", turns[0], day=4)
    bob = belief("bel_bob", "Umbrella", turns[1], subject="Bob", statement="Bob works at Umbrella.")
    stores.beliefs.add([hobby, late, early, gone, bob, belief("bel_x", "Acme", turns[2], space="other")], [])
    stores.beliefs.set_status("home", ["bel_gone"], "retracted")
    about = stores.beliefs.beliefs_about("home", ["cecilia", "Bob", "Dana"], ["employer", "hobbies"])
    # Every subject asked is a key; the subject matched as ``beliefs`` matches it.
    assert list(about) == ["cecilia", "Bob", "Dana"] and about["Dana"] == []
    assert [b.id for b in about["cecilia"]] == ["bel_early", "bel_late", "bel_h"]  # active, in event-time order
    line = about["cecilia"][2]
    assert (line.subject, line.attribute, line.statement, line.value, line.evidence_ids) == (
        "Cecilia", "hobbies", "Cecilia climbs.", "climbing", (turns[0],)
    )
    # Per (subject, attribute), what ``beliefs`` lists, in the same order.
    for subject in ("cecilia", "Bob"):
        for attribute in ("employer", "hobbies"):
            listed = [b.id for b in stores.beliefs.beliefs("home", subject=subject, attribute=attribute)]
            assert [b.id for b in about[subject] if b.attribute == attribute] == listed
    assert [b.id for b in stores.beliefs.beliefs_about("home", ["Cecilia"], ["hobbies"])["Cecilia"]] == ["bel_h"]
    assert stores.beliefs.beliefs_about("home", ["Cecilia"], []) == {"Cecilia": []}
    assert stores.beliefs.beliefs_about("home", [], ["employer"]) == {}
    assert [b.id for b in stores.beliefs.beliefs_about("other", ["Cecilia"], ["employer"])["Cecilia"]] == ["bel_x"]


def test_belief_lines_keep_the_active_beliefs_of_the_attributes_among_the_ids(
    stores: Stores, turns: list[str]
) -> None:
    hobby = belief("bel_h", "climbing", turns[0], attribute="hobbies", statement="Cecilia climbs.")
    stores.beliefs.add([hobby, belief("bel_1", "Google", turns[0]), belief("bel_2", "Acme", turns[1])], [])
    stores.beliefs.add([belief("bel_9", "Acme", turns[2], space="other", attribute="hobbies")], [])
    stores.beliefs.set_status("home", ["bel_2"], "superseded")
    asked = ["bel_h", "bel_missing", "bel_2", "bel_9", "bel_1", "bel_h"]
    found = stores.beliefs.belief_lines("home", asked, ["hobbies", "employer"])
    assert [b.id for b in found] == ["bel_h", "bel_1"]  # active ones of the space, in the order asked
    assert (found[1].subject, found[1].attribute, found[1].value) == ("Cecilia", "employer", "Google")
    assert [b.id for b in stores.beliefs.belief_lines("home", asked, ["hobbies"])] == ["bel_h"]
    assert stores.beliefs.belief_lines("home", [], ["hobbies"]) == []
    assert stores.beliefs.belief_lines("home", asked, []) == []
