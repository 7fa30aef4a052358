"""Corrections on every backend, through ``Memory``: a retracted belief leaves every read and
its dimension equals the one before the belief came; a confirmed belief weighs more in its
dimension; a refused candidate accepted becomes a belief (its repaired form), a dismissed one
leaves the repair queue; each is recorded with its author and reason, and bad input changes
nothing."""

from __future__ import annotations

from typing import Any

import pytest

from eywa import Memory
from eywa.errors import ConflictError, InvalidInputError, NotFoundError
from tests.conformance.conftest import MemoryFactory
from tests.conformance.scripted import ScriptedExtractor

SPACE = "home"
FIRST = [{"text": "I work at Google as a designer.", "speaker": "Ana", "session": "s1",
          "observed_at": "2023-01-10T09:00:00"}]  # fmt: skip
LATER = [
    {"text": "I work at Initech now.", "speaker": "Ana", "session": "s2", "observed_at": "2023-03-01T09:00:00"},
    {"text": "I don't like hiking at all.", "speaker": "Ana", "session": "s2", "observed_at": "2023-03-01T09:01:00"},
    {"text": "I never play chess, honestly.", "speaker": "Ana", "session": "s2", "observed_at": "2023-03-01T09:02:00"},
]  # fmt: skip
FACTS: dict[str, list[dict[str, Any]]] = {
    "work at Google": [{"statement": "Ana works at Google.", "subject": "Ana", "attribute": "employer", "value": "Google"}],
    "work at Initech": [{"statement": "Ana works at Initech.", "subject": "Ana", "attribute": "employer",
                         "value": "Initech"}],
    # Both contradict their turn's negation: refused as "repair" candidates (polarity flip).
    "like hiking": [{"statement": "Ana likes hiking.", "subject": "Ana", "attribute": "hobby", "value": "hiking"}],
    "play chess": [{"statement": "Ana plays chess.", "subject": "Ana", "attribute": "hobby", "value": "chess"}],
}  # fmt: skip


def _belief_id(mem: Memory, value: str) -> str:
    return next(b.id for b in mem.beliefs(SPACE, status=None) if b.value == value)


def _candidate_id(mem: Memory, value: str) -> str:
    return next(c.id for c in mem.candidates(SPACE, status=None) if c.fact.value == value)


def _opened(open_memory: MemoryFactory) -> tuple[Memory, Any]:
    mem = open_memory(extractor=ScriptedExtractor(FACTS))
    mem.remember(SPACE, FIRST, wait=True)
    before = mem.dimension(SPACE, "Ana", "employer")
    mem.remember(SPACE, LATER, wait=True)
    return mem, before


def test_a_retracted_belief_leaves_reads_and_its_dimension(open_memory: MemoryFactory) -> None:
    mem, before = _opened(open_memory)
    initech, google = _belief_id(mem, "Initech"), _belief_id(mem, "Google")
    assert mem.dimension(SPACE, "Ana", "employer").mode == "Initech"
    assert mem.beliefs(SPACE, "Ana", "employer", status="superseded")[0].id == google

    record = mem.retract_belief(SPACE, initech, reason="Ana never worked there", author="key_1")

    assert (record.kind, record.target_id, record.author, record.reason) == (
        "retract_belief", initech, "key_1", "Ana never worked there")  # fmt: skip
    assert [b.id for b in mem.beliefs(SPACE, "Ana", "employer")] == [google]  # the old belief is back
    assert [b.status for b in mem.beliefs(SPACE, status="retracted")] == ["retracted"]
    assert all(d.belief_id != initech for d in mem.deltas(SPACE, "Ana", "employer"))
    after = mem.dimension(SPACE, "Ana", "employer")
    assert after.mode == "Google" and after.distribution == before.distribution  # replayed without it
    for query in ("Where does Ana work?", "Initech"):
        assert all(initech not in item.model_dump_json() for item in mem.recall(SPACE, query, k=20).items)
    assert [c.id for c in mem.corrections(SPACE, initech)] == [record.id]

    with pytest.raises(ConflictError):
        mem.retract_belief(SPACE, initech, reason="again")
    with pytest.raises(NotFoundError):
        mem.retract_belief(SPACE, "bel_unknown", reason="no such belief")
    with pytest.raises(InvalidInputError):
        mem.retract_belief(SPACE, google, reason="  ")
    assert mem.beliefs(SPACE, "Ana", "employer")[0].status == "active"
    assert len(mem.corrections(SPACE)) == 1


def test_a_confirmed_belief_weighs_more(open_memory: MemoryFactory) -> None:
    mem, _ = _opened(open_memory)
    initech = _belief_id(mem, "Initech")
    held = mem.dimension(SPACE, "Ana", "employer").distribution["Initech"]

    record = mem.confirm_belief(SPACE, initech, reason="checked with Ana", author="key_2")

    assert record.reliability_before is not None and record.reliability_after is not None
    assert record.reliability_before < record.reliability_after < 1.0
    deltas = [d for d in mem.deltas(SPACE, "Ana", "employer") if d.belief_id == initech]
    assert [d.reliability for d in deltas] == [record.reliability_after]
    assert mem.dimension(SPACE, "Ana", "employer").distribution["Initech"] > held
    mem.retract_belief(SPACE, initech, reason="changed our mind")
    with pytest.raises(ConflictError):
        mem.confirm_belief(SPACE, initech)
    assert [c.kind for c in mem.corrections(SPACE, initech)] == ["confirm_belief", "retract_belief"]


def test_candidates_are_accepted_or_dismissed(open_memory: MemoryFactory) -> None:
    mem, _ = _opened(open_memory)
    hiking, chess = _candidate_id(mem, "hiking"), _candidate_id(mem, "chess")
    assert {c.id for c in mem.candidates(SPACE, "repair")} == {hiking, chess}

    accepted = mem.accept_candidate(SPACE, hiking, reason="the repair is right", author="key_3")
    belief = next(b for b in mem.beliefs(SPACE) if b.id == accepted.belief_id)
    assert (belief.value, belief.polarity, belief.extractor) == ("hiking", "negative", "operator")
    assert any(d.belief_id == belief.id for d in mem.deltas(SPACE, "Ana", "hobby"))

    dismissed = mem.dismiss_candidate(SPACE, chess, reason="not worth it", author="key_3")
    assert dismissed.kind == "dismiss_candidate"
    assert mem.candidates(SPACE, "repair") == []
    assert [c.id for c in mem.candidates(SPACE, "rejected")] == [chess]  # kept for audit

    with pytest.raises(ConflictError):
        mem.dismiss_candidate(SPACE, chess)
    with pytest.raises(ConflictError, match="already accepted"):
        mem.accept_candidate(SPACE, hiking)  # accepted (the candidate is gone), by another author
    assert [c.kind for c in mem.corrections(SPACE)] == ["accept_candidate", "dismiss_candidate"]


class _NextVersion(ScriptedExtractor):
    """The same scripted facts from the extractor's next version (what ``eywa reprocess`` is for)."""

    version = 2


def test_reprocessing_does_not_bring_a_retracted_belief_back(open_memory: MemoryFactory) -> None:
    mem = open_memory(extractor=ScriptedExtractor(FACTS))
    mem.remember(SPACE, FIRST, wait=True)
    google = _belief_id(mem, "Google")
    mem.retract_belief(SPACE, google, reason="wrong", author="key_1")
    mem.close()

    mem = open_memory(extractor=_NextVersion(FACTS))
    assert mem.reprocess(SPACE) == 1  # the next version reads the turn again and proposes the same fact

    assert [(b.id, b.status) for b in mem.beliefs(SPACE, status=None)] == [(google, "retracted")]
    assert mem.dimensions(SPACE) == [] and mem.deltas(SPACE, "Ana", "employer") == []
    assert [c.target_id for c in mem.corrections(SPACE)] == [google]


def test_erasure_takes_the_correction_reasons_that_may_quote_it(open_memory: MemoryFactory) -> None:
    mem, _ = _opened(open_memory)
    initech, google = _belief_id(mem, "Initech"), _belief_id(mem, "Google")
    mem.retract_belief(SPACE, initech, reason="she said it as a joke", author="key_1")  # about an erased belief
    mem.confirm_belief(SPACE, google, reason="checked with her employer", author="key_2")  # stays
    mem.confirm_belief(SPACE, google, reason=LATER[0]["text"], author="key_3")  # quotes an erased turn word for word

    report = mem.forget(SPACE, session="s2")

    assert report.counts["correction_reasons"] == 2
    assert [(c.author, c.reason) for c in mem.corrections(SPACE)] == [
        ("key_1", None), ("key_2", "checked with her employer"), ("key_3", None)]  # fmt: skip
    proof = mem.erasure_proof(SPACE, report.erasure_id)
    assert proof.residue["correction_reasons"] == 0 and proof.total == 0
