"""The person route on both backends: the turns a named person spoke, nearest to what the
question asks once the names are left out; never another speaker's turn, even one that
names the person."""

from __future__ import annotations

from typing import Any

from eywa import Memory

from .conftest import MemoryFactory

TURNS = [
    {"text": "Hey Ana! How was your weekend with the family?", "speaker": "Ben", "session": "s1",
     "observed_at": "2023-03-04T10:00:00", "metadata": {"dia_id": "D1:1"}},
    {"text": "Lovely, I took the kids swimming at the lake.", "speaker": "Ana", "session": "s1",
     "observed_at": "2023-03-04T10:01:00", "metadata": {"dia_id": "D1:2"}},
    {"text": "The quarterly report is due on Friday.", "speaker": "Ana", "session": "s2",
     "observed_at": "2023-04-10T18:00:00", "metadata": {"dia_id": "D2:1"}},
    {"text": "Ana, I went swimming with my cousins at the lake too!", "speaker": "Ben", "session": "s2",
     "observed_at": "2023-04-10T18:01:00", "metadata": {"dia_id": "D2:2"}},
    {"text": "We baked bread together, the kids loved kneading it.", "speaker": "Ana", "session": "s3",
     "observed_at": "2023-05-02T09:00:00", "metadata": {"dia_id": "D3:1"}},
]


def _offered(mem: Memory, result: Any) -> list[str]:
    ids = [hit["id"] for hit in result.trace["routes"].get("person", [])]
    return [mem.evidence("p", i).metadata["dia_id"] for i in ids]


def test_the_named_persons_own_turns_nearest_to_the_question_without_names(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    mem.remember("p", TURNS)

    result = mem.recall("p", "What activities has Ana done with her kids?", k=5)
    offered = _offered(mem, result)
    # Only her turns, the two with her kids first; Ben's turns that name her are not hers.
    assert set(offered) == {"D1:2", "D2:1", "D3:1"}
    assert set(offered[:2]) == {"D1:2", "D3:1"}
    assert result.trace["plan"]["weights"].get("person", 0.0) > 0.0

    # A question naming nobody has no person to search for.
    assert _offered(mem, mem.recall("p", "Who went swimming at the lake?", k=5)) == []
