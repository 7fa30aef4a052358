"""A new state said with "now" ("Now I'm dating Sam", "I'm now living in Leeds", "These days I
work at Globex") after another value of a single-valued attribute, through the public
``Memory`` with the default rule extractor: each case in its own space, turns said a minute
apart, the question asked the next day.

Such a statement said nothing of a change to Nous: the two values, minutes apart, were two
contradicting reports of one moment, and the later could not win (partner Tom 0.49, Sam 0.49:
"Who is Nadia's partner?" claimed nothing). "Now" as against before says the value held
before ended, as "I joined Initech" does. A moment ("right now", "for now"), "still", and a
"now" said of something else in the turn change nothing.
"""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

DAY = "2026-05-01"
ASKED_AT = "2026-05-02T00:00:00"


def test_a_partner_said_with_now_after_a_divorce_is_the_partner(memory: Memory) -> None:
    space = remember_said(memory, "now-dating", [
        ("Nadia", "I married Tom in 2019."), ("Bo", "Congrats!"), ("Nadia", "We divorced last year."),
        ("Bo", "Sorry."), ("Nadia", "Now I'm dating Sam."),
    ], DAY)  # fmt: skip
    assert claimed(memory, space, "Who is Nadia's partner?", ASKED_AT).startswith("Nadia — partner: Sam ")
    status = memory.dimension(space, "Nadia", "relationship_status", as_of=ASKED_AT)
    assert status.mode == "in a relationship"


@pytest.mark.parametrize(
    ("space", "before", "said", "question", "answer"),
    [
        ("these-days", "I work at Initech.", "These days I work at Globex.", "Where does Priya work now?",
         "Priya — employer: Globex "),
        ("these-days-closing", "I work at Initech.", "I work at Globex these days.", "Where does Priya work now?",
         "Priya — employer: Globex "),
        ("now-living", "I live in Madrid.", "I'm now living in Leeds.", "Where does Priya live now?",
         "Priya — residence: Leeds "),
        ("now-opening", "I live in Madrid.", "Now I live in Leeds.", "Where does Priya live now?",
         "Priya — residence: Leeds "),
    ],
)  # fmt: skip
def test_a_value_said_with_now_replaces_the_one_held(
    memory: Memory, space: str, before: str, said: str, question: str, answer: str
) -> None:
    remember_said(memory, space, [("Priya", before), ("Bo", "Nice."), ("Priya", said)], DAY)
    assert claimed(memory, space, question, ASKED_AT).startswith(answer)


@pytest.mark.parametrize(
    ("space", "said"),
    [
        ("right-now", "Right now I'm at Globex."),
        ("busy-right-now", "I'm so busy right now."),
        ("know-now", "I know now that Globex pays more."),
        ("now-learning", "Now I'm learning French."),
    ],
)
def test_a_moment_or_a_thought_said_with_now_changes_no_employer(memory: Memory, space: str, said: str) -> None:
    remember_said(memory, space, [
        ("Priya", "I work at Initech."), ("Bo", "Nice."), ("Priya", said),
    ], DAY)  # fmt: skip
    assert claimed(memory, space, "Where does Priya work now?", ASKED_AT).startswith("Priya — employer: Initech ")


def test_a_now_said_of_something_else_marks_no_change_of_the_employer(memory: Memory) -> None:
    """"Now I'm dating Sam, and I work at Globex": the "now" opens the clause of the partner,
    not the one of the job, so the employer is two reports a minute apart, as before."""
    space = remember_said(memory, "now-elsewhere", [
        ("Priya", "I work at Initech."), ("Bo", "Nice."), ("Priya", "Now I'm dating Sam, and I work at Globex."),
    ], DAY)  # fmt: skip
    deltas = memory.deltas(space, "Priya", "employer")
    assert [(d.observed, d.change_signal) for d in deltas] == [("Initech", False), ("Globex", False)]


def test_a_value_said_still_now_keeps_the_one_held(memory: Memory) -> None:
    space = remember_said(memory, "now-still", [
        ("Priya", "I live in Madrid."), ("Bo", "Nice."), ("Priya", "I visited Leeds."), ("Priya", "Now I still live in Madrid."),
    ], DAY)  # fmt: skip
    deltas = memory.deltas(space, "Priya", "residence")
    assert deltas and not any(d.change_signal for d in deltas)
