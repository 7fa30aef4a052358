"""Where someone comes from never changes, so it is asked in the past tense as often as in
the present: "Where did Priya grow up?", "Where was Priya born?". The planner read the past
tense as "not the current state" (and "grow up" as no attribute at all), so no dimension
answered, and a turn about something else could rank first. Through the public ``Memory``
with the default rule extractor."""

from __future__ import annotations

import pytest

from eywa.memory import Memory

TURNS = [
    {"text": "I'm from Dublin originally.", "speaker": "Priya", "session": "s1", "observed_at": "2023-01-10T10:00:00"},
    {"text": "We moved to York last week.", "speaker": "Priya", "session": "s2", "observed_at": "2023-08-01T10:00:00"},
    {"text": "Sadly our dog died on Sunday.", "speaker": "Priya", "session": "s3", "observed_at": "2023-09-01T10:00:00"},
]  # fmt: skip


@pytest.mark.parametrize("question", ["Where is Priya from?", "Where did Priya grow up?", "Where was Priya born?"])
def test_where_someone_comes_from_is_answered_in_any_tense(memory: Memory, question: str) -> None:
    memory.remember("p", TURNS)
    result = memory.recall("p", question, k=3, as_of="2023-12-01T00:00:00")
    assert result.items[0].text.startswith("Priya — origin: Dublin"), result.items[0].text
    assert result.trace["answer"] == {"kind": "dimension", "id": result.items[0].id}


def test_a_state_that_changes_is_not_answered_from_its_present_in_the_past_tense(memory: Memory) -> None:
    memory.remember("p", TURNS)
    result = memory.recall("p", "Where did Priya live?", k=3, as_of="2023-12-01T00:00:00")
    assert result.trace["answer"] is None and result.trace["plan"]["current_state"] is False
