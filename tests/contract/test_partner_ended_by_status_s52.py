"""A partner is no present answer once the relationship status says there is none: "We
divorced last year" names no husband, so no belief can say "not Tom", but it makes the status
divorced, and the partner said before it is then listed, not claimed
(``AttributeSpec.ended_by``, read by the dimension route). Through the public ``Memory`` with
the default rule extractor, each case in its own space, the question asked the next day.
"""

from __future__ import annotations

import pytest

from eywa.memory import Memory
from tests.contract.conftest import claimed, remember_said

DAY = "2026-03-02"
ASKED_AT = "2026-03-03T00:00:00"
QUESTION = "Who is Nadia's partner?"


@pytest.mark.parametrize(
    ("space", "said"),
    [
        ("divorced-after-marrying", [("Nadia", "I married Tom in 2019."), ("Bo", "Congrats!"), ("Nadia", "We divorced last year.")]),
        ("got-divorced", [("Nadia", "My husband Tom is a chef."), ("Bo", "How is he?"), ("Nadia", "We got divorced in March.")]),
        ("divorced-now", [("Nadia", "My husband Tom is a chef."), ("Bo", "How is he?"), ("Nadia", "I'm divorced now.")]),
        ("separated", [("Nadia", "My husband Tom is a chef."), ("Bo", "How is he?"), ("Nadia", "We separated in March.")]),
    ],
)  # fmt: skip
def test_a_partner_said_before_a_divorce_is_not_claimed(memory: Memory, space: str, said: list[tuple[str, str]]) -> None:
    remember_said(memory, space, said, DAY)
    assert claimed(memory, space, QUESTION, ASKED_AT) == ""
    # Listed, not claimed: the line with the partner is still there for the caller to read.
    found = memory.recall(space, QUESTION, k=10, as_of=ASKED_AT)
    assert any(item.text.startswith("Nadia — partner: Tom ") for item in found.items)


@pytest.mark.parametrize(
    ("space", "said", "partner"),
    [
        ("boyfriend-after-divorce", [("Nadia", "I'm divorced."), ("Bo", "Seeing anyone?"), ("Nadia", "My boyfriend Sam is great.")], "Sam"),
        ("still-married", [("Nadia", "My husband Tom is a chef."), ("Bo", "How is he?"), ("Nadia", "He's great, we just bought a house.")], "Tom"),
    ],
)  # fmt: skip
def test_a_partner_said_after_the_status_or_with_none_is_claimed(
    memory: Memory, space: str, said: list[tuple[str, str]], partner: str
) -> None:
    remember_said(memory, space, said, DAY)
    assert claimed(memory, space, QUESTION, ASKED_AT).startswith(f"Nadia — partner: {partner} ")
