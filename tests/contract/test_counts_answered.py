""""How many kids does Ana have?" is answered by the line of her children.

A count of what one holds now is a question about a state: the line of values ("children:
Leo, Mia", "children: two kids") answers it, as it answers "Does Ana have kids?". It
claimed nothing, and the turn that said it ranked first. Counts of something else (times,
a past, a wish) stay the turns' to answer, and so do a count of one relation of a set the
line keeps together ("brothers" among siblings: the line does not say which is which) and a
line that says no number ("pets: cat": an unnamed kind may be one or many).
Through the public ``Memory`` with the default rule extractor."""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

TURNS = [
    ("Ana", "My sister Lena and my brother Max both live in Oslo."),
    ("Bo", "I have two kids and a cat."),
    ("Priya", "We adopted a beagle named Pepper, and we also have a cat called Miso."),
    ("Tom", "My son Leo just turned five, and my daughter Mia is three."),
    ("Tom", "We went hiking twice last month."),
]
ASKED_AT = "2025-04-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    return remember_said(memory, "counts", TURNS, "2025-01-10")


def _claimed(memory: Memory, space: str, question: str) -> str:
    return claimed(memory, space, question, ASKED_AT)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("How many siblings does Ana have?", "Ana — siblings: Lena"),
        ("How many brothers and sisters does Ana have?", "Ana — siblings: Lena"),
        ("How many kids does Bo have?", "Bo — children: two kids"),
        ("How many children has Tom got?", "Tom — children: Leo"),
        ("How many kids does Tom have now?", "Tom — children: Leo"),
        ("How many pets does Priya have?", "Priya — pets: Miso"),
    ],
)
def test_a_count_of_what_one_holds_is_answered_by_its_line(memory: Memory, space: str, question: str,
                                                           answer: str) -> None:
    said = _claimed(memory, space, question)
    assert said.startswith(answer), said
    # Every value is on the line: the count is the reader's to make.
    if "Lena" in answer:
        assert "Max" in said
    if "Leo" in answer:
        assert "Mia" in said
    if "Miso" in answer:
        assert "Pepper" in said


@pytest.mark.parametrize(
    "question",
    [
        "How many brothers does Ana have?",  # the siblings line does not say who is a brother
        "How many daughters does Tom have?",
        "How many kids does Tom want?",  # a wish, not a state
        "How many dogs has Priya had?",  # a past
        "How many times did Tom go hiking?",  # no attribute: the turns count
        "How many does Bo have?",  # counts nothing named
        "How many pets does Bo have?",  # "pets: cat" says no number: the turn does
    ],
)
def test_other_counts_are_left_to_the_turns(memory: Memory, space: str, question: str) -> None:
    assert _claimed(memory, space, question) == ""
