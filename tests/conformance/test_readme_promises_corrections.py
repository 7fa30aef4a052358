"""README, Corrections: "on Neo4j its steps are idempotent and the record is written last, so
calling it again after a crash finishes it" (eywa/corrections.py: "a belief found
``retracted`` without its record is finished, not refused"). test_corrections.py checks a
second retraction *with* its record is a conflict; nothing checked the cut-short one
(audit of s14). The state a crash leaves between the status step and the record is made
with the same store calls the retraction makes, on both backends."""

from __future__ import annotations

from eywa.nous.ledger import forget_beliefs
from tests.conformance.conftest import MemoryFactory
from tests.conformance.test_corrections import FACTS, SPACE, _belief_id, _candidate_id, _NextVersion, _opened


def test_a_retraction_cut_short_before_its_record_is_finished_by_calling_it_again(open_memory: MemoryFactory) -> None:
    mem, before = _opened(open_memory)
    initech, google = _belief_id(mem, "Initech"), _belief_id(mem, "Google")
    stores = mem._stores
    forget_beliefs(stores.dimensions, SPACE, [initech])  # the retraction's first steps, committed…
    stores.beliefs.set_status(SPACE, [initech], "retracted")
    assert mem.corrections(SPACE, initech) == []  # …and the crash came before the record

    record = mem.retract_belief(SPACE, initech, reason="finishing after a crash", author="key_1")

    assert (record.kind, record.target_id, record.reason) == ("retract_belief", initech, "finishing after a crash")
    assert [c.id for c in mem.corrections(SPACE, initech)] == [record.id]
    assert [b.id for b in mem.beliefs(SPACE, "Ana", "employer")] == [google]  # the superseded belief is back
    after = mem.dimension(SPACE, "Ana", "employer")
    assert after.mode == "Google" and after.distribution == before.distribution
    assert all(d.belief_id != initech for d in mem.deltas(SPACE, "Ana", "employer"))


def test_reprocessing_leaves_an_accepted_or_dismissed_candidate_decided(open_memory: MemoryFactory) -> None:
    """README, Corrections: a dismissed candidate "leaves the repair queue (kept as
    ``rejected``)"; an accepted one "goes" and its belief is the operator's, which ``eywa
    reprocess`` never replaces. A person's decision outlives a new extractor version, as a
    retraction does (test_corrections.py): the next version proposing the same refused facts
    again must not put them back in the repair queue (audit of s21: both came back as
    ``repair``)."""
    mem, _ = _opened(open_memory)
    hiking, chess = _candidate_id(mem, "hiking"), _candidate_id(mem, "chess")
    accepted = mem.accept_candidate(SPACE, hiking, reason="the repair is right", author="key_3")
    mem.dismiss_candidate(SPACE, chess, reason="not worth it", author="key_3")
    decided = ([(c.id, c.status) for c in mem.candidates(SPACE, status=None)],
               [(b.id, b.status) for b in mem.beliefs(SPACE, status=None)])  # fmt: skip
    mem.close()

    mem = open_memory(extractor=_NextVersion(FACTS))
    assert mem.reprocess(SPACE) == 4  # every turn read again; the same facts proposed again
    assert mem.candidates(SPACE, "repair") == []
    assert [(c.id, c.status) for c in mem.candidates(SPACE, status=None)] == [(chess, "rejected")]
    assert decided == ([(chess, "rejected")], [(b.id, b.status) for b in mem.beliefs(SPACE, status=None)])
    assert any(b.id == accepted.belief_id and b.extractor == "operator" for b in mem.beliefs(SPACE))
