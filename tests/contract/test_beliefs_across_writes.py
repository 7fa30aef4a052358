"""What a memory believes does not depend on how the turns were grouped into writes.

An agent writes turn by turn, as the conversation goes; an import writes a whole
conversation at once. Both must end with the same dimensions. Two kinds of belief cite a
turn none of their words are in, and reached the dimensions only when that turn was in the
same write as the one holding the words: the reply that asserts what its question said
("Do you still work at Initech?" "Yes."), and a turn read again once an earlier turn
gave a name ("I left Globex and joined Initech", written before "I work at Globex").
Then the same for people the speaker talks about: "Eva left Globex and joined Initech"
after "My sister Eva works at Globex" ends Eva's job there and names her new one, as it
does for the speaker.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import eywa
from eywa.memory import Memory

DEMO = Path(eywa.__file__).parent / "data" / "demo" / "conversation.jsonl"

Turn = tuple[str, str, str]
"""(speaker, text, when said)."""


def _space(tag: str, turns: list[Turn]) -> str:
    return f"{tag}-" + hashlib.sha256(repr(turns).encode()).hexdigest()[:10]


def _write(memory: Memory, space: str, turns: list[Turn], *, grouping: str) -> None:
    rows = [{"text": text, "speaker": who, "session": f"s{when[:10]}", "observed_at": when} for who, text, when in turns]
    if grouping == "one write":
        memory.remember(space, rows)
    else:
        for row in rows:
            memory.remember(space, [row])


def _modes(memory: Memory, space: str) -> dict[tuple[str, str], str | None]:
    return {(d.entity, d.attribute): d.mode for d in memory.dimensions(space)
            if d.attribute in ("employer", "residence")}  # fmt: skip


REPLY: list[Turn] = [
    ("Bob", "Do you still work at Initech?", "2024-05-01T10:00:00"),
    ("Alice", "Yes, still there.", "2024-05-01T10:01:00"),
]
LEFT_AND_JOINED: list[Turn] = [
    ("Alice", "I work at Globex.", "2024-05-01T10:00:00"),
    ("Alice", "I left Globex and joined Initech.", "2024-07-01T10:00:00"),
]
THIRD_PERSON: list[Turn] = [
    ("Alice", "My sister Eva works at Globex and my brother Tom lives in Leeds.", "2024-05-01T10:00:00"),
    ("Alice", "Eva quit Globex and joined Initech last month.", "2024-07-01T10:00:00"),
    ("Alice", "Tom left Leeds.", "2024-07-02T10:00:00"),
]


@pytest.mark.parametrize("grouping", ["one write", "turn by turn"])
def test_a_reply_that_asserts_its_question_answers_however_written(memory: Memory, grouping: str) -> None:
    """Written turn by turn, "Alice works at Initech" was believed (citing both turns) but
    never reached Alice's employer: no dimension at all."""
    space = _space("reply-" + grouping.replace(" ", ""), REPLY)
    _write(memory, space, REPLY, grouping=grouping)
    assert _modes(memory, space) == {("Alice", "employer"): "Initech"}


@pytest.mark.parametrize("grouping", ["one write", "turn by turn", "later first"])
def test_leaving_a_job_named_earlier_answers_in_any_write_order(memory: Memory, grouping: str) -> None:
    """Written later turn first, the read-again belief "Alice joined Initech" was stored but
    never reached the dimension: the employer answered nothing (Globex ended, Initech
    unseen)."""
    turns = list(reversed(LEFT_AND_JOINED)) if grouping == "later first" else LEFT_AND_JOINED
    space = _space("left-" + grouping.replace(" ", ""), turns)
    _write(memory, space, turns, grouping="turn by turn" if grouping == "later first" else grouping)
    assert _modes(memory, space) == {("Alice", "employer"): "Initech"}
    employer = memory.dimension(space, "Alice", "employer")
    assert employer is not None and employer.distribution["Initech"] > 0.9, employer


@pytest.mark.parametrize("grouping", ["one write", "turn by turn"])
def test_a_named_person_leaving_what_they_were_said_to_have_ends_it(memory: Memory, grouping: str) -> None:
    """"Eva quit Globex and joined Initech" named no employer for Eva (the rule looked up
    only the speaker's own employers), and "Tom left Leeds" ended nothing for Tom."""
    space = _space("third-" + grouping.replace(" ", ""), THIRD_PERSON)
    _write(memory, space, THIRD_PERSON, grouping=grouping)
    modes = _modes(memory, space)
    assert modes[("Eva", "employer")] == "Initech", modes
    assert modes[("Tom", "residence")] != "Leeds", modes
    eva = {(b.value, b.polarity) for b in memory.beliefs(space, subject="Eva", attribute="employer")}
    assert {("Globex", "negative"), ("Initech", "positive")} <= eva, eva


def test_leaving_a_name_never_said_to_be_a_job_names_no_employer(memory: Memory) -> None:
    """Eva's employer known, "Eva left Paris and joined Tom in Rome" is still a trip, not a job."""
    turns: list[Turn] = [
        ("Alice", "My sister Eva works at Globex and my friend Tom lives in Rome.", "2024-05-01T10:00:00"),
        ("Alice", "Eva left Paris and joined Tom in Rome.", "2024-07-01T10:00:00"),
    ]
    space = _space("third-none", turns)
    _write(memory, space, turns, grouping="one write")
    employer = {(b.value, b.polarity) for b in memory.beliefs(space, subject="Eva", attribute="employer")}
    assert employer == {("Globex", "positive")}, employer


def test_a_whole_conversation_believes_the_same_written_at_once_or_turn_by_turn(memory: Memory) -> None:
    """The demo conversation (56 turns, two people, jobs, homes, a reply to a question):
    the same beliefs and the same dimensions, to the rounding of a probability, whether
    imported in one write or written as an agent writes, one turn per call."""
    rows = [json.loads(line) for line in DEMO.read_text(encoding="utf-8").splitlines() if line.strip()]
    memory.remember("demo-at-once", rows)
    for row in rows:
        memory.remember("demo-one-by-one", [row])

    def believed(space: str) -> set[tuple[str, str | None, str | None, str, str]]:
        return {(b.statement, b.attribute, b.value, b.polarity, b.status) for b in memory.beliefs(space, status=None)}

    def dimensions(space: str) -> set[tuple[str, str, str | None, tuple[tuple[str, float], ...]]]:
        return {(d.entity, d.attribute, d.mode, tuple(sorted((v, round(p, 6)) for v, p in d.distribution.items())))
                for d in memory.dimensions(space)}  # fmt: skip

    assert believed("demo-at-once") and dimensions("demo-at-once")
    assert believed("demo-one-by-one") == believed("demo-at-once")
    assert dimensions("demo-one-by-one") == dimensions("demo-at-once")
