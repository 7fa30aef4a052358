"""Erasure on every backend, through ``Memory``: after ``forget(speaker=X)`` nothing X said is
returned by any read — recall (every policy, several k), beliefs, candidates, dimensions,
evidence lookups, audits (each one that lists a space), keyword and vector search — also after
reopening; the dimension X's turns changed equals that of a memory that never saw them; the
proof shows zero residue; bad selectors erase nothing; a re-sent erased turn is refused."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pytest

from eywa import Memory
from eywa.errors import ErasedError, InvalidInputError, NotFoundError
from eywa.models import CandidateFact, Evidence
from tests.conformance.conftest import MemoryFactory

SPACE = "home"
WORD = "Zephyrwick"  # said only by Bo
TURNS = [
    {"text": "I work at Google as a designer.", "speaker": "Ana", "session": "s1", "observed_at": "2023-01-10T09:00:00"},
    {"text": f"Ana now works at {WORD}, she told me.", "speaker": "Bo", "session": "s1",
     "observed_at": "2023-01-10T09:01:00"},
    {"text": "Google is fine, the commute is long.", "speaker": "Ana", "session": "s1",
     "observed_at": "2023-01-10T09:02:00"},
    {"text": f"Everyone at {WORD} owns a yacht.", "speaker": "Bo", "session": "s2", "observed_at": "2023-02-01T09:00:00"},
    {"text": "I still work at Google these days.", "speaker": "Ana", "session": "s2",
     "observed_at": "2023-02-01T09:01:00"},
]  # fmt: skip
FACTS: dict[str, list[dict[str, Any]]] = {
    "work at Google as": [{"statement": "Ana works at Google.", "subject": "Ana", "attribute": "employer",
                           "value": "Google"}],
    f"works at {WORD}": [{"statement": f"Ana works at {WORD}.", "subject": "Ana", "attribute": "employer",
                          "value": WORD}],
    "owns a yacht": [{"statement": "Ana owns a sailing boat.", "subject": "Ana", "attribute": "owns",
                      "value": "sailing boat"}],  # refused: a candidate citing Bo's turn
    "still work at Google": [{"statement": "Ana works at Google.", "subject": "Ana", "attribute": "employer",
                              "value": "Google"}],
}  # fmt: skip


class ScriptedExtractor:
    """Proposes fixed facts for turns whose text contains a key (a stand-in for an LLM)."""

    name = "scripted"

    def propose(self, space: str, evidence: Sequence[Evidence]) -> Iterable[CandidateFact]:
        for turn in evidence:
            for key, facts in FACTS.items():
                if key in turn.text:
                    for fact in facts:
                        yield CandidateFact(evidence_ids=(turn.id,), **fact)


def leaks(mem: Memory, ids: set[str]) -> list[str]:
    """Every public read that returns the word or an erased id (empty when erased)."""
    found = []
    for policy in ("strict", "balanced", "advanced"):
        for k in (1, 5, 50):
            for query in (WORD, "Where does Ana work?", f"Who works at {WORD}?"):
                result = mem.recall(SPACE, query, k=k, policy=policy)  # the trace echoes the query
                text = result.context + "".join(item.model_dump_json() for item in result.items)
                if WORD in text or any(i in text for i in ids):
                    found.append(f"recall {policy} k={k} {query!r}")
    reads = {
        "beliefs": [b.model_dump_json() for b in mem.beliefs(SPACE, status=None)],
        "candidates": [c.model_dump_json() for c in mem.candidates(SPACE, status=None)],
        "dimensions": [d.model_dump_json() for d in mem.dimensions(SPACE)],
        "deltas": [d.model_dump_json() for d in mem.deltas(SPACE, "Ana", "employer")],
        "stats": [str(mem.stats(SPACE))],
    }
    for name, texts in reads.items():
        if any(WORD in t or any(i in t for i in ids) for t in texts):
            found.append(name)
    for evidence_id in ids:
        try:
            mem.evidence(SPACE, evidence_id)
            found.append(f"evidence {evidence_id}")
        except NotFoundError:
            pass
        if mem.audit("derived_from_turn", {"space": SPACE, "evidence_id": evidence_id}).rows:
            found.append(f"audit derived_from_turn {evidence_id}")
    every_audit = {  # the audits that list a space's content (derived_from_turn: per id, above)
        "timeline": {"space": SPACE, "limit": "1000"},
        "touched_between": {"space": SPACE, "from": "2000-01-01T00:00:00Z", "to": "2100-01-01T00:00:00Z"},
        "dimension_history": {"space": SPACE, "entity": "Ana", "attribute": "employer"},
        "rejected_by_reason": {"space": SPACE},
        "merged_entities": {"space": SPACE},
    }
    for name, params in every_audit.items():
        rows = str(mem.audit(name, params).rows)
        if WORD in rows or any(i in rows for i in ids):
            found.append(f"audit {name}")
    stores = mem._stores  # the raw indexes behind the routes
    if stores.keyword.search(SPACE, WORD, 50, ("evidence", "belief")):
        found.append("keyword index")
    vector = np.asarray(mem._embedder.embed([WORD])[0], dtype=np.float32)
    for kind in ("evidence", "belief"):
        if {i for i, _ in stores.vectors.search(kind, SPACE, vector, 100)} & ids:
            found.append(f"{kind} vectors")
    return found


def dimension_view(mem: Memory) -> tuple[Any, ...]:
    dim = mem.dimension(SPACE, "Ana", "employer")
    deltas = [(d.observed, d.reliability, d.surprise_bits, d.prior, d.posterior, d.at) for d in
              mem.deltas(SPACE, "Ana", "employer")]  # fmt: skip
    return dim.distribution, dim.mode, dim.entropy_bits, deltas


def test_forget_a_speaker_leaves_nothing_of_what_they_said(open_memory: MemoryFactory) -> None:
    mem = open_memory(ScriptedExtractor())
    ids = mem.remember(SPACE, TURNS, wait=True)
    bo = {ids[1], ids[3]}
    assert WORD in mem.dimension(SPACE, "Ana", "employer").model_dump_json()  # Bo's turn changed it
    assert any(WORD in c.model_dump_json() or c.fact.evidence_ids[0] in bo for c in mem.candidates(SPACE))
    before = leaks(mem, bo)  # the checks can fail
    assert {"audit timeline", "audit touched_between", "audit dimension_history", "keyword index"} <= set(before)

    report = mem.forget(SPACE, speaker="Bo", author="k_test")
    assert report.state == "done" and report.counts["turns"] == 2 and report.counts["beliefs"] == 1
    assert report.counts["candidates"] == 1 and WORD not in report.model_dump_json()
    assert leaks(mem, bo) == []
    proof = mem.erasure_proof(SPACE, report.erasure_id)
    assert proof.turns == 2 and proof.total == 0 and set(proof.residue) >= {"evidence", "keyword", "vectors", "deltas"}
    with pytest.raises(ErasedError):
        mem.remember(SPACE, [TURNS[1]], wait=True)
    (record,) = mem.erasures(SPACE)
    assert record.author == "k_test" and record.selector.speaker == "Bo" and len(record.turns) == 2
    assert WORD not in record.model_dump_json()
    erased_view = dimension_view(mem)
    mem.close()

    again = open_memory(ScriptedExtractor())
    assert leaks(again, bo) == []
    assert again.erasure_proof(SPACE, report.erasure_id).total == 0
    assert dimension_view(again) == erased_view
    # The same extractor over only Ana's turns gives the same dimension (replay, not patch).
    kept = [t for t in TURNS if t["speaker"] == "Ana"]
    again.remember("fresh", kept, wait=True)
    fresh = again.dimension("fresh", "Ana", "employer")
    erased = again.dimension(SPACE, "Ana", "employer")
    assert (fresh.distribution, fresh.mode) == (erased.distribution, erased.mode)
    assert fresh.entropy_bits == pytest.approx(erased.entropy_bits, abs=1e-9)


def test_neighbours_keyword_context_and_vectors_are_rebuilt(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    ids = mem.remember(SPACE, TURNS[:3], wait=True)
    assert ids[0] in {i for _, i, _ in mem._stores.keyword.search(SPACE, WORD, 10)}  # borrowed from seq+1
    mem.forget(SPACE, evidence_ids=[ids[1]])
    assert mem._stores.keyword.search(SPACE, WORD, 10) == []
    assert mem.recall(SPACE, "Google commute", k=5).items  # the neighbours are still found
    assert mem._stores.vectors.missing("evidence", ids) == {ids[1]}


def test_bad_selectors_erase_nothing(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    ids = mem.remember(SPACE, TURNS[:2], wait=True)
    with pytest.raises(InvalidInputError, match="at least one selector"):
        mem.forget(SPACE)
    with pytest.raises(NotFoundError, match="ev_unknown"):
        mem.forget(SPACE, evidence_ids=[ids[0], "ev_unknown"])
    with pytest.raises(NotFoundError, match="nope"):
        mem.forget(SPACE, external_ids=["nope"])
    with pytest.raises(InvalidInputError):
        mem.forget(SPACE, evidence_ids=[])
    assert mem.stats(SPACE)["evidence"] == 2 and mem.erasures(SPACE) == []
    # Selectors combine with AND: Bo's turns of session s2 only.
    assert mem.forget(SPACE, speaker="Bo", session="s2").counts["turns"] == 0
    assert mem.forget(SPACE, speaker="Ana", before="2023-01-10T09:00:30").counts["turns"] == 1
    assert [e.id for e in mem._stores.evidence.get(SPACE, ids)] == [ids[1]]


def test_drop_space_erases_only_that_space(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    mem.remember(SPACE, TURNS, wait=True)
    kept = mem.remember("other", TURNS[:1], wait=True)
    report = mem.drop_space(SPACE)
    assert report.counts["turns"] == len(TURNS)
    assert mem.stats(SPACE)["evidence"] == 0 and mem.erasure_proof(SPACE, report.erasure_id).total == 0
    assert [e.id for e in mem._stores.evidence.get("other", kept)] == kept



def test_drop_space_answers_a_retry_with_the_first_drop_and_refuses_a_space_never_held(
    open_memory: MemoryFactory,
) -> None:
    """Both backends read drop_space's selector back as a drop (the end of time, as each store
    keeps it): a retried drop records nothing more; a space never held is refused."""
    mem = open_memory()
    mem.remember(SPACE, TURNS, wait=True)
    first = mem.drop_space(SPACE)
    assert mem.drop_space(SPACE).erasure_id == first.erasure_id
    assert [r.id for r in mem.erasures(SPACE)] == [first.erasure_id]
    with pytest.raises(NotFoundError):
        mem.drop_space("never-held")
    assert mem.erasures("never-held") == []


def test_a_forget_retried_after_it_was_done_answers_with_the_erasure_it_made(open_memory: MemoryFactory) -> None:
    """A forget whose answer was lost and that is sent again (the Client retries): by external
    ids it was refused as unknown ids (the turns are gone), by speaker it recorded a second
    erasure of nothing, telling the caller nothing was erased. Each now answers with the
    erasure it made and records nothing more; a new turn by that speaker is erased anew."""
    mem = open_memory()
    mem.remember(SPACE, [{**TURNS[0], "external_id": "x1"}, *TURNS[1:]], wait=True)
    by_ids = mem.forget(SPACE, external_ids=["x1"])
    assert mem.forget(SPACE, external_ids=["x1"]) == by_ids
    by_speaker = mem.forget(SPACE, speaker="Bo", before="2023-03-01T00:00:00")
    assert by_speaker.counts["turns"] == 2
    assert mem.forget(SPACE, speaker="Bo", before="2023-03-01T00:00:00") == by_speaker
    assert [r.id for r in mem.erasures(SPACE)] == [by_ids.erasure_id, by_speaker.erasure_id]
    mem.remember(SPACE, [{"text": "Back again.", "speaker": "Bo", "session": "s3", "observed_at": "2023-02-10T09:00:00"}],
                 wait=True)  # fmt: skip
    again = mem.forget(SPACE, speaker="Bo", before="2023-03-01T00:00:00")
    assert again.erasure_id != by_speaker.erasure_id and again.counts["turns"] == 1


def test_a_partial_forget_leaves_no_erased_id_in_a_job(open_memory: MemoryFactory) -> None:
    """A job lists the turns it was submitted with; erasing some of them takes their ids out
    of it (the proof's ``jobs`` residue), the rest of the job stays readable."""
    mem = open_memory(ScriptedExtractor())
    ids = mem.remember(SPACE, TURNS, wait=True)
    job_id = mem.record_job(SPACE, ids, author="k_test")
    other = mem.record_job(SPACE, [ids[0]])  # a job without an erased turn is left as it was
    bo_only = mem.record_job(SPACE, [ids[1]])  # every turn erased: a job of none, done
    assert mem.job(job_id).detail["evidence"] == 5

    report = mem.forget(SPACE, speaker="Bo")
    job = mem.job(job_id)
    assert job.status == "done" and job.detail["evidence"] == 3 and job.detail["author"] == "k_test"
    proof = mem.erasure_proof(SPACE, report.erasure_id)
    assert proof.residue["jobs"] == 0 and proof.total == 0
    assert mem.job(other).detail["evidence"] == 1
    assert mem.job(bo_only).status == "done" and mem.job(bo_only).detail["evidence"] == 0
