"""An erasure larger than one Neo4j transaction's chunk (``ERASE_CHUNK``, made tiny here):
removed chunk by chunk, interrupted between two chunks, finished by the next open, and then
equal to the same erasure done in one transaction: the same turns, entities and reads, the
proof at zero residue and the erased word in no read (a whole 10,000-turn space in one
transaction ran a 2 GB Neo4j out of heap)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from neo4j import ManagedTransaction

from eywa import Memory, crashpoints
from eywa.crashpoints import CrashPoint
from eywa.embedding.minilm import MiniLMEmbedder
from eywa.stores.ledger import PendingStage
from eywa.stores.neo4j import erasure as neo4j_erasure
from eywa.stores.neo4j import ledger as neo4j_ledger
from tests.conformance.conftest import server_settings
from tests.conformance.test_erasure import SPACE, WORD, ScriptedExtractor, leaks
from tests.suite_threads import SUITE_EMBED_THREADS

pytestmark = pytest.mark.neo4j

# Bo's turns (the erased ones) between Ana's, over three sessions: several chunks of two,
# each with neighbours whose keyword context borrowed Bo's words.
TURNS = [
    {"text": text, "speaker": speaker, "session": f"s{n // 4}", "observed_at": f"2023-0{1 + n // 4}-10T09:0{n % 4}:00"}
    for n, (speaker, text) in enumerate([
        ("Ana", "I work at Google as a designer."), ("Bo", f"Ana now works at {WORD}, she told me."),
        ("Ana", "Google is fine, the commute is long."), ("Bo", f"Everyone at {WORD} owns a yacht."),
        ("Ana", "I still work at Google these days."), ("Bo", f"The {WORD} office has a rooftop garden."),
        ("Ana", "We planted tomatoes on our balcony."), ("Bo", f"Lunch at {WORD} is free on Fridays."),
        ("Ana", "My sister visits in June."), ("Bo", f"I met Carla from {WORD} at the market."),
        ("Ana", "Carla makes great bread."), ("Bo", "Say hi to Carla for me."),
    ])
]  # fmt: skip
QUESTIONS = ["Where does Ana work?", "Who makes bread?", "What grows on the balcony?", "Who visits in June?"]


class Interrupted(Exception):
    """The injected fault: the process stops between two chunks."""


def test_a_chunked_erasure_interrupted_between_chunks_is_finished_and_equals_one_transaction(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = server_settings(request, tmp_path)
    embedder = MiniLMEmbedder(threads=SUITE_EMBED_THREADS)

    def open_memory() -> Memory:
        return Memory.connect(settings, embedder=embedder, extractor=ScriptedExtractor())

    mem = open_memory()
    for space in (SPACE, "whole"):  # the same turns: SPACE is erased in chunks, "whole" at once
        mem.remember(space, TURNS, wait=True)
    whole = mem.forget("whole", speaker="Bo")  # six turns, within the default chunk: one transaction
    assert whole.counts["turns"] == 6

    chunks: list[CrashPoint] = []

    def reached(point: CrashPoint) -> None:
        if point == "erasure_chunk_removed":
            chunks.append(point)
            raise Interrupted(point)

    monkeypatch.setattr(neo4j_erasure, "ERASE_CHUNK", 2)
    monkeypatch.setattr(crashpoints, "reached", reached)
    with pytest.raises(Interrupted):
        mem.forget(SPACE, speaker="Bo")
    assert len(chunks) == 1  # stopped after the first of three chunks
    (pending,) = mem.erasures(SPACE)
    assert pending.state == "pending"
    assert mem.stats(SPACE)["evidence"] == len(TURNS) - 2  # one chunk of Bo's turns gone, two not yet
    mem.close()
    monkeypatch.setattr(crashpoints, "reached", lambda point: None)

    again = open_memory()  # the open finishes the pending erasure, chunk by chunk
    try:
        again.wait()
        (record,) = again.erasures(SPACE)
        assert record.state == "done"
        proof = again.erasure_proof(SPACE, record.id)
        assert proof.turns == 6 and proof.total == 0, proof.residue
        assert leaks(again, {t.evidence_id for t in record.turns}) == []
        assert again.stats(SPACE) == again.stats("whole")
        for question in QUESTIONS:
            assert [i.text for i in again.recall(SPACE, question).items] == [
                i.text for i in again.recall("whole", question).items
            ], question
    finally:
        again.close()



def test_no_transaction_of_a_chunked_erasure_clears_more_marks_than_a_chunk(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first transaction of a chunked erasure cleared the derived stages' marks of the
    whole selection, and ``Neo4jStageLedger.complete`` cleared any number in one transaction,
    whose cost grows with the square of the marks it deletes: a 10,000-turn ``drop_space``
    ran past ``EYWA_NEO4J_TRANSACTION_TIMEOUT_S`` and failed (``store_unavailable``). Here a
    chunk is two turns, and no transaction clears more than two marks of a stage."""
    settings = server_settings(request, tmp_path)
    mem = Memory.connect(settings, embedder=MiniLMEmbedder(threads=SUITE_EMBED_THREADS), extractor=ScriptedExtractor())
    try:
        mem.remember(SPACE, TURNS, wait=True)
        cleared: dict[tuple[int, str], int] = {}
        alive: list[ManagedTransaction] = []  # kept so that no two transactions share an id()
        complete_tx = neo4j_ledger.complete_tx

        def counting(tx: ManagedTransaction, space: str, stage: PendingStage, items: Sequence[str]) -> int:
            alive.append(tx)
            cleared[(id(tx), stage)] = cleared.get((id(tx), stage), 0) + len(items)
            return complete_tx(tx, space, stage, items)

        monkeypatch.setattr(neo4j_erasure, "ERASE_CHUNK", 2)
        monkeypatch.setattr(neo4j_ledger, "COMPLETE_CHUNK", 2, raising=False)
        monkeypatch.setattr(neo4j_erasure, "complete_tx", counting)
        monkeypatch.setattr(neo4j_ledger, "complete_tx", counting)  # ``Neo4jStageLedger.complete``'s
        report = mem.forget(SPACE, speaker="Bo")
        assert report.counts["turns"] == 6
        assert cleared and max(cleared.values()) <= 2, sorted(cleared.values())
        assert mem.pending(SPACE).model_dump() == {"embed": 0, "level1": 0}
        proof = mem.erasure_proof(SPACE, report.erasure_id)
        assert proof.total == 0, proof.residue
    finally:
        mem.close()
