"""README, Erasure, "What goes, on both backends" — the items no test showed (audit of s21):

- "co-mention weights they added, and entities no remaining turn mentions";
- "the 'turn with its reply' vector of the turn each one replied to [is] rebuilt without them";
- "Beliefs they had superseded are active again";
- "A belief that cited an erased turn *and* remaining ones is removed too, and those remaining
  turns are marked for Level 1 again: what they still support is re-extracted and
  re-validated as a new belief (belief ids hash the cited turns, so the id changes)".

test_erasure.py erases beliefs that cite one turn each and superseded nothing, and checks the
keyword context of the neighbours but only that the erased vectors are missing. Everything
here goes through ``Memory`` (the entity graph and vectors through the raw indexes behind the
routes, as test_erasure.py does), on both backends.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from eywa import Memory
from eywa.embedding import Embedder
from eywa.ids import entity_id, entity_key
from eywa.models import CandidateFact, Evidence
from eywa.portability.records import EntityLine
from eywa.stores.vectors import VectorPoint
from tests.conformance.conftest import BACKENDS, MemoryFactory, server_settings
from tests.conformance.scripted import ScriptedExtractor
from tests.conformance.test_erasure import FACTS as ERASURE_FACTS
from tests.conformance.test_erasure import TURNS as ERASURE_TURNS

SPACE = "home"
FRESH = "fresh"
# Bo's turns (1, 2, 5) are erased. Turn 1 replies to turn 0; the employer fact about Google
# cites turns 0 and 1 together; Initech (turn 5, Bo's alone) supersedes Hooli (turn 3, Ana's).
TURNS = [
    {"text": "I work at Google as a designer.", "speaker": "Ana", "session": "s1", "observed_at": "2023-01-10T09:00:00"},
    {"text": "Right, Ana works at Google, Cleo knows it.", "speaker": "Bo", "session": "s1",
     "observed_at": "2023-01-10T09:01:00"},
    {"text": "Google pays Ana well, says Cleo.", "speaker": "Bo", "session": "s1", "observed_at": "2023-01-10T09:02:00"},
    {"text": "I joined Hooli in February.", "speaker": "Ana", "session": "s2", "observed_at": "2023-02-10T09:00:00"},
    {"text": "The Hooli office has a garden.", "speaker": "Ana", "session": "s2", "observed_at": "2023-02-10T09:01:00"},
    {"text": "Ana moved to Initech last week, Dax said.", "speaker": "Bo", "session": "s3",
     "observed_at": "2023-03-01T09:00:00"},
]  # fmt: skip
EMPLOYERS = ("Google", "Hooli", "Initech")
JOB_WORDS = ("work", "joined", "moved")


class CitingExtractor:
    """Proposes "Ana works at X" citing every turn of the batch that names X (a stand-in
    for an LLM citing several turns), so a fact rests on an erased turn and a kept one."""

    name = "citing"

    def propose(self, space: str, evidence: Sequence[Evidence]) -> Iterable[CandidateFact]:
        for employer in EMPLOYERS:
            cited = tuple(t.id for t in evidence if employer in t.text and any(w in t.text for w in JOB_WORDS))
            if cited:
                yield CandidateFact(statement=f"Ana works at {employer}.", subject="Ana", attribute="employer",
                                    value=employer, evidence_ids=cited)  # fmt: skip


def entity_names(mem: Memory, space: str) -> set[str]:
    return {r.entity.name for r in mem.export_space(space) if isinstance(r, EntityLine)}


def heaviest_neighbour(mem: Memory, space: str) -> str:
    """The entity Ana's heaviest co-mention edge leads to (the graph route's expansion)."""
    names = {entity_id(space, entity_key(n)): n for n in entity_names(mem, space)}
    reach = mem._stores.graph.neighbours(space, [entity_id(space, entity_key("Ana"))], 1, 1)
    (found,) = [names[e] for e, hops in reach.entities.items() if hops == 1]
    return found


def own_vector_score(mem: Memory, evidence_id: str, text: str) -> float:
    """The vector score of ``evidence_id`` for exactly ``text`` (1.0: its vector covers that)."""
    query = np.asarray(mem._embedder.embed([text])[0], dtype=np.float32)
    return dict(mem._stores.vectors.search("evidence", SPACE, query, 10)).get(evidence_id, 0.0)


def test_erasure_takes_back_entities_weights_reply_vectors_and_revives_and_reextracts(
    open_memory: MemoryFactory,
) -> None:
    mem = open_memory(CitingExtractor())
    ids = mem.remember(SPACE, TURNS, wait=True)
    by_statement = {b.statement: b for b in mem.beliefs(SPACE, status=None)}
    google, hooli = by_statement["Ana works at Google."], by_statement["Ana works at Hooli."]
    assert set(google.evidence_ids) == {ids[0], ids[1]}
    assert hooli.status == "superseded" and by_statement["Ana works at Initech."].status == "active"
    assert {"Bo", "Cleo", "Dax", "Initech"} <= entity_names(mem, SPACE)
    assert heaviest_neighbour(mem, SPACE) in {"Google", "Bo"}  # weight 3 each; Hooli has 2
    alone = f"Ana: {TURNS[0]['text']}"
    assert own_vector_score(mem, ids[0], alone) < 0.99  # its vector covers Bo's reply too

    report = mem.forget(SPACE, speaker="Bo")
    assert report.counts["turns"] == 3 and report.counts["beliefs"] == 2
    # Entities only Bo's turns named go; those a remaining turn names stay.
    assert entity_names(mem, SPACE) == {"Ana", "Google", "Hooli"}
    # Google's weight with Ana fell from 3 to 1 (Bo's two turns taken back): Hooli (2) leads.
    assert heaviest_neighbour(mem, SPACE) == "Hooli"
    # Turn 0's vector is rebuilt without Bo's reply.
    assert own_vector_score(mem, ids[0], alone) > 0.999
    # The belief Bo's Initech superseded is active again.
    after = {b.statement: b for b in mem.beliefs(SPACE, status=None)}
    assert after["Ana works at Hooli."].id == hooli.id and after["Ana works at Hooli."].status == "active"
    assert "Ana works at Initech." not in after
    # The Google belief cited Bo's turn and Ana's: it went, and Ana's turn owes Level 1 again.
    assert "Ana works at Google." not in after and mem.pending(SPACE).level1 == 1
    mem.reconcile(SPACE)
    (regained,) = [b for b in mem.beliefs(SPACE, status=None) if b.statement == "Ana works at Google."]
    assert regained.evidence_ids == (ids[0],) and regained.id != google.id
    assert mem.pending(SPACE).level1 == 0

    # All of it equals a memory that only ever saw Ana's turns.
    kept = [t for t in TURNS if t["speaker"] == "Ana"]
    mem.remember(FRESH, kept, wait=True)
    fresh = {b.statement: b.status for b in mem.beliefs(FRESH, status=None)}
    assert {b.statement: b.status for b in mem.beliefs(SPACE, status=None)} == fresh
    assert entity_names(mem, FRESH) == entity_names(mem, SPACE)
    assert heaviest_neighbour(mem, FRESH) == "Hooli"
    ours, theirs = mem.dimension(SPACE, "Ana", "employer"), mem.dimension(FRESH, "Ana", "employer")
    assert ours.mode == theirs.mode and ours.distribution.keys() == theirs.distribution.keys()
    assert all(abs(ours.distribution[k] - theirs.distribution[k]) < 1e-9 for k in ours.distribution)


class HeldEmbedder:
    """The suite's embedder; the first call that embeds ``WORD`` answers only once the test
    lets it (the model of a ``remember`` still running when another thread erases)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.model_id, self.dim = inner.model_id, inner.dim
        self.reading, self.answer = threading.Event(), threading.Event()

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if not self.reading.is_set() and any(WORD in t for t in texts):
            self.reading.set()
            assert self.answer.wait(60), "the test never let the embedder answer"
        return self.inner.embed(texts)


WORD = "Zephyrwick"


def test_a_remember_still_embedding_when_its_turns_are_erased_leaves_no_vector_of_them(
    request: pytest.FixtureRequest, tmp_path: Path, embedder: Embedder, backend: str
) -> None:
    """``remember(wait=True)`` embeds its turns on the caller's thread once they are stored;
    ``forget`` from another thread (another request to ``eywa serve``) can erase them while
    the model runs. README: after ``forget`` no vector search returns the erased ids, and
    the proof counts vector points under an erased id as residue."""
    held = HeldEmbedder(embedder)
    if backend == "server":
        mem = Memory.connect(server_settings(request, tmp_path), embedder=held)
    else:
        mem = Memory.open(tmp_path / "mem", embedder=held)
    turns = [{"text": "I work at Google as a designer.", "speaker": "Ana", "session": "s1"},
             {"text": f"Ana now works at {WORD}, she told me.", "speaker": "Bo", "session": "s1"}]  # fmt: skip
    try:
        with ThreadPoolExecutor(1) as pool:
            remembered = pool.submit(mem.remember, SPACE, turns, wait=True)
            assert held.reading.wait(60)  # stored, and its model is embedding them
            report = mem.forget(SPACE, speaker="Bo")
            held.answer.set()
            ids = remembered.result(60)
        assert mem._stores.vectors.missing("evidence", [ids[1]]) == {ids[1]}
        assert mem.erasure_proof(SPACE, report.erasure_id).total == 0
    finally:
        held.answer.set()
        mem.close()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_a_vector_left_under_an_erased_id_hydrates_to_nothing(open_memory: MemoryFactory) -> None:
    """README, Erasure, crash safety: between the first step and the vectors' deletion
    ("milliseconds, or until the next open after a crash") "a vector hit on an erased id
    hydrates to nothing". The vectors of Bo's turns and belief are put back after the
    erasure, as that window leaves them, and no recall returns them or their words."""
    mem = open_memory(ScriptedExtractor(ERASURE_FACTS))
    ids = mem.remember(SPACE, ERASURE_TURNS, wait=True)
    bo = [ids[1], ids[3]]
    beliefs = [b for b in mem.beliefs(SPACE, status=None) if set(b.evidence_ids) & set(bo)]
    texts = [t["text"] for t in ERASURE_TURNS]
    mem.forget(SPACE, speaker="Bo")
    vectors = mem._embedder.embed([texts[1], texts[3], *(b.statement for b in beliefs)])
    mem._stores.vectors.upsert("evidence", [VectorPoint(id=i, space=SPACE, vector=v) for i, v in zip(bo, vectors, strict=False)])
    mem._stores.vectors.upsert("belief", [VectorPoint(id=b.id, space=SPACE, vector=v) for b, v in zip(beliefs, vectors[2:], strict=True)])
    assert mem._stores.vectors.missing("evidence", bo) == set()  # the window's state: the vector route hits them
    assert ids[1] in {i for i, _ in mem._stores.vectors.search("evidence", SPACE, vectors[0], 3)}
    for policy in ("strict", "balanced", "advanced"):
        for query in (WORD, texts[1], f"Who works at {WORD}?"):
            result = mem.recall(SPACE, query, k=50, policy=policy)
            shown = result.context + "".join(item.model_dump_json() for item in result.items)
            shown = shown.replace(query, "")  # the trace echoes the query
            assert WORD not in shown and not any(i in shown for i in [*bo, *(b.id for b in beliefs)]), (policy, query)
