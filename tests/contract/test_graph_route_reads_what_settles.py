"""A question naming someone reads the graph route's candidates only until its cut is settled,
and recalls exactly what it recalls with every candidate read.

The graph route keeps 50 hits of up to 200 keyword candidates (turns within one hop of the
people named, beliefs about them nearby); docs/latency.md "Session 50, the graph route's
settled cut": placing every candidate read each one's mentions and subject, about three
times what the cut needs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from eywa import Memory
from eywa.stores.entity_graph import Reach
from tests.contract.conftest import open_memory

PLANTS = ["tomatoes", "basil", "roses", "tulips", "mint", "beans", "lettuce", "peppers", "lavender", "sage"]


def said() -> list[dict[str, str]]:
    turns = []
    for day in range(40):
        plant = PLANTS[day % len(PLANTS)]
        turns.append({"text": f"Priya: the garden has {plant} now, day {day}.", "speaker": "Priya"})
        turns.append({"text": f"Bo: Priya, my garden plot by the river needs {plant} too, week {day}.", "speaker": "Bo"})
    return turns


def recalled(memory: Memory, question: str) -> str:
    result = memory.recall("home", question)
    trace = dict(result.trace)
    trace.pop("timings_ms", None)
    return json.dumps([[i.model_dump(mode="json") for i in result.items], result.context, trace], default=str)


def test_the_graph_route_stops_reading_once_its_cut_is_settled(tmp_path: Path) -> None:
    memory = open_memory(tmp_path / "mem")
    try:
        memory.remember("home", said())
        memory.wait()
        graph = memory._stores.graph
        real = graph.neighbours
        placed: list[tuple[bool, int, int]] = []

        def recording(*args: Any, **kwargs: Any) -> Reach:
            reach = real(*args, **kwargs)
            placed.append((kwargs.get("until") is not None, len(reach.evidence), len(kwargs.get("evidence_ids", ()))))
            return reach

        def reading_everything(*args: Any, until: Any = None, **kwargs: Any) -> Reach:
            return recording(*args, **kwargs)

        question = "What does Priya grow in the garden?"
        graph.neighbours = recording  # type: ignore[method-assign]
        settled = recalled(memory, question)
        graph.neighbours = reading_everything  # type: ignore[method-assign]
        everything = recalled(memory, question)
        graph.neighbours = real  # type: ignore[method-assign]
    finally:
        memory.close()
    assert settled == everything
    (ruled, settled_turns, candidates), (_, every_turn, _) = placed
    assert ruled and candidates == 80  # every turn says "garden" and names Priya
    assert every_turn == 80 and settled_turns < every_turn  # the cut takes 50 hits at most
