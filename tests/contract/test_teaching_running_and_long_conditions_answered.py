""""What does Priya do?" after "I teach maths at the high school.", "Where does Bo work?" after
"I run a small bakery downtown.", and "What health conditions does Kim have?" after "I was
diagnosed with asthma as a kid."

Teaching at a school said no occupation ("I teach at Riverside High" gave the employer only),
and a subject between "teach" and a school said by its kind gave nothing; a business one runs
was read only when named ("a bakery called Crumbs"); a diagnosis dated to childhood, a
condition had "since I was a kid" or "for years", and a condition written as its acronym
("I have ADHD") were not read at all. Through the public ``Memory`` with the default rule
extractor; a story ("I ran a bakery in my twenties"), a stall for a day ("I'm running a
bakery stall at the fair"), a condition had and gone ("I've had the flu twice this winter")
and teaching somewhere that is not a school ("I teach yoga at the gym": a coach, an
instructor) claim no such thing."""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Priya", "I teach maths at the high school."),
    ("Omar", "I teach at Riverside High."),
    ("Bo", "I run a small bakery downtown."),
    ("Nadia", "I've been running a café in Porto for years."),
    ("Kim", "I was diagnosed with asthma as a kid."),
    ("Lena", "I've had migraines since I was a teenager."),
    ("Tom", "I have ADHD."),
    ("Sam", "I ran a bakery in my twenties."),
    ("Eva", "I'm running a bakery stall at the fair."),
    ("Ines", "I've had the flu twice this winter."),
    ("Ravi", "I teach yoga at the gym."),
]
ASKED_AT = "2025-04-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "teaching-running-conditions", TURNS, "2025-01-10")


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("What does Priya do for a living?", "Priya — occupation: teacher"),
        ("What is Omar's occupation?", "Omar — occupation: teacher"),
        ("Where does Bo work?", "Bo — employer: bakery"),
        ("Where does Nadia work?", "Nadia — employer: café"),
        ("What health conditions does Kim have?", "Kim — health: asthma"),
        ("What health conditions does Lena have?", "Lena — health: migraines"),
        ("What health conditions does Tom have?", "Tom — health: adhd"),
        # a gym one teaches at is where one works; it does not make one a teacher (below)
        ("Where does Ravi work?", "Ravi — employer: gym"),
    ],
)
def test_teaching_running_or_a_lasting_condition_is_the_answer(
    memory: Memory, space: str, question: str, said: str
) -> None:
    assert claimed(memory, space, question, ASKED_AT).startswith(said)


@pytest.mark.parametrize(
    "question",
    [
        "Where does Sam work?",
        "Where does Eva work?",
        "What health conditions does Ines have?",
        "What is Ravi's occupation?",
    ],
)
def test_a_story_a_stall_a_passing_illness_or_a_class_given_claims_nothing(
    memory: Memory, space: str, question: str
) -> None:
    assert claimed(memory, space, question, ASKED_AT) == ""
