"""Each route and post-filter of the read path on small hand-made conversations, and the
guarantee that reading never calls an LLM."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timezone
from typing import Any

import pytest

from eywa import Memory
from eywa.batches import coerce_turns, prepare_batch
from eywa.extraction.llm import LLMExtractor
from eywa.models import CandidateFact, Evidence
from eywa.read.items import NEIGHBOURS_AFTER, NEIGHBOURS_BEFORE, EvidenceSource
from eywa.signals import detect_signals
from eywa.stores.bundle import Stores

from .conftest import MemoryFactory

TURNS = [
    {"text": "I started working at Acme as a welder.", "speaker": "Ana", "session": "s1",
     "observed_at": "2023-02-01T10:00:00", "metadata": {"dia_id": "D1:1"}},
    {"text": "I love hiking in the mountains on weekends.", "speaker": "Ana", "session": "s1",
     "observed_at": "2023-02-01T10:01:00", "metadata": {"dia_id": "D1:2"}},
    {"text": "My brother Theo visited us last Saturday.", "speaker": "Ana", "session": "s2",
     "observed_at": "2023-05-25T09:00:00", "metadata": {"dia_id": "D2:1"}},
    {"text": "Theo plays the cello in an orchestra.", "speaker": "Ben", "session": "s2",
     "observed_at": "2023-05-25T09:01:00", "metadata": {"dia_id": "D2:2"}},
    {"text": "We painted the fence green.", "speaker": "Ben", "session": "s3",
     "observed_at": "2023-09-10T12:00:00", "metadata": {"dia_id": "D3:1"}},
    {"text": "I joined a new company, Borealis, as a welding inspector.", "speaker": "Ana",
     "session": "s3", "observed_at": "2023-09-10T12:01:00", "metadata": {"dia_id": "D3:2"}},
]


class ScriptedExtractor:
    """Proposes fixed facts for turns whose text contains a key (a stand-in for an LLM)."""

    name = "scripted"

    def __init__(self, facts: dict[str, dict[str, Any]]) -> None:
        self.facts = facts

    def propose(self, space: str, evidence: Sequence[Evidence]) -> Iterable[CandidateFact]:
        for turn in evidence:
            for key, fact in self.facts.items():
                if key in turn.text:
                    yield CandidateFact(evidence_ids=(turn.id,), **fact)


FACTS = {
    "Acme": {"statement": "Ana works at Acme as a welder.", "subject": "Ana", "attribute": "employer", "value": "Acme"},
    "Borealis": {"statement": "Ana joined Borealis as a welding inspector.", "subject": "Ana",
                 "attribute": "employer", "value": "Borealis"},
    "hiking": {"statement": "Ana loves hiking in the mountains.", "subject": "Ana", "attribute": "likes", "value": "hiking"},
}


@pytest.fixture
def filled(open_memory: MemoryFactory) -> Memory:
    mem = open_memory(ScriptedExtractor(FACTS))
    mem.remember("r", TURNS)
    return mem


def _route(result: Any, name: str) -> list[str]:
    return [hit["id"] for hit in result.trace["routes"].get(name, [])]


def _dia(mem: Memory, ids: list[str]) -> list[str]:
    return [mem.evidence("r", i).metadata["dia_id"] for i in ids if i.startswith("ev_")]


def test_temporal_route_keeps_to_the_asked_window(filled: Memory) -> None:
    result = filled.recall("r", "What happened in May 2023?", as_of="2023-12-01T00:00:00")
    assert result.trace["plan"]["window"] is not None
    got = _dia(filled, _route(result, "temporal"))
    assert set(got) == {"D2:1", "D2:2"}


def test_temporal_route_offers_dated_turns_for_when_questions(filled: Memory) -> None:
    result = filled.recall("r", "When did Theo visit Ana?")
    assert result.trace["plan"]["shape"] == "temporal"
    assert _dia(filled, _route(result, "temporal")) == ["D2:1"]  # the only turn with a date


def test_graph_route_reaches_turns_about_the_named_person(filled: Memory) -> None:
    result = filled.recall("r", "What instrument does Theo play?")
    assert "Theo" in result.trace["plan"]["entities"]
    assert "D2:2" in _dia(filled, _route(result, "graph"))


def test_inference_route_offers_preferences_for_would_questions(filled: Memory) -> None:
    result = filled.recall("r", "Would Ana enjoy a hiking holiday?")
    assert result.trace["plan"]["shape"] == "inference"
    beliefs = {b.id: b for b in filled.beliefs("r", subject="Ana")}
    offered = [beliefs[i].statement for i in _route(result, "inference") if i in beliefs]
    assert offered == ["Ana loves hiking in the mountains."]


def test_dimension_lines_carry_the_current_value_with_provenance(filled: Memory) -> None:
    result = filled.recall("r", "Which employer does Ana work for?", k=10)
    lines = [i for i in result.items if i.kind == "dimension"]
    assert lines, result.trace["routes"]
    assert lines[0].text.startswith("Ana — employer: Borealis")
    assert {ref.metadata["dia_id"] for ref in lines[0].provenance} == {"D1:1", "D3:2"}


def test_a_belief_and_its_own_turn_are_one_item(filled: Memory) -> None:
    result = filled.recall("r", "Does Ana love hiking in the mountains?", k=10)
    cited = [ref.id for item in result.items if item.kind in ("evidence", "belief") for ref in item.provenance]
    hiking = filled.remember("r", [TURNS[1]])[0]
    assert cited.count(hiking) == 1


def test_reading_never_calls_an_llm(open_memory: MemoryFactory) -> None:
    class FailingAfterWrites:
        model = "scripted"
        reading = False
        calls = 0

        def complete(self, system: str, user: str, schema: dict[str, Any]) -> dict[str, Any]:
            if self.reading:
                raise AssertionError("an LLM was called on the read path")
            self.calls += 1
            return {"facts": []}

    client = FailingAfterWrites()
    mem = open_memory(LLMExtractor(client))
    mem.remember("r", TURNS)
    assert client.calls > 0  # the write path did use it
    client.reading = True
    for question in ("Where does Ana work?", "When did Theo visit?", "Would Ana enjoy hiking?"):
        assert mem.recall("r", question).items


def test_the_rescue_reads_one_turn_before_a_hit_and_two_after(stores: Stores) -> None:
    """The turns after a hit carry its continuation (the reply, then the speaker's next
    words): ``EvidenceSource.neighbours`` reads one turn before and ``NEIGHBOURS_AFTER``
    after, within the session, in their order."""
    batch = prepare_batch("n", coerce_turns(TURNS[:2] + [
        {"text": f"Turn {n} of the second session.", "speaker": "Ben", "session": "s2",
         "observed_at": f"2023-05-25T09:0{n}:00"} for n in range(5)
    ]), stores.evidence, detect_signals, now=datetime(2024, 1, 1, tzinfo=timezone.utc))  # fmt: skip
    stores.evidence.add(batch.new, batch.mentions)
    ids = [e.id for e in batch.new]
    source = EvidenceSource(stores.evidence)
    around = source.neighbours("n", [ids[3], ids[6], ids[0]])
    assert NEIGHBOURS_BEFORE == 1 and NEIGHBOURS_AFTER == 2
    assert [h.id for h in around[ids[3]]] == [ids[2], ids[4], ids[5]]
    assert [h.id for h in around[ids[6]]] == [ids[5]]  # the session's last turn
    assert [h.id for h in around[ids[0]]] == [ids[1]]  # the first session's two turns
