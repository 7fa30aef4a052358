"""An erasure beside a Level 1 of another process (an API replica, a worker) that read the
turns before it: what that Level 1 proposes from them afterwards is not written.

README, Erasure: "queued work for an erased turn finds its tombstone and does nothing" and,
after ``forget``, no belief or candidate "returns X's words or the erased ids". One process
serialises its erasures with its own stage work (``Reconciler.call``); two processes on one
Neo4j do not. Here replica A reads Bo's turns for Level 1 and its extractor (an LLM call:
seconds) is still answering when replica B erases Bo; then A writes what it proposed.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import pytest

from eywa import Memory, level1
from eywa.embedding import Embedder
from eywa.indexing import embed_due
from eywa.models import Belief, CandidateFact, Delta, Evidence
from eywa.nous.ledger import apply_beliefs as ledger_apply_beliefs
from eywa.stores.neo4j import beliefs as neo4j_beliefs
from tests.conformance.conftest import replica_settings, server_settings
from tests.conformance.test_erasure import FACTS, SPACE, TURNS, WORD, ScriptedExtractor
from tests.reliability.support import HashEmbedder

pytestmark = pytest.mark.neo4j


class HeldExtractor:
    """The scripted facts of test_erasure, proposed only once the test lets it answer."""

    name = "scripted"

    def __init__(self) -> None:
        self.reading = threading.Event()
        self.answer = threading.Event()

    def propose(self, space: str, evidence: Sequence[Evidence]) -> Iterable[CandidateFact]:
        self.reading.set()
        assert self.answer.wait(60), "the test never let the extractor answer"
        return [CandidateFact(evidence_ids=(turn.id,), **fact)
                for turn in evidence for key, facts in FACTS.items() if key in turn.text for fact in facts]  # fmt: skip


def test_what_a_level1_read_before_an_erasure_proposes_after_it_is_not_written(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    settings = server_settings(request, tmp_path)
    embedder: Embedder = HashEmbedder()
    held = HeldExtractor()
    replica_a = Memory.connect(settings, embedder=embedder, extractor=held)
    replica_b = Memory.connect(replica_settings(settings, tmp_path, "b"), embedder=embedder)
    try:
        ids = replica_a.remember(SPACE, TURNS, wait=False)
        assert held.reading.wait(60)  # A's Level 1 has read the turns and waits for its LLM
        report = replica_b.forget(SPACE, speaker="Bo")
        assert report.state == "done" and report.counts["turns"] == 2
        held.answer.set()
        replica_a.wait()

        beliefs = replica_b.beliefs(SPACE, status=None)
        candidates = replica_b.candidates(SPACE, status=None)
        assert [b.statement for b in beliefs if WORD in b.model_dump_json()] == []
        assert [c.fact.statement for c in candidates if {ids[1], ids[3]} & set(c.fact.evidence_ids)] == []
        assert WORD not in replica_b.dimension(SPACE, "Ana", "employer").model_dump_json()
        assert replica_b.erasure_proof(SPACE, report.erasure_id).total == 0
        assert {b.statement for b in beliefs} == {"Ana works at Google."}  # Ana's turns were read
    finally:
        held.answer.set()
        replica_a.close()
        replica_b.close()


def test_a_dimension_update_read_before_an_erasure_writes_no_delta_of_an_erased_belief_after_it(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Nous step reads the beliefs citing its turns, then updates their dimensions under
    the dimension lock (a Redis lease a worker may wait seconds for): an erasure that
    removes those beliefs and replays the dimension in between must not be undone."""
    settings = server_settings(request, tmp_path)
    embedder: Embedder = HashEmbedder()
    reading, answer = threading.Event(), threading.Event()
    apply = ledger_apply_beliefs  # what level1.apply_beliefs is until patched below

    def held(*args: Any, **kwargs: Any) -> list[Delta]:
        reading.set()
        assert answer.wait(60), "the test never let the update go on"
        return apply(*args, **kwargs)

    monkeypatch.setattr(level1, "apply_beliefs", held)
    replica_a = Memory.connect(settings, embedder=embedder, extractor=ScriptedExtractor())
    replica_b = Memory.connect(replica_settings(settings, tmp_path, "b"), embedder=embedder)
    try:
        replica_a.remember(SPACE, TURNS, wait=False)
        assert reading.wait(60)  # A has read the beliefs citing the turns and waits for the lock
        report = replica_b.forget(SPACE, speaker="Bo")
        answer.set()
        replica_a.wait()

        assert WORD not in replica_b.dimension(SPACE, "Ana", "employer").model_dump_json()
        assert [d.observed for d in replica_b.deltas(SPACE, "Ana", "employer") if WORD in d.model_dump_json()] == []
        assert replica_b.erasure_proof(SPACE, report.erasure_id).total == 0
    finally:
        answer.set()
        replica_a.close()
        replica_b.close()


class HeldEmbedder(HashEmbedder):
    """The hash embedder, answering its first call only once the test lets it."""

    def __init__(self) -> None:
        super().__init__()
        self.reading, self.answer = threading.Event(), threading.Event()

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if not self.reading.is_set():
            self.reading.set()
            assert self.answer.wait(60), "the test never let the embedder answer"
        return super().embed(texts)


@pytest.mark.parametrize("kind", ["evidence", "belief"])
def test_a_vector_embedded_beside_an_erasure_is_not_left_under_an_erased_id(
    request: pytest.FixtureRequest, tmp_path: Path, kind: Literal["evidence", "belief"]
) -> None:
    """Celery workers embed when they share the vector store (a Qdrant server): a worker's
    ``embed_due`` read Bo's turns (or the beliefs citing them), and its model is still
    embedding them when the API erases Bo; its upsert must not leave vectors under the
    erased ids. The task runs here on the API's own stores, standing for a worker on the
    shared vector store, as in tests/workers/test_worker_embeds.py."""
    settings = server_settings(request, tmp_path)
    mem = Memory.connect(settings, embedder=HashEmbedder(), extractor=ScriptedExtractor(), embed_writes=False)
    held = HeldEmbedder()
    try:
        ids = mem.remember(SPACE, TURNS, wait=True)
        stage: Literal["embed_evidence", "embed_belief"] = "embed_evidence" if kind == "evidence" else "embed_belief"
        worker = threading.Thread(
            target=embed_due, args=(mem._stores, held, stage), kwargs={"limit": 100, "lease_s": 60, "batch_size": 64}
        )
        worker.start()
        assert held.reading.wait(60)  # the worker has read the items and is embedding them
        report = mem.forget(SPACE, speaker="Bo")
        held.answer.set()
        worker.join(60)

        erased = {ids[1], ids[3]} if kind == "evidence" else set(mem.erasures(SPACE)[0].belief_ids)
        assert erased and mem._stores.vectors.missing(kind, sorted(erased)) == erased
        assert mem.erasure_proof(SPACE, report.erasure_id).total == 0
    finally:
        held.answer.set()
        mem.close()


def test_a_level1_batch_committing_while_the_erasure_waits_for_its_turns_is_removed_too(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The narrow case of the first test: A's batch passed its tombstone check before the
    erasure's first transaction committed, and commits while that transaction waits for the
    turns A's beliefs link to (Neo4j locks them). The erasure listed the beliefs citing the
    turns before, so it must find A's belief again, or it stays citing erased turns."""
    settings = server_settings(request, tmp_path)
    embedder: Embedder = HashEmbedder()
    linked, commit = threading.Event(), threading.Event()
    original = neo4j_beliefs._link_rows

    def held_links(beliefs: Sequence[Belief]) -> dict[str, list[dict[str, Any]]]:
        if any(WORD in b.statement for b in beliefs) and not linked.is_set():
            linked.set()  # the batch's transaction is open, its tombstone check passed
            assert commit.wait(60), "the test never let the batch commit"
        return original(beliefs)

    monkeypatch.setattr(neo4j_beliefs, "_link_rows", held_links)
    replica_a = Memory.connect(settings, embedder=embedder, extractor=ScriptedExtractor())
    replica_b = Memory.connect(replica_settings(settings, tmp_path, "b"), embedder=embedder)
    try:
        with ThreadPoolExecutor(1) as pool:
            ids = replica_a.remember(SPACE, TURNS, wait=False)
            assert linked.wait(60)
            erasing = pool.submit(replica_b.forget, SPACE, speaker="Bo")
            time.sleep(1.0)  # the erasure lists the beliefs (none yet) and reaches the turns
            commit.set()
            report = erasing.result(60)
        replica_a.wait()
        assert [b.statement for b in replica_b.beliefs(SPACE, status=None) if WORD in b.statement] == []
        assert [c.id for c in replica_b.candidates(SPACE, status=None) if {ids[1], ids[3]} & set(c.fact.evidence_ids)] == []
        assert WORD not in replica_b.dimension(SPACE, "Ana", "employer").model_dump_json()
        assert replica_b.erasure_proof(SPACE, report.erasure_id).total == 0
    finally:
        commit.set()
        replica_a.close()
        replica_b.close()
