""""Where does Priya work now?" after a new job said the everyday way.

"Guess what, I'm working for Globex now!" was read as a hedge ("guess"), and "I started working
for Initech", "I started a job at Hooli" and "I started working from home for Vandelay" as
events only: the employer was never claimed; and "I started at Initech" after "I work at
Globex" split the employer between the two (no change cue), so neither was claimed. Through the public ``Memory`` with the default rule extractor; a hedge
("I guess what I want is …") and a player's start ("I started for the Tigers") still claim
no employer."""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Priya", "Guess what, I'm working for Globex now!"),
    ("Bo", "I work at Globex."),
    ("Bo", "I started working for Initech last week."),
    ("Nadia", "I started a job at Hooli."),
    ("Tom", "I started working from home for Vandelay."),
    ("Kim", "I work at Globex."),
    ("Kim", "I started at Initech last week."),
    ("Lena", "I guess what I want is to work for Globex."),
    ("Omar", "I started for the Tigers last season."),
]
ASKED_AT = "2025-04-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "new-jobs", TURNS, "2025-01-10")


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Where does Priya work?", "Priya — employer: Globex"),
        ("Where does Bo work now?", "Bo — employer: Initech"),
        ("Where does Nadia work?", "Nadia — employer: Hooli"),
        ("Where does Tom work?", "Tom — employer: Vandelay"),
        ("Where does Kim work now?", "Kim — employer: Initech"),
    ],
)
def test_a_new_job_said_the_everyday_way_is_the_answer(memory: Memory, space: str, question: str, said: str) -> None:
    assert claimed(memory, space, question, ASKED_AT).startswith(said)


@pytest.mark.parametrize("question", ["Where does Lena work?", "Where does Omar work?"])
def test_a_hedge_or_a_players_start_claims_no_employer(memory: Memory, space: str, question: str) -> None:
    assert claimed(memory, space, question, ASKED_AT) == ""
