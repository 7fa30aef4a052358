"""Two retrieval mechanisms of issue #15 on both backends: a relative time window is
resolved against the candidate turns' session dates when the asker's own time holds
nothing, and an interval question retrieves both of its events."""

from __future__ import annotations

from typing import Any

from eywa import Memory

from .conftest import MemoryFactory

TURNS = [
    {"text": "We went camping by the lake, the kids loved the campfire.", "speaker": "Ana", "session": "s1",
     "observed_at": "2023-06-10T10:00:00", "metadata": {"dia_id": "D1:1"}},
    {"text": "We went camping in the forest again, it rained all night.", "speaker": "Ana", "session": "s2",
     "observed_at": "2023-07-20T10:00:00", "metadata": {"dia_id": "D2:1"}},
    {"text": "I want to buy new camping gear, mine is worn out.", "speaker": "Ana", "session": "s3",
     "observed_at": "2024-02-01T10:00:00", "metadata": {"dia_id": "D3:1"}},
    {"text": "We adopted a puppy today, his name is Rex!", "speaker": "Ana", "session": "s4",
     "observed_at": "2024-03-01T10:00:00", "metadata": {"dia_id": "D4:1"}},
    {"text": "Rex chewed my shoes, Rex is such a Rex, Rex Rex.", "speaker": "Ana", "session": "s5",
     "observed_at": "2024-03-05T10:00:00", "metadata": {"dia_id": "D5:1"}},
    {"text": "Rex learned to sit, I am proud of Rex.", "speaker": "Ana", "session": "s5",
     "observed_at": "2024-03-05T10:01:00", "metadata": {"dia_id": "D5:2"}},
    {"text": "Rex loves the park, Rex runs after every ball.", "speaker": "Ana", "session": "s6",
     "observed_at": "2024-03-10T10:00:00", "metadata": {"dia_id": "D6:1"}},
    {"text": "Meet Fido, the second dog of the family.", "speaker": "Ana", "session": "s7",
     "observed_at": "2024-03-22T10:00:00", "metadata": {"dia_id": "D7:1"}},
]


def _route(mem: Memory, result: Any, name: str) -> list[str]:
    ids = [hit["id"] for hit in result.trace["routes"].get(name, [])]
    return [mem.evidence("t", i).metadata["dia_id"] for i in ids]


def test_a_yearless_month_is_resolved_against_each_candidates_session_date(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    mem.remember("t", TURNS)
    # Asked now (years after the conversation): "in June" of the wall clock holds nothing,
    # so June is that of each candidate's session: the lake trip, not July's, not the gear.
    result = mem.recall("t", "When did Ana go camping in June?")
    assert result.trace["plan"]["window_relative"] is True
    assert _route(mem, result, "temporal") == ["D1:1"]
    # Asked in the conversation's time, the window is the asker's June: the same turn.
    dated = mem.recall("t", "When did Ana go camping in June?", as_of="2023-12-01T00:00:00")
    assert _route(mem, dated, "temporal") == ["D1:1"]
    # An absolute window is never re-anchored: June 2022 holds nothing, and nothing is offered.
    absolute = mem.recall("t", "When did Ana go camping in June 2022?")
    assert absolute.trace["plan"]["window_relative"] is False
    assert _route(mem, absolute, "temporal") == []


def test_an_interval_question_retrieves_both_events(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    mem.remember("t", TURNS)
    result = mem.recall("t", "How many weeks passed between Ana adopting Rex and Fido?", k=2)
    assert result.trace["plan"]["events"] == ["Ana adopting Rex", "Ana adopting Fido"]
    # Each event's best turn, side by side, though the turns about Rex outnumber Fido's.
    assert set(_route(mem, result, "events")[:2]) == {"D4:1", "D7:1"}
    cited = {ref.metadata["dia_id"] for item in result.items for ref in item.provenance}
    assert {"D4:1", "D7:1"} <= cited
