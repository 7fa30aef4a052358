"""A person the speaker names by who they are to them ("my sister Carol", "our neighbour
Dave") is the subject of what the clause says: the offline extractor used to read such a
clause as opening mid-sentence and made no fact, so "Where does Carol work?" found only the
turn and no dimension could answer it. Through the public ``Memory`` with the default rule
extractor."""

from __future__ import annotations

from eywa.memory import Memory

TURNS = [
    {"text": "My sister Carol works at Initech now.", "speaker": "Alice", "session": "s1",
     "observed_at": "2024-09-02T10:00:00"},
    {"text": "Yesterday our neighbour Dave moved to Leeds.", "speaker": "Alice", "session": "s1",
     "observed_at": "2024-09-02T10:01:00"},
    {"text": "I told my boss Rick that I am moving to Berlin.", "speaker": "Alice", "session": "s1",
     "observed_at": "2024-09-02T10:02:00"},
]  # fmt: skip


def test_where_a_relation_named_person_works_and_lives_is_answered_from_their_dimension(memory: Memory) -> None:
    memory.remember("family", TURNS)
    for question, answer in (("Where does Carol work?", "Carol — employer: Initech"),
                             ("Where does Dave live now?", "Dave — residence: Leeds")):  # fmt: skip
        top = memory.recall("family", question, k=3, as_of="2024-09-03T00:00:00").items[0]
        assert top.kind == "dimension" and top.text.startswith(answer), (question, top.text)
    # The facts are theirs, not the speaker's (but for who Carol is to her); "told my boss
    # Rick that …" opens no clause of Rick's.
    alice = {(d.entity, d.attribute): d for d in memory.dimensions("family", "Alice")}
    assert alice.keys() <= {("Alice", "plans"), ("Alice", "siblings")}
    assert alice[("Alice", "siblings")].mode == "Carol"
    assert memory.dimensions("family", "Rick") == []
