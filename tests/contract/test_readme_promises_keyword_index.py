"""README, "Configuration": ``EYWA_KEYWORD_INDEX`` (``memory`` | ``fts5``, default ``memory``):
"the embedded store ranks evidence keyword searches from an in-memory copy of its FTS5 index,
with the same results, or always by FTS5" (audit of s40).

The copy was shown equal to FTS5 search by search below ``Memory``
(tests/unit/test_bm25_index.py, test_belief_index.py); no test set the variable and compared
what a recall answers. Here the same turns, with an erasure among them, are recalled from two
memories that differ only by the setting: every item, score and keyword hit is the same,
and the store's counts show that each memory answered the way its setting says (so the two
cannot be equal only because both used FTS5).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from eywa.memory import Memory
from eywa.stores.embedded.keyword import SqliteKeywordIndex
from tests.contract.conftest import open_memory

SPACE = "kwindex"
TURNS = [
    {"text": "I started pottery classes on Tuesdays.", "speaker": "Odo", "session": "s1",
     "observed_at": "2024-02-01T10:00:00Z"},
    {"text": "Pottery sounds fun! I prefer climbing at the gym.", "speaker": "Kira", "session": "s1",
     "observed_at": "2024-02-01T10:01:00Z"},
    {"text": "My sister Nerys works at Orbitek in Denver.", "speaker": "Odo", "session": "s2",
     "observed_at": "2024-03-05T09:00:00Z"},
    {"text": "I moved to Denver last month for the climbing.", "speaker": "Kira", "session": "s2",
     "observed_at": "2024-03-05T09:02:00Z"},
    {"text": "The pottery kiln at the studio broke again.", "speaker": "Odo", "session": "s3",
     "observed_at": "2024-04-10T18:00:00Z"},
]  # fmt: skip
ERASED = {"text": "Pottery and Denver climbing are my secret passions.", "speaker": "Quark", "session": "s3",
          "observed_at": "2024-04-11T10:00:00Z"}  # fmt: skip
QUESTIONS = [
    "What does Odo do on Tuesdays?", "Where does Kira live?", "pottery kiln studio",
    "Where does Odo's sister work?", "When did Kira move to Denver?", "What are Quark's secret passions?",
]  # fmt: skip


def _answers(mem: Memory) -> list[Any]:
    answers: list[Any] = []
    for question in QUESTIONS:
        result = mem.recall(SPACE, question)
        answers.append(([(item.id, item.score) for item in result.items], result.trace["routes"].get("keyword")))
    return answers


def _recalled(directory: Path, index: Literal["memory", "fts5"]) -> tuple[list[Any], dict[str, int]]:
    with open_memory(directory, keyword_index=index) as mem:
        erased = mem.remember(SPACE, [*TURNS, ERASED])[-1]
        keyword = mem._stores.keyword  # noqa: SLF001 - which index answered is the store's to say
        assert isinstance(keyword, SqliteKeywordIndex)
        assert keyword.wait_ready(30.0) is (index == "memory")  # built in the background after open
        mem.forget(SPACE, evidence_ids=[erased])
        answers = _answers(mem)
        counts: dict[str, int] = keyword.memory_counts()
    return answers, counts


def test_the_in_memory_keyword_index_answers_every_recall_as_fts5_does(tmp_path: Path) -> None:
    from_memory, memory_counts = _recalled(tmp_path / "memory", "memory")
    from_fts5, fts5_counts = _recalled(tmp_path / "fts5", "fts5")
    assert memory_counts["memory"] >= len(QUESTIONS) and fts5_counts == {"memory": 0, "fts5": 0}
    assert all(items and keyword for items, keyword in from_memory[:-1])  # found turns and beliefs by keyword
    assert from_memory[-1][1] == []  # the erased turn's words are in neither index
    assert from_memory == from_fts5
