""""Where does Priya work now?" is answered by a short reply that only the question before it
makes readable.

"Are you still working at Initech?" — "Nope, Globex now." made no belief: the rule extractor
read a reply of nothing but a yes or a no, or nothing but a place, and this one is a no with
the new value beside it. So were "Yeah, his name is Sam." to "Are you seeing anyone?",
"Nurse, at the city hospital." to "What do you do for a living?" and "Nope, single." to
"Are you married?". Through the public ``Memory`` with the default rule extractor: each
reply is read with the question put to its speaker, and a reply about someone else, or by
the one who asked, says nothing of the one replying.
"""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Bo", "Are you still working at Initech?"),
    ("Priya", "Nope, Globex now."),
    ("Priya", "And you, do you still live in Leeds?"),
    ("Bo", "No, York now."),
    ("Nadia", "Are you seeing anyone these days?"),
    ("Tom", "Yeah, his name is Sam."),
    ("Tom", "What do you do for a living?"),
    ("Nadia", "Nurse, at the city hospital."),
    ("Tom", "Are you married?"),
    ("Nadia", "Nope, single."),
    ("Tom", "Do you have kids?"),
    ("Nadia", "No, none yet."),
    ("Tom", "Who are you dating, Nadia?"),
    ("Nadia", "Nobody, and does Ines still work at Initech?"),
    ("Tom", "No, Globex now."),
    ("Tom", "Do you still live in Leeds? No, York now."),
]
ASKED_AT = "2024-07-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "short-replies", TURNS, "2024-03-01")


@pytest.mark.parametrize(
    ("question", "held", "not_held"),
    [
        ("Where does Priya work now?", "Priya — employer: Globex", "Initech"),
        ("Does Priya still work at Initech?", "Priya — employer: Globex", "Initech"),
        ("Where does Bo live?", "Bo — residence: York", "Leeds"),
        ("Is Tom seeing anyone?", "Tom — relationship_status: in a relationship", None),
        ("Who is Tom dating?", "Tom — partner: Sam", None),
        ("What does Nadia do?", "Nadia — occupation: nurse", None),
        ("Is Nadia married?", "Nadia — relationship_status: single", None),
        ("Does Nadia have kids?", "Nadia — children: not children", None),
    ],
)
def test_a_short_reply_answers_with_the_question_it_replied_to(memory: Memory, space: str, question: str,
                                                               held: str, not_held: str | None) -> None:
    said = claimed(memory, space, question, ASKED_AT)
    assert said.startswith(held), said
    if not_held is not None:  # the value the reply said no to is ended, not held
        person, attribute = held.split(" — ")[0], held.split(": ")[0].split(" — ")[1]
        ended = {b.polarity for b in memory.beliefs(space) if (b.subject, b.attribute, b.value) == (person, attribute, not_held)}
        assert ended == {"negative"}, ended


def test_a_reply_about_someone_else_or_by_the_one_who_asked_says_nothing_of_the_replier(memory: Memory, space: str) -> None:
    # "does Ines still work at Initech?" — "No, Globex now." is about Ines, not Tom; and Tom's
    # own "Do you still live in Leeds? No, York now." is a question he asked, not answered.
    tom = {(b.attribute, b.value) for b in memory.beliefs(space) if b.subject == "Tom"}
    assert not {a for a, _ in tom} & {"employer", "residence"}, tom
    assert not [b for b in memory.beliefs(space) if b.subject == "Ines"]


def test_still_at_a_place_asked_with_no_verb_is_the_job_the_speaker_said_before(memory: Memory) -> None:
    # "at Initech" alone may be where one stands; it asks of the job because Priya said, in an
    # earlier conversation, that she works there (a belief read back from the store).
    space = remember_said(memory, "still-at", [("Priya", "I work at Initech, in the data team.")], "2024-01-10")
    memory.remember(space, [
        {"text": "Still at Initech?", "speaker": "Bo", "session": "s2", "observed_at": "2024-05-01T10:00:00"},
        {"text": "Nope, Globex now.", "speaker": "Priya", "session": "s2", "observed_at": "2024-05-01T10:01:00"},
    ])  # fmt: skip
    said = claimed(memory, space, "Where does Priya work now?", ASKED_AT)
    assert said.startswith("Priya — employer: Globex"), said
