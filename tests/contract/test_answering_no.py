"""An opening "No," answers what another speaker asked; it does not negate the sentence it
opens. "Do you still live in Paris?" "No, I moved to Lyon last month." said nothing to the
memory before (the whole sentence read as negated, so no residence was extracted), while
"No. I moved to Lyon…" gave Lyon. Through the public ``Memory``, rules extractor."""

from __future__ import annotations

import hashlib

import pytest

from eywa.memory import Memory
from eywa.signals.cues import detect_cues

QUESTION = {"text": "Do you still live in Paris?", "speaker": "Bob", "observed_at": "2024-05-01T10:00:00"}


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("No, I moved to Lyon last month.", ("residence", "Lyon", "positive")),
        ("No — I work at Globex now.", ("employer", "Globex", "positive")),
        # A negation of the sentence itself still counts.
        ("No, I don't live in Paris anymore.", ("residence", "Paris", "negative")),
    ],
)
def test_an_answer_opening_with_no_keeps_what_it_says(memory: Memory, answer: str, expected: tuple[str, str, str]) -> None:
    space = "no-" + hashlib.sha256(answer.encode()).hexdigest()[:8]
    memory.remember(space, [QUESTION, {"text": answer, "speaker": "Alice", "observed_at": "2024-05-01T10:01:00"}])
    said = {(b.attribute, b.value, b.polarity) for b in memory.beliefs(space) if b.subject == "Alice"}
    assert expected in said, said


@pytest.mark.parametrize(
    ("text", "negations"),
    [
        ("No, I moved to Lyon.", []),
        ("Oh. No! I moved.", []),
        ("I have no car.", ["no"]),
        ("I said no, thanks.", ["no"]),  # not opening a sentence
        ("No car, no life.", ["No", "no"]),  # "No car" negates
        ("No, I don't eat meat.", ["n't"]),
    ],
)
def test_only_a_sentence_opening_no_followed_by_a_pause_is_an_answer(text: str, negations: list[str]) -> None:
    found = [s.text for s in detect_cues(text, []) if s.normalized == "negation"]
    assert found == negations
