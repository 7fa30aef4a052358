"""A status that says by itself that the marriage ended ("divorced", "widowed", "separated")
is a change of the relationship status, as "retired" is of the employer
(``AttributeSpec.change_values``): "I married Tom in 2019", then "We divorced last year",
left married and divorced equal (p 0.4 each) and "Is Nadia married?" unanswered. Through the
public ``Memory`` with the default rule extractor, each case in its own space.
"""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

DAY = "2026-03-02"
ASKED_AT = "2026-03-03T00:00:00"


@pytest.mark.parametrize(
    ("space", "said", "question"),
    [
        ("married-then-divorced", [("Nadia", "I married Tom in 2019."), ("Bo", "Congrats!"), ("Nadia", "We divorced last year.")], "Is Nadia married?"),
        ("husband-then-divorced", [("Nadia", "My husband Tom is a chef."), ("Bo", "How is he?"), ("Nadia", "We got divorced in March.")], "Is Nadia still married?"),
    ],
)  # fmt: skip
def test_a_divorce_after_a_marriage_is_the_status_now(memory: Memory, space: str, said: list[tuple[str, str]], question: str) -> None:
    remember_said(memory, space, said, DAY)
    assert claimed(memory, space, question, ASKED_AT).startswith("Nadia — relationship_status: divorced since ")


def test_a_marriage_alone_stays_the_status(memory: Memory) -> None:
    space = remember_said(memory, "married-only", [("Nadia", "I'm married."), ("Bo", "How long?"), ("Nadia", "Ten years.")], DAY)
    assert claimed(memory, space, "Is Nadia married?", ASKED_AT).startswith("Nadia — relationship_status: married since ")
