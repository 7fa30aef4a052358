"""A current-state question about several people is answered for each of them: "Where do
Priya and Tom live?" claimed Priya's residence alone, and Tom's came fifth, below turns about
other things. Through the public ``Memory`` with the default rule extractor."""

from __future__ import annotations

from eywa.memory import Memory

TURNS = [
    {"text": "I live in Leeds.", "speaker": "Priya", "session": "s1", "observed_at": "2023-01-10T10:00:00"},
    {"text": "I live in York.", "speaker": "Tom", "session": "s1", "observed_at": "2023-01-10T10:01:00"},
    {"text": "My brother Sam works at Acme.", "speaker": "Priya", "session": "s1", "observed_at": "2023-01-10T10:02:00"},
]  # fmt: skip


def test_each_person_asked_about_gets_their_answer_first(memory: Memory) -> None:
    memory.remember("p", TURNS)
    result = memory.recall("p", "Where do Priya and Tom live?", k=5, as_of="2023-12-01T00:00:00")
    assert [item.text.split(" — ")[:2] for item in result.items[:2]] == [
        ["Priya", "residence: Leeds since 10 Jan 2023"], ["Tom", "residence: York since 10 Jan 2023"]
    ]
    assert result.trace["answer"] == {"kind": "dimension", "id": result.items[0].id}
    assert result.trace["answers"] == [{"kind": "dimension", "id": item.id} for item in result.items[:2]]
    # one person, two attributes that may claim ("What is Sam's job?"): one answer leads
    one = memory.recall("p", "Where does Tom live?", k=5, as_of="2023-12-01T00:00:00")
    assert len(one.trace["answers"]) == 1
