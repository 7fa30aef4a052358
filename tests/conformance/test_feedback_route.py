"""The feedback route on both backends: a list question's best keyword hits lend their
recurring words to a second search, which reaches a turn of another session that shares none
of the question's words."""

from __future__ import annotations

from typing import Any

from eywa import Memory

from .conftest import MemoryFactory

TURNS = [
    {"text": "Pottery class today: we shaped clay bowls on the wheel and fired them in the kiln.",
     "speaker": "Ana", "session": "s1", "observed_at": "2023-03-04T10:00:00", "metadata": {"dia_id": "D1:1"}},
    {"text": "Sounds relaxing!", "speaker": "Ben", "session": "s1",
     "observed_at": "2023-03-04T10:01:00", "metadata": {"dia_id": "D1:2"}},
    {"text": "More pottery tonight, two clay bowls came out of the kiln cracked.", "speaker": "Ana",
     "session": "s2", "observed_at": "2023-04-10T18:00:00", "metadata": {"dia_id": "D2:1"}},
    {"text": "Oh no, sorry to hear that.", "speaker": "Ben", "session": "s2",
     "observed_at": "2023-04-10T18:01:00", "metadata": {"dia_id": "D2:2"}},
    {"text": "Glazed a clay vase and it survived the kiln this time!", "speaker": "Ana", "session": "s3",
     "observed_at": "2023-05-02T09:00:00", "metadata": {"dia_id": "D3:1"}},
    {"text": "Congrats!", "speaker": "Ben", "session": "s3",
     "observed_at": "2023-05-02T09:01:00", "metadata": {"dia_id": "D3:2"}},
    {"text": "The quarterly report is due on Friday.", "speaker": "Ana", "session": "s4",
     "observed_at": "2023-06-01T09:00:00", "metadata": {"dia_id": "D4:1"}},
    {"text": "Good luck with it.", "speaker": "Ben", "session": "s4",
     "observed_at": "2023-06-01T09:01:00", "metadata": {"dia_id": "D4:2"}},
]


def _offered(mem: Memory, result: Any) -> list[str]:
    ids = [hit["id"] for hit in result.trace["routes"].get("feedback", [])]
    return [mem.evidence("f", i).metadata["dia_id"] for i in ids]


def test_the_best_hits_recurring_words_reach_a_turn_without_the_questions_words(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    mem.remember("f", TURNS)

    result = mem.recall("f", "What kinds of pottery has Ana made?", k=5)
    offered = _offered(mem, result)
    # The vase shares no word with the question; "clay" and "kiln", which both pottery turns
    # hold, bring it right after them, above her turn that shares only her name.
    assert offered[:3] in (["D1:1", "D2:1", "D3:1"], ["D2:1", "D1:1", "D3:1"])
    assert "D4:1" not in offered or offered.index("D3:1") < offered.index("D4:1")
    assert result.trace["plan"]["weights"]["feedback"] > 0.0

    # A question with one answer is not expanded: its best hits are already the answer.
    single = mem.recall("f", "What did Ana glaze?", k=5)
    assert "feedback" not in single.trace["plan"]["weights"]
    assert _offered(mem, single) == []
