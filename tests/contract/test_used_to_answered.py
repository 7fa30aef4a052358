""""I used to live in Leeds but now I'm in York." answers where Priya lives now.

What one used to do or be was read as a past habit, which asserts nothing, so it ended
nothing either: "I used to work at Globex" left Globex the employer on record, and "I used to
live in Leeds but now I'm in York" made no belief at all ("now I'm in York", the present put
first, was not read). README, "What the offline extractor reads": a past habit yields
"nothing of now, but for the end of what a 'used to' held". Through the public ``Memory`` with
the default rule extractor.
"""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Priya", "I used to live in Leeds but now I'm in York."),
    ("Bo", "I work at Globex."),
    ("Bo", "I used to work at Globex, now I'm at Initech."),
    ("Nadia", "I'm a teacher."),
    ("Nadia", "I used to be a teacher, now I'm a nurse."),
    ("Tom", "I live in Leeds."),
    ("Tom", "I used to live in Leeds, it was lovely."),
    ("Yara", "My dad used to work at Globex."),
]
ASKED_AT = "2024-07-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "used-to", TURNS, "2024-06-10")


@pytest.mark.parametrize(
    ("question", "answer", "was"),
    [
        ("Where does Priya live now?", "Priya — residence: York since", "Leeds"),
        ("Where does Bo work now?", "Bo — employer: Initech since", "Globex"),
        ("What does Nadia do now?", "Nadia — occupation: nurse since", "teacher"),
    ],
)
def test_what_one_used_to_be_and_what_one_is_now_answer(
    memory: Memory, space: str, question: str, answer: str, was: str
) -> None:
    said = claimed(memory, space, question, ASKED_AT)
    assert said.startswith(answer), said
    assert f"was {was}" in said or f"not {was}" in said, said


def test_a_home_one_used_to_have_is_not_home_now(memory: Memory, space: str) -> None:
    said = claimed(memory, space, "Does Tom live in Leeds?", ASKED_AT)
    assert "not Leeds" in said and "Leeds p 0.0" in said, said


def test_a_parents_old_job_is_no_job_of_the_speaker(memory: Memory, space: str) -> None:
    assert not [b for b in memory.beliefs(space) if b.subject == "Yara" and b.attribute == "employer"]
