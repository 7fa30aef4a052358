""""Do you still work at Initech?" — "No." ends the job, as "Not anymore." does.

The rule extractor reads a bare no to a question put to the speaker as a negative belief
citing the question beside the reply. Nous saw no change in either turn (no cessation, no
correction cue in "Do you still …?" or "No."), so the negative met the job said before with
equal weight and the employer sat at p 0.50: nothing claimed, where "Not anymore." released
the job (p 0.06). A no to a question asking whether the value *still* holds now ends it.
Through the public ``Memory`` with the default rule extractor; a no to a question that does
not ask about now stays a denial without an end, and a yes keeps the value.
"""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

DAY = "2024-03-04"
ASKED_AT = "2024-04-01T00:00:00"


def _said(memory: Memory, space: str, stated: str, question: str, reply: str) -> str:
    said = [("Priya", stated), ("Bo", "Good to see you."), ("Bo", question), ("Priya", reply)]
    return remember_said(memory, space, said, DAY)


def _p(memory: Memory, space: str, attribute: str, value: str) -> float:
    (dimension,) = [d for d in memory.dimensions(space) if d.entity == "Priya" and d.attribute == attribute]
    return dimension.distribution[value]


@pytest.mark.parametrize(
    ("space", "stated", "question", "reply", "asked", "ended"),
    [
        ("still-job", "I work at Initech.", "Do you still work at Initech?", "No.", "Where does Priya work?",
         "employer: unknown since 4 Mar 2024 (was Initech)"),
        ("still-working", "I work at Initech.", "Are you still working at Initech?", "Nope.", "Where does Priya work?",
         "employer: unknown since 4 Mar 2024 (was Initech)"),
        ("still-home", "I live in Leeds.", "Do you still live in Leeds?", "No.", "Where does Priya live?",
         "residence: unknown since 4 Mar 2024 (was Leeds)"),
        ("still-trade", "I'm a teacher.", "Still teaching?", "No.", "What does Priya do?",
         "occupation: unknown since 4 Mar 2024 (was teacher)"),
        ("still-with", "My boyfriend Tom is lovely.", "Are you still with Tom?", "No.", "Who is Priya's partner?",
         "partner: unknown since 4 Mar 2024 (was Tom)"),
    ],
)  # fmt: skip
def test_a_no_to_a_still_question_ends_the_value(
    memory: Memory, space: str, stated: str, question: str, reply: str, asked: str, ended: str
) -> None:
    said = claimed(memory, _said(memory, space, stated, question, reply), asked, ASKED_AT)
    assert said.startswith(f"Priya — {ended}"), said


def test_a_no_to_a_still_question_ends_a_member_of_a_set(memory: Memory) -> None:
    space = _said(memory, "still-no-hobby", "I love painting, it's my hobby.", "Do you still paint?", "Nope.")
    assert claimed(memory, space, "What are Priya's hobbies?", ASKED_AT).startswith("Priya — hobbies: not painting")


def test_a_no_to_a_plain_question_is_a_denial_without_an_end(memory: Memory) -> None:
    space = _said(memory, "plain-no", "I work at Initech.", "Do you work at Initech?", "No.")
    assert [(b.value, b.polarity) for b in memory.beliefs(space, "Priya", "employer")] == [("Initech", "negative")]
    assert claimed(memory, space, "Where does Priya work?", ASKED_AT) == ""
    assert _p(memory, space, "employer", "Initech") > 0.4


def test_a_yes_to_a_still_question_keeps_the_value(memory: Memory) -> None:
    space = _said(memory, "still-yes", "I work at Initech.", "Do you still work at Initech?", "Yes.")
    assert claimed(memory, space, "Where does Priya work?", ASKED_AT).startswith("Priya — employer: Initech since")
    assert _p(memory, space, "employer", "Initech") > 0.9
