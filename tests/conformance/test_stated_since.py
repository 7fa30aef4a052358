"""A dimension's ``since`` is the start the turn states, not the day it was said.

"I have worked at Google since 2015", said in 2023, answers "Google since 2015": "since
1 Mar 2023" is plainly wrong to the person who said it. "We moved to York last week", said
on 1 Aug 2023, answers "York since" the week the parser reads (24 Jul 2023). The event time
the math uses stays the time said (``eywa.nous.observations``: placed at its start, eight
years of decay would erase the belief); only what ``since`` reports changes, and the turn an
answer cites for the change is the one that states the start.

Through the public ``Memory`` on every backend. A scripted extractor stands in for an LLM
for the histories of several turns; the rule extractor is used as it is for "last week",
"started working at Google in 2015" and "have worked at Google since 2015" (the present
perfect with "since" gives the employer its start).
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from eywa import Memory
from eywa.nous import dimension_line

from .conftest import MemoryFactory
from .scripted import ScriptedExtractor


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)


def turn(text: str, at: str, session: str = "s1") -> dict[str, Any]:
    return {"text": text, "speaker": "Ana", "session": session, "observed_at": at}


def employer(value: str, valid_from: str | None = None, statement: str = "") -> list[dict[str, Any]]:
    fact: dict[str, Any] = {"statement": statement or f"Ana works at {value}.", "subject": "Ana",
                            "attribute": "employer", "value": value}  # fmt: skip
    if valid_from is not None:
        fact["valid_from"] = utc(valid_from)
    return [fact]


SINCE_2015 = "I have worked at Google since 2015."
STILL = "I still work at Google."
NEW_JOB = "I got a new job at Initech."
FACTS = {
    SINCE_2015: employer("Google", "2015-01-01T00:00:00"),
    STILL: employer("Google"),
    NEW_JOB: employer("Initech"),
    "I work at Google.": employer("Google"),
}


def answer(mem: Memory, space: str, question: str, as_of: str) -> tuple[str, tuple[str, ...]]:
    """The claimed answer's text and cited turns ("" and () when nothing is claimed)."""
    result = mem.recall(space, question, k=5, as_of=as_of)
    top = result.items[0]
    if top.kind != "dimension" or not result.trace.get("answer"):
        return "", ()
    return top.text, tuple(ref.id for ref in top.provenance)


def test_a_stated_start_is_since_and_an_undated_reassertion_keeps_it(open_memory: MemoryFactory) -> None:
    mem = open_memory(ScriptedExtractor(FACTS))
    [said, _] = mem.remember("g", [turn(SINCE_2015, "2023-03-01T10:00:00"), turn(STILL, "2023-06-01T10:00:00", "s2")])
    now = mem.dimension("g", "Ana", "employer", as_of="2023-07-01T00:00:00")
    assert (now.mode, now.since, now.previous) == ("Google", utc("2015-01-01T00:00:00"), None)
    assert dimension_line(now).startswith("employer: Google since 1 Jan 2015 — last said 1 Jun 2023; p ")
    text, cited = answer(mem, "g", "Where does Ana work?", "2023-07-01T00:00:00")
    assert text.startswith("Ana — employer: Google since 1 Jan 2015"), text
    assert cited[:1] == (said,), cited  # the turn that states the start
    # The event time the math uses is still the time said: no eight years of decay.
    assert now.distribution["Google"] > 0.8
    assert [d.at for d in mem.deltas("g", "Ana", "employer")] == [utc("2023-03-01T10:00:00"), utc("2023-06-01T10:00:00")]


def test_a_later_change_of_employer_has_its_own_since(open_memory: MemoryFactory) -> None:
    mem = open_memory(ScriptedExtractor(FACTS))
    ids = mem.remember("c", [turn(SINCE_2015, "2023-03-01T10:00:00"), turn(NEW_JOB, "2024-02-01T10:00:00", "s2")])
    now = mem.dimension("c", "Ana", "employer", as_of="2024-03-01T00:00:00")
    assert (now.mode, now.since, now.previous) == ("Initech", utc("2024-02-01T10:00:00"), "Google")
    text, cited = answer(mem, "c", "Where does Ana work?", "2024-03-01T00:00:00")
    assert text.startswith("Ana — employer: Initech since 1 Feb 2024 (was Google)"), text
    assert cited == (ids[1], ids[0]), cited  # the change, then what it replaced
    before = mem.dimension("c", "Ana", "employer", as_of="2023-12-01T00:00:00")
    assert (before.mode, before.since) == ("Google", utc("2015-01-01T00:00:00"))


def test_a_start_stated_after_an_undated_mention_moves_since_back(open_memory: MemoryFactory) -> None:
    """"I work at Google" (2022), then "I have worked at Google since 2015" (2023): the
    value never changed, and it has held since 2015, not since it was first mentioned."""
    mem = open_memory(ScriptedExtractor(FACTS))
    ids = mem.remember("b", [turn("I work at Google.", "2022-03-01T10:00:00"), turn(SINCE_2015, "2023-03-01T10:00:00", "s2")])
    now = mem.dimension("b", "Ana", "employer", as_of="2023-07-01T00:00:00")
    assert (now.mode, now.since) == ("Google", utc("2015-01-01T00:00:00"))
    text, cited = answer(mem, "b", "Where does Ana work?", "2023-07-01T00:00:00")
    assert text.startswith("Ana — employer: Google since 1 Jan 2015"), text
    assert cited[:1] == (ids[1],), cited


HOBBY = "I've played chess since 2010."
HOBBY_FACTS = {HOBBY: [{"statement": "Ana plays chess.", "subject": "Ana", "attribute": "hobbies", "value": "chess",
                        "valid_from": utc("2010-01-01T00:00:00")}]}  # fmt: skip


def test_a_set_member_is_a_member_since_its_stated_start(open_memory: MemoryFactory) -> None:
    mem = open_memory(ScriptedExtractor(HOBBY_FACTS))
    mem.remember("h", [turn(HOBBY, "2023-03-01T10:00:00")])
    now = mem.dimension("h", "Ana", "hobbies", as_of="2023-04-01T00:00:00")
    assert (now.mode, now.since) == ("chess", utc("2010-01-01T00:00:00"))
    assert "chess since 1 Jan 2010 (p " in dimension_line(now)


def test_moved_last_week_is_since_that_week(memory: Memory) -> None:
    [moved] = memory.remember("y", [turn("We moved to York last week.", "2023-08-01T10:00:00")])
    [belief] = memory.beliefs("y", subject="Ana", attribute="residence")
    assert belief.valid_from is not None and belief.valid_from < utc("2023-08-01T00:00:00")
    now = memory.dimension("y", "Ana", "residence", as_of="2023-08-20T00:00:00")
    assert (now.mode, now.since) == ("York", belief.valid_from)
    text, cited = answer(memory, "y", "Where does Ana live?", "2023-08-20T00:00:00")
    assert text.startswith(f"Ana — residence: York since {belief.valid_from.day} Jul 2023"), text
    assert cited[:1] == (moved,), cited


def test_started_working_in_2015_said_in_2023_is_since_2015(memory: Memory) -> None:
    memory.remember("s", [turn("I started working at Google in 2015.", "2023-03-01T10:00:00")])
    text, _ = answer(memory, "s", "Where does Ana work?", "2023-04-01T00:00:00")
    assert text.startswith("Ana — employer: Google since 1 Jan 2015"), text


def test_worked_since_2015_with_the_rule_extractor(memory: Memory) -> None:
    memory.remember("r", [turn(SINCE_2015, "2023-03-01T10:00:00")])
    text, _ = answer(memory, "r", "Where does Ana work?", "2023-04-01T00:00:00")
    assert text.startswith("Ana — employer: Google since 1 Jan 2015"), text


def test_a_start_said_ahead_replayed_is_last_said_when_it_was_said(memory: Memory) -> None:
    """A dimension read as of a time before a later change is replayed from its deltas; a
    start said ahead ("I'm joining Initech next month", said 10 Jun, held from 1 Jul) was then
    "last said 1 Jul", a day nothing was said: the deltas did not keep when it was said."""
    memory.remember("j", [turn("I work at Globex.", "2024-01-10T10:00:00"),
                          turn("I'm joining Initech next month as an engineer.", "2024-06-10T10:00:00"),
                          turn("Yesterday was my last day at Initech.", "2024-09-13T10:00:00")])  # fmt: skip
    joined = next(d for d in memory.deltas("j", "Ana", "employer") if (d.observed, d.polarity) == ("Initech", "positive"))
    assert (joined.at, joined.said_at) == (utc("2024-07-01T00:00:00"), utc("2024-06-10T10:00:00"))
    text, _ = answer(memory, "j", "Where does Ana work now?", "2024-08-01T00:00:00")
    assert text.startswith("Ana — employer: Initech since 1 Jul 2024 (was Globex) — last said 10 Jun 2024;"), text
