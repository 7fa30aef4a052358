""""Where are you living now?" — "Lisbon! Moved there last year." and "Do you have any pets?" —
"Two cats, Luna and Milo." made nothing: a place was read as a reply only with its preposition
("In Lisbon."), and a count of kids or pets only with "named" before the names; "Any kids?"
was no question of having kids at all. Each is now read as the question says, citing the
question beside the reply. Through the public ``Memory`` with the default rule extractor;
"Home, mostly." names no place, and a reply to "Where do you work out?" is no employer."""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed

ASKED_AT = "2025-04-01T00:00:00"


def _asked(memory: Memory, space: str, question: str, reply: str) -> str:
    """Bo asks Priya ``question`` on 10 Jan 2025 and she replies."""
    memory.remember(space, [
        {"text": question, "speaker": "Bo", "session": "s1", "observed_at": "2025-01-10T10:00:00"},
        {"text": reply, "speaker": "Priya", "session": "s1", "observed_at": "2025-01-10T10:01:00"},
    ])  # fmt: skip
    return space


@pytest.mark.parametrize(
    ("question", "reply", "ask", "answer"),
    [
        ("Where are you living now?", "Lisbon! Moved there last year.", "Where does Priya live?",
         "Priya — residence: Lisbon"),
        ("Where do you work these days?", "Globex, in the finance team.", "Where does Priya work?",
         "Priya — employer: Globex"),
        ("Do you have any pets?", "Two cats, Luna and Milo.", "What pets does Priya have?", "Priya — pets: Luna"),
        ("Any kids?", "One daughter, Mia.", "Does Priya have children?", "Priya — children: Mia"),
    ],
)
def test_a_reply_of_the_bare_value_says_what_the_question_asked(
    memory: Memory, question: str, reply: str, ask: str, answer: str
) -> None:
    space = _asked(memory, "bare-reply", question, reply)
    assert claimed(memory, space, ask, ASKED_AT).startswith(answer)
    assert any(len(b.evidence_ids) == 2 for b in memory.beliefs(space) if b.subject == "Priya")


@pytest.mark.parametrize(
    ("question", "reply", "ask"),
    [
        ("Where do you work these days?", "Home, mostly.", "Where does Priya work?"),
        ("Where do you work out?", "Equinox, near the office.", "Where does Priya work?"),
        ("Where do you live now?", "Same place as before.", "Where does Priya live?"),
    ],
)
def test_a_reply_naming_no_place_or_to_another_verb_says_nothing(
    memory: Memory, question: str, reply: str, ask: str
) -> None:
    space = _asked(memory, "no-place", question, reply)
    assert claimed(memory, space, ask, ASKED_AT) == ""
