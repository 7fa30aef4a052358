"""A speaker who corrects themselves in one sentence ("Sorry, I misspoke: I work at Initech,
not Globex.") is believed. The rule extractor read the clause as negated ("not") and made
nothing, so the memory kept answering "Globex" with p 0.93; a fact read without the
contrast alone would have split the employer between the two (0.49 / 0.49, no answer).
The contrast also denies the value it names, so the dimension moves. Through the public
``Memory`` with the default rule extractor."""

from __future__ import annotations

from eywa.memory import Memory

TURNS = [
    {"text": "I work at Globex as an analyst.", "speaker": "Alice", "session": "s1",
     "observed_at": "2024-01-10T10:00:00"},
    {"text": "Sorry, I misspoke: I work at Initech, not Globex.", "speaker": "Alice", "session": "s1",
     "observed_at": "2024-01-10T10:05:00"},
]  # fmt: skip


def test_a_correction_in_one_sentence_moves_the_answer(memory: Memory) -> None:
    memory.remember("c", TURNS)
    top = memory.recall("c", "Where does Alice work?", k=3, as_of="2024-02-01T00:00:00").items[0]
    assert top.kind == "dimension" and top.text.startswith("Alice — employer: Initech"), top.text
    assert "(was Globex)" in top.text
    employer = memory.dimension("c", "Alice", "employer")
    assert employer.mode == "Initech" and employer.distribution["Initech"] > 0.9 > 0.1 > employer.distribution["Globex"]
    # both observations cite the correcting turn, the denial with the contrast in its words
    denial = [b for b in memory.beliefs("c", subject="Alice", attribute="employer") if b.polarity == "negative"]
    assert [(b.value, b.statement) for b in denial] == [("Globex", "Alice works at Initech, not Globex.")]


def test_a_comma_splice_after_a_negation_is_believed(memory: Memory) -> None:
    memory.remember("m", [
        {"text": "I live in Leeds.", "speaker": "Alice", "session": "s1", "observed_at": "2024-01-10T10:00:00"},
        {"text": "I don't live in Leeds anymore, I moved to York.", "speaker": "Alice", "session": "s2",
         "observed_at": "2024-05-10T10:00:00"},
    ])  # fmt: skip
    top = memory.recall("m", "Where does Alice live now?", k=3, as_of="2024-06-01T00:00:00").items[0]
    assert top.kind == "dimension" and top.text.startswith("Alice — residence: York"), top.text
