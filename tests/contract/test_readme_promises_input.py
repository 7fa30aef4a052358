"""README input-contract promises no other test walked (audit of s16).

- "Tuples are accepted and come back as lists" (metadata).
- A space is refused when "blank, longer than 200 characters, not printable or ``*``": the
  star was tested, not the other three, nor that 200 characters are accepted; a read of
  such a space is refused as a write is (``invalid_input`` naming ``space``).
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import pytest

from eywa.errors import InvalidInputError
from eywa.memory import Memory


def test_tuples_in_metadata_are_accepted_and_come_back_as_lists(memory: Memory) -> None:
    metadata: dict[str, Any] = {"pair": (1, "two"), "nested": {"inner": ((1, 2), [3])}}
    (evidence_id,) = memory.remember("tuples", [{"text": "with a tuple", "metadata": metadata}])
    assert memory.evidence("tuples", evidence_id).metadata == {"pair": [1, "two"], "nested": {"inner": [[1, 2], [3]]}}


@pytest.mark.parametrize("space", ["", "   ", "s" * 201, "tab\there", "line\nbreak", "nul\x00", "bell\x07"])
def test_a_blank_overlong_or_unprintable_space_is_refused_on_writes_and_reads(memory: Memory, space: str) -> None:
    for call in (
        lambda: memory.remember(space, [{"text": "hello"}]),
        lambda: memory.recall(space, "hello"),
        lambda: memory.stats(space),
    ):
        with pytest.raises(InvalidInputError) as info:
            call()
        assert info.value.code == "invalid_input" and [p.field for p in info.value.problems] == ["space"]
    assert space not in memory.spaces()


def test_a_space_of_200_printable_characters_is_accepted(memory: Memory) -> None:
    space = "é" * 199 + "漢"
    memory.remember(space, [{"text": "hello"}])
    assert space in memory.spaces() and memory.stats(space)["evidence"] == 1


def test_recall_packs_its_context_into_the_token_budget(memory: Memory) -> None:
    """README: routes are "fused … and packed into a token budget" (``budget_tokens``); the
    packer had a unit test, the budget through ``recall`` none."""
    places = ["Lyon", "Porto", "Kyoto", "Quito", "Oslo", "Lima", "Cork", "Bern", "Riga", "Sofia"]
    turns = [{"text": f"I ate pasta in {place} with my sister in spring.", "speaker": "Ana", "session": f"s{i % 3}",
              "observed_at": f"2024-03-{i + 1:02d}T10:00:00Z"} for i, place in enumerate(places)]  # fmt: skip
    memory.remember("budget", turns)
    unbounded = memory.recall("budget", "Where did Ana eat pasta?", k=10)
    assert unbounded.tokens > 60
    for budget in (1, 20, 60):
        packed = memory.recall("budget", "Where did Ana eat pasta?", k=10, budget_tokens=budget)
        assert packed.tokens <= budget and len(packed.items) < len(unbounded.items)
        assert {item.id for item in packed.items} <= {item.id for item in unbounded.items}


def test_a_naive_time_is_taken_as_utc(memory: Memory) -> None:
    """README, Times: "A naive time is taken as UTC" (shown for the temporal signals only)."""
    ids = memory.remember("naive", [
        {"text": "Naive text time.", "observed_at": "2024-01-01T10:00:00"},
        {"text": "Naive datetime.", "observed_at": datetime(2024, 1, 2, 10, 0)},
        {"text": "Offset time.", "observed_at": "2024-01-03T12:00:00+02:00"},
    ])  # fmt: skip
    seen = [memory.evidence("naive", i).observed_at for i in ids]
    assert seen == [datetime(2024, 1, d, 10, 0, tzinfo=timezone.utc) for d in (1, 2, 3)]
    before_the_second = memory.recall("naive", "time", as_of="2024-01-02T09:59:59")
    assert {item.id for item in before_the_second.items} <= {ids[0]} and before_the_second.items
