"""Current-state questions answered from dimensions, end to end on every backend.

A scripted extractor stands in for an LLM, so what is tested is the read path: the planner
maps the question to (person, attribute), the dimension route reads the dimension as of the
query's time and claims rank 1 when it is sure, with the turns that established the value as
provenance, and no post-filter overrules it; hedged values and stale turns never outrank it.
"""

from __future__ import annotations

from eywa import Memory
from eywa.models import RecallResult

from .conftest import MemoryFactory
from .scripted import ScriptedExtractor


TURNS = [
    {"text": "I work at Halden as an analyst, the office is a short walk away.", "speaker": "Ana", "session": "s1",
     "observed_at": "2024-02-03T18:00:00"},
    {"text": "Halden is fine, the work there is slow but the office is near home.", "speaker": "Ana", "session": "s1",
     "observed_at": "2024-02-03T18:01:00"},
    {"text": "Do you still like the office at Halden?", "speaker": "Ben", "session": "s1",
     "observed_at": "2024-02-03T18:02:00"},
    {"text": "I might move to Paris next year if the studio there hires me.", "speaker": "Ana", "session": "s1",
     "observed_at": "2024-02-03T18:03:00"},
    {"text": "I live in Leeds, in a small flat near the station.", "speaker": "Ana", "session": "s1",
     "observed_at": "2024-02-03T18:04:00"},
    {"text": "I quit Halden last week and I start at Fernbrook on Monday.", "speaker": "Ana", "session": "s2",
     "observed_at": "2024-05-01T18:00:00"},
    {"text": "How is the new work going? Is the office nice?", "speaker": "Ben", "session": "s3",
     "observed_at": "2024-10-22T18:00:00"},
    {"text": "Fernbrook is great, I love working at Fernbrook.", "speaker": "Ana", "session": "s3",
     "observed_at": "2024-10-22T18:01:00"},
]  # fmt: skip
FACTS = {
    "I work at Halden": [{"statement": "Ana works at Halden.", "subject": "Ana", "attribute": "employer", "value": "Halden"}],
    "I quit Halden": [
        {"statement": "Ana quit Halden.", "subject": "Ana", "attribute": "employer", "value": "Halden", "polarity": "negative"},
        {"statement": "Ana starts at Fernbrook.", "subject": "Ana", "attribute": "employer", "value": "Fernbrook"},
    ],
    "working at Fernbrook": [{"statement": "Ana loves working at Fernbrook.", "subject": "Ana", "attribute": "employer",
                              "value": "Fernbrook"}],
    "move to Paris": [{"statement": "Ana might move to Paris.", "subject": "Ana", "attribute": "residence", "value": "Paris",
                       "modality": "hedged"}],
    "I live in Leeds": [{"statement": "Ana lives in Leeds.", "subject": "Ana", "attribute": "residence", "value": "Leeds"}],
}  # fmt: skip
AS_OF = "2024-11-01T09:00:00"


def _filled(open_memory: MemoryFactory) -> tuple[Memory, list[str]]:
    mem = open_memory(ScriptedExtractor(FACTS))
    return mem, mem.remember("r", TURNS, wait=True)


def _first(result: RecallResult, text: str) -> int | None:
    return next((rank for rank, item in enumerate(result.items, 1) if text in item.text), None)


def test_a_confident_dimension_answers_at_rank_one_with_the_turns_that_show_it(open_memory: MemoryFactory) -> None:
    mem, ids = _filled(open_memory)
    result = mem.recall("r", "Where does Ana work now?", k=5, as_of=AS_OF)
    top = result.items[0]
    assert top.kind == "dimension" and top.text.startswith("Ana — employer: Fernbrook since ")
    assert "(was Halden)" in top.text
    # the change point (and the end of Halden), the last thing said
    assert [ref.id for ref in top.provenance] == [ids[5], ids[7]]
    assert result.trace["answer"] == {"kind": "dimension", "id": top.id}
    assert result.trace["plan"]["attributes"][0] == "employer" and result.trace["plan"]["current_state"] is True
    assert [hit.get("claim") for hit in result.trace["routes"]["dimension"][:1]] == [True]
    # Ana's own turns about Halden's office are boosted as her words; none outranks the answer
    assert all(item.score < top.score for item in result.items[1:])
    again = mem.recall("r", "Where does Ana work now?", k=5, as_of=AS_OF)  # deterministic for an as_of
    assert (again.items, again.context) == (result.items, result.context)


def test_read_as_of_a_time_before_the_change_the_old_value_answers(open_memory: MemoryFactory) -> None:
    mem, ids = _filled(open_memory)
    result = mem.recall("r", "Where does Ana work now?", k=5, as_of="2024-03-01T00:00:00")
    assert result.items[0].text.startswith("Ana — employer: Halden since 3 Feb 2024")
    assert all(ref.id in ids[:5] for item in result.items for ref in item.provenance)  # nothing said later


def test_a_hedged_value_never_answers_and_never_outranks_the_current_one(open_memory: MemoryFactory) -> None:
    mem, _ = _filled(open_memory)
    assert [b.modality for b in mem.beliefs("r", subject="Ana", attribute="residence") if b.value == "Paris"] == ["hedged"]
    result = mem.recall("r", "Where does Ana live now?", k=5, as_of=AS_OF)
    assert result.items[0].text.startswith("Ana — residence: Leeds")
    stale = _first(result, "Paris")
    assert stale is None or stale > 1
    moving = mem.recall("r", "Is Ana moving to Paris?", k=5, as_of=AS_OF)
    top = moving.items[0]
    # a yes/no about the planned value: the dimension says Leeds, and how unlikely Paris is
    assert top.kind == "dimension" and top.text.startswith("Ana — residence: Leeds") and "; Paris p 0." in top.text


def test_past_tense_and_date_questions_are_not_claimed(open_memory: MemoryFactory) -> None:
    mem, _ = _filled(open_memory)
    result = mem.recall("r", "When did Ana start at Fernbrook?", k=5, as_of=AS_OF)
    assert result.trace["answer"] is None and result.trace["plan"]["current_state"] is False


def test_what_held_before_a_value_is_answered_as_it_stood_just_before_it(open_memory: MemoryFactory) -> None:
    """Not the current state (a past-tense question), but the dimension as it stood just before
    Fernbrook first held (the turn that quit Halden and named Fernbrook): Halden, worded as of
    then, with the turn that had it."""
    mem, ids = _filled(open_memory)
    result = mem.recall("r", "Where did Ana work before Fernbrook?", k=5, as_of=AS_OF)
    top = result.items[0]
    assert result.trace["plan"]["current_state"] is False and result.trace["plan"]["before"] == "Fernbrook"
    assert result.trace["answer"] == {"kind": "dimension", "id": top.id}
    assert top.text.startswith("Ana — employer: Halden since 3 Feb 2024") and "as of 1 May 2024" in top.text, top.text
    assert "Fernbrook" not in top.text and [ref.id for ref in top.provenance] == [ids[0]]



def test_what_someone_does_for_a_living_is_their_work_not_where_they_live(open_memory: MemoryFactory) -> None:
    mem, _ = _filled(open_memory)
    result = mem.recall("r", "What does Ana do for a living?", k=5, as_of=AS_OF)
    assert result.items[0].text.startswith("Ana — employer: Fernbrook"), result.items[0].text
    assert all("residence" not in item.text for item in result.items[:1])


def test_the_state_at_a_past_time_is_answered_from_the_dimension_as_it_stood_then(open_memory: MemoryFactory) -> None:
    mem, ids = _filled(open_memory)
    march = mem.recall("r", "Where did Ana work in March 2024?", k=5, as_of=AS_OF)
    top = march.items[0]
    # read as of the end of March: Halden, from what was said by then; worded for the asker
    assert top.kind == "dimension" and top.text.startswith("Ana — employer: Halden since 3 Feb 2024")
    assert "as of 31 Mar 2024" in top.text and "Fernbrook" not in top.text
    assert [ref.id for ref in top.provenance] == [ids[0]]
    assert march.trace["answer"] == {"kind": "dimension", "id": top.id}
    assert march.trace["plan"]["state_at"].startswith("2024-03-31T23:59:59")
    june = mem.recall("r", "Where did Ana work in June 2024?", k=5, as_of=AS_OF).items[0]
    assert june.kind == "dimension" and june.text.startswith("Ana — employer: Fernbrook since ") and "(was Halden)" in june.text
    # before anything was said about where she lived, no dimension answers
    before = mem.recall("r", "Where did Ana live in 2023?", k=5, as_of=AS_OF)
    assert before.trace["answer"] is None and all(item.kind != "dimension" for item in before.items)
    # a reason is not a state, a time that has not begun is not the past, and a yes/no
    # about a value holds if it did at any time of the window, which its end does not say
    for question in ("Why did Ana leave Halden in May 2024?", "Where will Ana work in 2030?",
                     "Did Ana work at Halden in 2024?"):  # fmt: skip
        assert mem.recall("r", question, k=5, as_of=AS_OF).trace["answer"] is None, question


RENT = [
    {"text": "My landlord raised the rent to £1,150 a month.", "speaker": "Tom", "session": "s1",
     "observed_at": "2024-02-03T18:00:00"},
    {"text": "Rent in Lisbon is lower, about €900 for a flat like mine.", "speaker": "Pia", "session": "s1",
     "observed_at": "2024-02-03T18:01:00"},
    {"text": "The rent went up again with the new lease, it's £1,240 a month now.", "speaker": "Tom", "session": "s2",
     "observed_at": "2024-10-22T18:00:00"},
    {"text": "Thirty pounds more for the same flat, the rent is absurd.", "speaker": "Pia", "session": "s2",
     "observed_at": "2024-10-22T18:01:00"},
]  # fmt: skip


def test_how_much_now_is_the_amount_said_last(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    mem.remember("r", RENT)
    now = mem.recall("r", "How much rent does Tom pay?", k=5, as_of="2024-11-01T00:00:00")
    assert now.trace["plan"]["latest_amount"] is True
    assert "£1,240" in now.items[0].text
    before = mem.recall("r", "How much rent does Tom pay?", k=5, as_of="2024-06-01T00:00:00")
    assert "£1,150" in before.items[0].text
    past = mem.recall("r", "How much rent did Tom pay in February 2024?", k=5, as_of="2024-11-01T00:00:00")
    assert past.trace["plan"]["latest_amount"] is False
