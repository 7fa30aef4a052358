"""The belief route on both backends: a person's beliefs that match the question lead back
to the turns they cite, even when those turns share no word with the question."""

from __future__ import annotations

from typing import Any

from eywa import Memory

from .conftest import MemoryFactory
from .scripted import ScriptedExtractor

TURNS = [
    {"text": "We paddled across the whole lake at dawn, my arms are jelly.", "speaker": "Ana",
     "session": "s1", "observed_at": "2023-03-04T10:00:00", "metadata": {"dia_id": "D1:1"}},
    {"text": "The quarterly report is due on Friday.", "speaker": "Ana", "session": "s1",
     "observed_at": "2023-03-04T10:01:00", "metadata": {"dia_id": "D1:2"}},
    {"text": "Reached the top of the bouldering wall for the first time!", "speaker": "Ana",
     "session": "s2", "observed_at": "2023-04-10T18:00:00", "metadata": {"dia_id": "D2:1"}},
    {"text": "I spent the weekend sailing with my cousins.", "speaker": "Ben", "session": "s2",
     "observed_at": "2023-04-10T18:01:00", "metadata": {"dia_id": "D2:2"}},
    {"text": "Our new fridge finally arrived.", "speaker": "Ana", "session": "s3",
     "observed_at": "2023-05-02T09:00:00", "metadata": {"dia_id": "D3:1"}},
]

FACTS: dict[str, list[dict[str, Any]]] = {
    "paddled": [{"statement": "Ana paddled across the whole lake.", "subject": "Ana", "attribute": "life_events",
                 "value": "paddled across the lake"}],
    "bouldering": [{"statement": "Ana reached the top of the bouldering wall.", "subject": "Ana", "attribute": "hobbies",
                    "value": "bouldering"}],
    "sailing": [{"statement": "Ben went sailing with his cousins.", "subject": "Ben", "attribute": "life_events",
                 "value": "went sailing"}],
    "fridge": [{"statement": "Ana bought a new fridge.", "subject": "Ana", "attribute": "possessions",
                "value": "fridge"}],
}


def _offered(mem: Memory, result: Any) -> list[str]:
    ids = [hit["id"] for hit in result.trace["routes"].get("beliefs", [])]
    return [mem.evidence("b", i).metadata["dia_id"] for i in ids]


def test_the_named_persons_beliefs_of_the_asked_attribute_lead_to_the_turns_they_cite(
    open_memory: MemoryFactory,
) -> None:
    # One memory for every question: each remember costs seconds on Neo4j.
    mem = open_memory(ScriptedExtractor(FACTS))
    mem.remember("b", TURNS)

    result = mem.recall("b", "What activities has Ana done?", k=5)
    # Her hobby and the event that is an activity; not Ben's sailing, not her fridge.
    assert set(_offered(mem, result)) == {"D1:1", "D2:1"}
    cited = {ref.metadata["dia_id"] for item in result.items for ref in item.provenance}
    assert {"D1:1", "D2:1"} <= cited

    # Topic words rank the asked beliefs: the lake first, then her other activity.
    assert _offered(mem, mem.recall("b", "What activities on the lake has Ana done?", k=5)) == ["D1:1", "D2:1"]
    # (A belief of another attribute sharing every topic word is not offered either: tests/unit.)
