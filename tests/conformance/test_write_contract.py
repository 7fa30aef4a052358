"""Level 0 write contract: idempotent, atomic, durable, isolated."""

from __future__ import annotations

from typing import Any

import pytest

from eywa import Memory
from eywa.errors import ClosedError, InvalidInputError, InvalidTurnError, NotFoundError
from eywa.models import SignalKind

from .conftest import MemoryFactory

TURNS: list[dict[str, Any]] = [
    {"text": "I started a new job at Acme last Monday.", "speaker": "Ana", "session": "s1",
     "observed_at": "2023-05-25T10:00:00", "metadata": {"dia_id": "D1:1"}},
    {"text": "Congrats! What do you do there?", "speaker": "Ben", "session": "s1",
     "observed_at": "2023-05-25T10:01:00", "metadata": {"dia_id": "D1:2"}},
    {"text": "I'm a data engineer. It pays $1,200 more a month.", "speaker": "Ana", "session": "s1",
     "observed_at": "2023-05-25T10:02:00", "metadata": {"dia_id": "D1:3"}},
]


def test_remember_returns_ids_in_order_and_stores_turns(memory: Memory) -> None:
    ids = memory.remember("ana", TURNS)
    assert len(ids) == 3 and len(set(ids)) == 3
    stored = [memory.evidence("ana", i) for i in ids]
    assert [e.text for e in stored] == [t["text"] for t in TURNS]
    assert [e.seq for e in stored] == [0, 1, 2]
    assert stored[2].metadata == {"dia_id": "D1:3"}
    assert stored[0].observed_at.isoformat() == "2023-05-25T10:00:00+00:00"


def test_signals_are_persisted_with_spans(memory: Memory) -> None:
    ids = memory.remember("ana", TURNS)
    first = memory.evidence("ana", ids[0])
    dates = first.signals_of(SignalKind.DATE)
    assert dates and dates[0].normalized == "2023-05-22"  # last Monday before Thursday 25 May
    for signal in first.signals:
        assert first.text[signal.start : signal.end] == signal.text
    money = memory.evidence("ana", ids[2]).signals_of(SignalKind.MONEY)
    assert money and money[0].normalized == "1200.00 USD"


def test_resending_is_idempotent(memory: Memory) -> None:
    first = memory.remember("ana", TURNS)
    again = memory.remember("ana", TURNS)
    assert again == first
    assert memory.stats("ana")["evidence"] == 3


def test_external_id_makes_a_turn_idempotent_even_with_new_text(memory: Memory) -> None:
    [a] = memory.remember("s", [{"text": "hello", "external_id": "msg-1"}])
    [b] = memory.remember("s", [{"text": "hello, edited", "external_id": "msg-1"}])
    assert a == b
    assert memory.evidence("s", a).text == "hello"  # evidence is immutable


def test_identical_texts_in_one_batch_are_distinct_turns(memory: Memory) -> None:
    ids = memory.remember("s", [{"text": "ok", "speaker": "A"}, {"text": "ok", "speaker": "A"}])
    assert len(set(ids)) == 2


def test_invalid_turn_writes_nothing_and_names_the_turn(memory: Memory) -> None:
    bad = [TURNS[0], {"text": "   "}, TURNS[2]]
    with pytest.raises(InvalidTurnError) as info:
        memory.remember("ana", bad)
    assert info.value.index == 1 and "turn 1" in str(info.value)
    assert memory.stats("ana")["evidence"] == 0


@pytest.mark.parametrize(
    "turn, fragment",
    [
        ({"speaker": "A"}, "text"),
        ({"text": "x", "observed_at": "not a date"}, "observed_at"),
        ({"text": "x", "metadata": {"f": object()}}, "metadata"),
        ({"text": "x", "colour": "red"}, "colour"),
        ("just a string", "dict"),
    ],
)
def test_bad_turns_are_refused_with_a_clear_reason(memory: Memory, turn: object, fragment: str) -> None:
    with pytest.raises(InvalidTurnError, match=fragment):
        memory.remember("s", [turn])  # type: ignore[list-item]


@pytest.mark.parametrize("space", ["", "   ", "x" * 201, "a\nb"])
def test_bad_space_is_refused(memory: Memory, space: str) -> None:
    with pytest.raises(InvalidInputError):
        memory.remember(space, TURNS)


def test_reopen_sees_everything(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    ids = mem.remember("ana", TURNS)
    mem.close()
    reopened = open_memory()
    assert [reopened.evidence("ana", i).text for i in ids] == [t["text"] for t in TURNS]
    result = reopened.recall("ana", "Where does Ana work?")
    assert result.items[0].provenance[0].id == ids[0]


def test_spaces_are_isolated(memory: Memory) -> None:
    memory.remember("ana", TURNS)
    memory.remember("zed", [{"text": "I bake sourdough bread every weekend.", "speaker": "Zed"}])
    result = memory.recall("zed", "Where does Ana work? Acme data engineer")
    assert result.items, "the other space's own turn is still returned"
    assert all(ref.speaker == "Zed" for item in result.items for ref in item.provenance)
    with pytest.raises(NotFoundError):
        memory.evidence("zed", memory.remember("ana", TURNS)[0])


def test_closed_memory_refuses_use(memory: Memory) -> None:
    memory.close()
    with pytest.raises(ClosedError):
        memory.remember("s", TURNS)
    with pytest.raises(ClosedError):
        memory.recall("s", "anything")


FILLS_THE_TURN = 20_000  # EYWA_MAX_CHARS_PER_TURN's default: a turn every surface accepts


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("see https://example.com/" + "a" * (FILLS_THE_TURN - 40) + " now", SignalKind.URL),
        ("write to " + "a" * (FILLS_THE_TURN - 40) + "@example.com today", SignalKind.EMAIL),
        ("I counted " + "1" * (FILLS_THE_TURN - 40) + " stars", SignalKind.QUANTITY),
        ("code " + "A1" * (FILLS_THE_TURN // 2 - 10), SignalKind.CODE),
    ],
    ids=["url", "email", "quantity", "code"],
)
def test_a_turn_whose_one_signal_fills_it_is_stored(memory: Memory, text: str, kind: SignalKind) -> None:
    # The signal's normalized value is far over a Neo4j range-index key (about 8 kB); the
    # turn is within the limits, so every backend keeps it (Neo4j refused the batch).
    assert len(text) <= memory.limits.max_chars_per_turn
    [evidence_id] = memory.remember("ana", [{"text": text, "speaker": "Ana"}])
    stored = memory.evidence("ana", evidence_id)
    assert stored.text == text
    assert len(stored.signals_of(kind)[0].normalized) > 8_000


@pytest.mark.parametrize(
    "text",
    [
        " ".join(["Zorblax"] * (FILLS_THE_TURN // 8)),
        "Ana moved to " + "Quux" * (FILLS_THE_TURN // 4 - 10) + " last year.",
    ],
    ids=["words", "one-word"],
)
def test_a_turn_whose_capitalised_run_fills_it_is_stored(memory: Memory, text: str) -> None:
    # A run of capitalised words thousands of characters long names nothing: it is no
    # entity (Neo4j's (space, name) range index refused it, failing the batch).
    [evidence_id] = memory.remember("ana", [{"text": text, "speaker": "Ana"}])
    assert memory.evidence("ana", evidence_id).text == text
    assert memory.recall("ana", "Zorblax Quux").items
