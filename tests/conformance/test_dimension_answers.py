"""Beliefs that answer, end to end on every backend: a turn → a canonical belief → a
dimension that holds the current value, the change point and the last evidence.

A scripted extractor stands in for an LLM, so what is tested is everything after the
proposal: canonical values, the validator's cessation semantics, the Nous update and the
``Memory.dimension`` read for an injected ``as_of``.
"""

from __future__ import annotations

from datetime import datetime, timezone

from eywa import Memory
from eywa.models import ReasonCode
from eywa.nous import dimension_line

from .conftest import MemoryFactory
from .scripted import ScriptedExtractor


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)


JOB_TURNS = [
    {"text": "I work at Google as a designer.", "speaker": "Ana", "session": "s1", "observed_at": "2023-01-10T09:00:00"},
    {"text": "I left Google last week, a bit scary.", "speaker": "Ana", "session": "s2",
     "observed_at": "2024-04-30T09:00:00"},
    {"text": "Today was my first day at Fernbrook!", "speaker": "Ana", "session": "s3",
     "observed_at": "2024-05-06T09:00:00"},
    {"text": "Fernbrook is great, I love working at Fernbrook.", "speaker": "Ana", "session": "s4",
     "observed_at": "2024-10-22T09:00:00"},
]  # fmt: skip
JOB_FACTS = {
    "work at Google": [{"statement": "Ana works at Google.", "subject": "Ana", "attribute": "work", "value": "at Google"}],
    "left Google": [{"statement": "Ana left Google.", "subject": "Ana", "attribute": "employer", "value": "Google",
                     "polarity": "negative"}],
    "first day at Fernbrook": [{"statement": "Ana started her first day at Fernbrook.", "subject": "Ana",
                                "attribute": "employer", "value": "Fernbrook"}],
    "working at Fernbrook": [{"statement": "Ana loves working at Fernbrook.", "subject": "Ana", "attribute": "employer",
                              "value": "Fernbrook"}],
}  # fmt: skip


def test_a_job_change_answers_now_and_as_of_the_last_evidence(open_memory: MemoryFactory) -> None:
    mem: Memory = open_memory(ScriptedExtractor(JOB_FACTS))
    ids = mem.remember("r", JOB_TURNS)
    today = utc("2026-01-03T08:00:00")
    now = mem.dimension("r", "Ana", "employer", as_of=today)
    assert (now.mode, now.since, now.previous) == ("Fernbrook", utc("2024-05-06T09:00:00"), "Google")
    assert now.distribution["Google"] < 0.1 < 0.8 < now.distribution["Fernbrook"]
    last = now.last_observed
    assert last is not None and (last.value, last.polarity, last.at) == ("Fernbrook", "positive", utc("2024-10-22T09:00:00"))
    assert last.evidence_ids == (ids[3],)
    assert last.belief_id in {b.id for b in mem.beliefs("r", subject="Ana", attribute="employer")}
    between = mem.dimension("r", "Ana", "employer", as_of="2024-05-01T00:00:00")
    assert (between.mode, between.previous) == (None, "Google")
    assert between.last_observed is not None and between.last_observed.polarity == "negative"
    before = mem.dimension("r", "Ana", "employer", as_of="2024-01-01T00:00:00")
    assert (before.mode, before.since, before.previous) == ("Google", utc("2023-01-10T09:00:00"), None)
    assert mem.dimension("r", "Ana", "employer", as_of=today) == now  # deterministic for a given as_of
    line = dimension_line(now, today)
    assert line.startswith("employer: Fernbrook since 6 May 2024 (was Google) — last said 22 Oct 2024; p ")
    assert line.endswith(" as of today")
    listed = {d.attribute: d for d in mem.dimensions("r", "Ana", as_of=today)}
    assert listed["employer"] == now


DIET_TURNS = [
    {"text": "I don't eat meat.", "speaker": "Priya", "session": "s1", "observed_at": "2023-03-01T12:00:00"},
    {"text": "I'm vegetarian, so the lentils for me.", "speaker": "Priya", "session": "s2",
     "observed_at": "2023-06-01T12:00:00"},
    {"text": "Honestly I've been meat-free for ages.", "speaker": "Priya", "session": "s3",
     "observed_at": "2023-09-01T12:00:00"},
    {"text": "I quit pottery, it was too messy.", "speaker": "Priya", "session": "s3",
     "observed_at": "2023-09-01T12:01:00"},
]  # fmt: skip
DIET_FACTS = {
    "don't eat meat": [
        {"statement": "Priya does not eat meat.", "subject": "Priya", "attribute": "diet", "value": "no meat"},
        # the double negative: (no meat, negative) is (meat, positive), refused
        {"statement": "Priya does not eat meat.", "subject": "Priya", "attribute": "diet", "value": "no meat",
         "polarity": "negative"},
    ],
    "vegetarian": [{"statement": "Priya is vegetarian.", "subject": "Priya", "attribute": "diet", "value": "Vegetarian"}],
    "meat-free": [{"statement": "Priya is meat-free.", "subject": "Priya", "attribute": "dietary_preference",
                   "value": "meat-free"}],
    "quit pottery": [{"statement": "Priya quit pottery.", "subject": "Priya", "attribute": "hobbies", "value": "pottery",
                      "polarity": "negative"}],
}  # fmt: skip


def test_the_same_fact_said_three_ways_is_one_value_of_one_dimension(open_memory: MemoryFactory) -> None:
    mem: Memory = open_memory(ScriptedExtractor(DIET_FACTS))
    mem.remember("r", DIET_TURNS)
    diet = mem.dimension("r", "Priya", "diet")
    assert list(diet.distribution) == ["meat"] and diet.distribution["meat"] < 0.25 and diet.mode is None
    assert len(mem.deltas("r", "Priya", "diet")) == 3
    beliefs = mem.beliefs("r", subject="Priya", attribute="diet")
    assert {(b.value, b.polarity) for b in beliefs} == {("meat", "negative")} and len(beliefs) == 3
    refused = mem.candidates("r", status="repair")
    assert [(c.fact.value, c.fact.polarity, c.reasons) for c in refused] == [
        ("meat", "positive", (ReasonCode.POLARITY_FLIP,))
    ]
    hobbies = mem.dimension("r", "Priya", "hobbies")
    assert hobbies.distribution["pottery"] < 0.5 and hobbies.mode is None
    assert hobbies.last_observed is not None and hobbies.last_observed.polarity == "negative"
    assert dimension_line(diet).startswith("diet: not meat (p 0.")
