""""Where did Ana work before Globex?" is answered by the state just before Globex began.

The memory keeps every dimension's history, and "Where does Ana work?" is answered with
"(was Initech)"; asked what held before a value, it claimed nothing and the turn that named
the new value ranked first. Through the public ``Memory`` with the default rule extractor."""

from __future__ import annotations

import pytest

from eywa.memory import Memory

TURNS = [
    ("2023-02-01T10:00:00", "I work at Initech, in the billing team."),
    ("2023-03-01T10:00:00", "I live in Austin with my two cats."),
    ("2023-10-02T10:00:00", "I started a new job at Globex today!"),
    ("2023-11-20T10:00:00", "We just moved to Seattle."),
    ("2024-05-20T10:00:00", "I got hired by Hooli, starting Monday."),
]
ASKED_AT = "2024-08-01T00:00:00"


@pytest.fixture
def space(memory: Memory) -> str:
    memory.remember("before", [{"text": text, "speaker": "Ana", "session": at[:10], "observed_at": at}
                               for at, text in TURNS])  # fmt: skip
    return "before"


def _claimed(memory: Memory, space: str, question: str) -> str:
    found = memory.recall(space, question, k=3, as_of=ASKED_AT)
    return found.items[0].text if found.trace["answer"] is not None else ""


@pytest.mark.parametrize(
    ("question", "answer", "then"),
    [
        ("Where did Ana work before Globex?", "Ana — employer: Initech since 1 Feb 2023", "1 Oct 2023"),
        ("Where did Ana work before joining Globex?", "Ana — employer: Initech since 1 Feb 2023", "1 Oct 2023"),
        ("Where did Ana work before Hooli?", "Ana — employer: Globex since 2 Oct 2023 (was Initech)", "20 May 2024"),
        ("Where did Ana live before Seattle?", "Ana — residence: Austin since 1 Mar 2023", "20 Nov 2023"),
        ("Where did Ana live before moving to Seattle?", "Ana — residence: Austin since 1 Mar 2023", "20 Nov 2023"),
    ],
)
def test_what_held_before_a_value_is_the_state_just_before_it_began(memory: Memory, space: str, question: str,
                                                                    answer: str, then: str) -> None:
    said = _claimed(memory, space, question)
    assert said.startswith(answer), said
    # Worded for the asker, as of the moment before the named value began (the start of
    # Globex said on 2 Oct "today": its day; the move and Hooli by the turns' times).
    assert said.endswith(f"as of {then}"), said


@pytest.mark.parametrize(
    "question",
    [
        "Where did Ana work before Initech?",  # nothing is known before it
        "Where did Ana work before Umbrella?",  # never one of her values
        "Did Ana work at Initech before Globex?",  # a yes/no: the turns answer it
    ],
)
def test_nothing_is_claimed_before_a_value_the_memory_holds_nothing_before(memory: Memory, space: str,
                                                                            question: str) -> None:
    assert _claimed(memory, space, question) == ""


def test_the_current_answer_is_unchanged(memory: Memory, space: str) -> None:
    assert _claimed(memory, space, "Where does Ana work?").startswith("Ana — employer: Hooli since 20 May 2024")


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Where did Ana use to work?", "Ana — employer: Globex since 2 Oct 2023 (was Initech)"),
        ("Where did Ana work before?", "Ana — employer: Globex since 2 Oct 2023 (was Initech)"),
        ("What was Ana's previous job?", "Ana — employer: Globex since 2 Oct 2023 (was Initech)"),
        ("What is Ana's old company?", "Ana — employer: Globex since 2 Oct 2023 (was Initech)"),
        ("Where did Ana live previously?", "Ana — residence: Austin since 1 Mar 2023"),
        ("Where did Ana use to live?", "Ana — residence: Austin since 1 Mar 2023"),
    ],
)
def test_what_held_before_the_present_state_is_the_state_before_its_last_change(memory: Memory, space: str,
                                                                                 question: str, answer: str) -> None:
    """"Where did Ana use to work?" claimed nothing (a past question is not about now) and
    could not name the value it asks about: it is the state just before the present one
    began, of the attribute that changed."""
    assert _claimed(memory, space, question).startswith(answer), question


def test_a_value_that_ended_is_what_held_before_and_an_unchanged_state_answers_nothing(memory: Memory) -> None:
    """Sara, then "we split up", then Julia: Tom's former partner is Sara (the state before the
    split), not "unknown (was Sara)". A state that never changed has no previous value: the
    present one is not claimed for it."""
    turns = [("2023-01-05T10:00:00", "My girlfriend Sara and I share a flat in Leeds."),
             ("2023-04-12T10:00:00", "Sara and I split up, it's been a rough spring."),
             ("2023-08-20T10:00:00", "I've been seeing someone new, her name is Julia."),
             ("2023-08-21T10:00:00", "I work at Initech as an accountant.")]  # fmt: skip
    memory.remember("ex", [{"text": text, "speaker": "Tom", "session": at[:10], "observed_at": at}
                           for at, text in turns])  # fmt: skip
    found = memory.recall("ex", "Who was Tom's former partner?", k=3, as_of=ASKED_AT)
    assert found.trace["answer"] is not None and found.items[0].text.startswith("Tom — partner: Sara"), found.items[0]
    assert memory.recall("ex", "Who is Tom dating?", k=3, as_of=ASKED_AT).items[0].text.startswith("Tom — partner: Julia")
    for question in ("Where did Tom use to work?", "Where did Tom use to live?"):
        assert memory.recall("ex", question, k=3, as_of=ASKED_AT).trace["answer"] is None, question


def test_a_value_asked_with_its_article_is_the_value_kept(memory: Memory) -> None:
    """"… before the NHS?": the value is kept as "NHS", and "the" left it unread."""
    memory.remember("before-the", [
        {"text": "I work at Initech, in the billing team.", "speaker": "Ana", "session": "a",
         "observed_at": "2023-02-01T10:00:00"},
        {"text": "I quit Initech and joined the NHS as a nurse.", "speaker": "Ana", "session": "b",
         "observed_at": "2023-10-02T10:00:00"},
    ])  # fmt: skip
    for question in ("Where did Ana work before the NHS?", "Where did Ana work before joining the NHS?"):
        said = _claimed(memory, "before-the", question)
        assert said.startswith("Ana — employer: Initech"), (question, said)
