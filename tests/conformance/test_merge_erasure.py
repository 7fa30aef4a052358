"""Identity merges after an erasure, on every backend, through ``Memory``: a merge whose
entity is left without any evidence is deleted with its erased name, a merge whose KL test no
longer holds on the remaining dimensions is undone with ``removed_by = "erasure:<id>"``, a
proposal resting on erased turns is no longer proposed, and the report counts the merges."""

from __future__ import annotations

from eywa import Memory
from eywa.models import utc_now
from eywa.stores.dimensions import SameAsEdge
from tests.conformance.conftest import MemoryFactory
from tests.conformance.scripted import ScriptedExtractor

SPACE = "home"
ANA = {"text": "I work at Google as a designer.", "speaker": "Ana", "session": "s1", "observed_at": "2023-01-10T09:00:00"}
FACTS = {
    "work at Google as": [{"statement": "Ana works at Google.", "subject": "Ana", "attribute": "employer", "value": "Google"}],
    "Anna works at Google": [{"statement": "Anna works at Google.", "subject": "Anna", "attribute": "employer",
                              "value": "Google"}],
    "Anna works at Initech": [{"statement": "Anna works at Initech.", "subject": "Anna", "attribute": "employer",
                               "value": "Initech"}],
}  # fmt: skip


def _names(mem: Memory) -> str:
    """Everything the merge read and the merge audit return, as one text."""
    audit = mem.audit("merged_entities", {"space": SPACE}).records()
    return " ".join([*(e.model_dump_json() for e in mem.merges(SPACE, include_removed=True)), str(audit)])


def test_a_merge_whose_entity_lost_all_evidence_is_deleted(open_memory: MemoryFactory) -> None:
    mem = open_memory(ScriptedExtractor(FACTS))
    bo = {"text": "Anna works at Google too, she said.", "speaker": "Bo", "session": "s1", "observed_at": "2023-01-10T09:01:00"}
    mem.remember(SPACE, [ANA, bo], wait=True)
    (proposal,) = [p for p in mem.propose_merges(SPACE) if {p.source, p.target} == {"Ana", "Anna"}]
    mem.accept_merge(SPACE, proposal.source, proposal.target, score=proposal.score)
    assert "anna" in _names(mem).casefold()

    report = mem.forget(SPACE, speaker="Bo")  # Anna was only ever in Bo's turn

    assert report.counts["merges"] == 1
    assert mem.merges(SPACE, include_removed=True) == [] and "anna" not in _names(mem).casefold()
    assert mem.propose_merges(SPACE) == [] and len(mem.deltas(SPACE, "Ana", "employer")) == 1
    assert mem.erasure_proof(SPACE, report.erasure_id).total == 0
    # The proof would see a merge left naming an entity without evidence (the check can fail).
    mem._stores.dimensions.add_same_as(SameAsEdge(space=SPACE, source="ana", target="anna", score=1.0, at=utc_now()))
    assert mem.erasure_proof(SPACE, report.erasure_id).residue["merges"] == 1


def test_a_merge_whose_kl_test_fails_on_what_remains_is_undone_by_the_erasure(open_memory: MemoryFactory) -> None:
    mem = open_memory(ScriptedExtractor(FACTS))
    cy = {"text": "Anna works at Initech, I heard from Anya.", "speaker": "Cy", "session": "s1", "observed_at": "2023-01-11T09:00:00"}
    bo = {"text": "Anna works at Google now, she said.", "speaker": "Bo", "session": "s2",
          "observed_at": "2023-06-01T09:00:00"}  # fmt: skip
    mem.remember(SPACE, [ANA, cy, bo], wait=True)
    assert [p for p in mem.propose_merges(SPACE) if {p.source, p.target} == {"Ana", "Anna"}]  # Bo's turn made them agree
    mem.accept_merge(SPACE, "Ana", "Anna")
    mem.accept_merge(SPACE, "Ana", "Anya")  # by hand, about no entity the erasure touches: kept

    report = mem.forget(SPACE, speaker="Bo")

    assert report.counts["merges"] == 1
    assert [(e.source, e.target) for e in mem.merges(SPACE)] == [("ana", "anya")]
    (undone,) = [e for e in mem.merges(SPACE, include_removed=True) if not e.active]
    assert (undone.source, undone.target) == ("ana", "anna") and undone.removed_by == f"erasure:{report.erasure_id}"
    assert not [p for p in mem.propose_merges(SPACE) if {p.source, p.target} == {"Ana", "Anna"}]
    assert len(mem.deltas(SPACE, "Ana", "employer")) == 1  # reads no longer follow the undone merge
    assert mem.forget(SPACE, speaker="Cy").counts["merges"] == 2  # Anna and Anya are left without evidence
    assert mem.merges(SPACE, include_removed=True) == []
