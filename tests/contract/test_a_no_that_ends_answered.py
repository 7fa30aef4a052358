""""Still teaching?" — "Not anymore." answers what Priya does; "Are you still with Sam?" — "No,
we broke up." stops answering that Sam is Bo's partner.

A trade asked of by its verb ("Still teaching?") had no rule to end the occupation, so the
teacher said before was still claimed; a question naming whom the listener is with ("… with
Sam?") was taken for a question about someone else, so its no said nothing, and a no that goes
on to say what ended ("No, we broke up.") read only the breakup. Through the public ``Memory``
with the default rule extractor; a reply by the one who asked, or a no about someone else, ends
nothing of the one replying.
"""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Priya", "I'm a teacher."),
    ("Bo", "My girlfriend Sam is a nurse."),
    ("Nadia", "I'm a teacher too."),
    ("Tom", "I'm a teacher as well."),
    ("Bo", "Priya, still teaching?"),
    ("Priya", "Not anymore."),
    ("Priya", "Are you still with Sam?"),
    ("Bo", "No, we broke up."),
    ("Nadia", "Still teaching?"),
    ("Nadia", "Not anymore."),
    ("Bo", "Is Kim still teaching?"),
    ("Tom", "Not anymore."),
]
ASKED_AT = "2024-07-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "a-no-that-ends", TURNS, "2024-06-10")


def test_a_trade_asked_of_and_denied_is_held_no_longer(memory: Memory, space: str) -> None:
    said = claimed(memory, space, "What does Priya do?", ASKED_AT)
    assert "occupation:" in said and "not teacher" in said, said


def test_a_partner_asked_of_and_denied_is_the_partner_no_longer(memory: Memory, space: str) -> None:
    assert "partner: Sam" not in claimed(memory, space, "Who is Bo's partner?", ASKED_AT)
    ended = [b for b in memory.beliefs(space) if b.subject == "Bo" and b.attribute == "partner"]
    assert [(b.value, b.polarity) for b in ended] == [("Sam", "negative")]


@pytest.mark.parametrize("speaker", ["Nadia", "Tom"])
def test_a_reply_to_oneself_or_about_someone_else_ends_nothing(memory: Memory, space: str, speaker: str) -> None:
    said = claimed(memory, space, f"What does {speaker} do?", ASKED_AT)
    assert said.startswith(f"{speaker} — occupation: teacher"), said
