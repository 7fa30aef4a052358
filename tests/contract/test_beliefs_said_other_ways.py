"""What holds now, said other ways: a diet said with its noun or said to have ended, a start
said with its "I'm" dropped, a job contract signed, work gone freelance, a pet named after its
breed. Probed from outside
through the public ``Memory`` with the default rule extractor; each test says what the memory
did before."""

from __future__ import annotations

import hashlib

import pytest

from eywa.memory import Memory

ASKED_AT = "2024-12-01T00:00:00"


def _eva(memory: Memory, *texts: str) -> str:
    """Eva says each text, a month apart from 1 May 2024."""
    space = "other-" + hashlib.sha256("|".join(texts).encode()).hexdigest()[:10]
    memory.remember(space, [{"text": text, "speaker": "Eva", "session": f"s{i}", "observed_at": f"2024-{5 + i:02d}-01T10:00:00"}
                            for i, text in enumerate(texts)])  # fmt: skip
    return space


def _answer(memory: Memory, space: str, question: str) -> str:
    """The text of the claimed answer, or "" when nothing is claimed."""
    result = memory.recall(space, question, k=5, as_of=ASKED_AT)
    top = result.items[0]
    return top.text if top.kind == "dimension" and result.trace.get("answer") else ""


@pytest.mark.parametrize(
    ("texts", "question", "answer"),
    [
        # the start said in a sentence of its own with "I'm" dropped: no Hooli before
        (("I work at Initech.",
          "Big news, I handed in my notice at Initech. Starting at Hooli next month as a senior analyst."),
         "Where does Eva work now?", "Eva — employer: Hooli since 1 Jul 2024 (was Initech)"),
        (("I work at Initech.",
          "Big news, I handed in my notice at Initech. Starting at Hooli next month as a senior analyst."),
         "What does Eva do?", "Eva — occupation: senior analyst"),
        (("Working at Globex now.",), "Where does Eva work now?", "Eva — employer: Globex since 1 May 2024"),
        # a job contract signed: only an event before
        (("I just signed a full-time contract with Pixar Studios as an illustrator!",),
         "Where does Eva work now?", "Eva — employer: Pixar Studios since 1 May 2024"),
        # freelance: no employer before
        (("I'm a graphic designer, freelance mostly.",), "Where does Eva work now?",
         "Eva — employer: self-employed since 1 May 2024"),
        (("I work at Initech.", "I've gone freelance."), "Where does Eva work now?",
         "Eva — employer: self-employed since 1 Jun 2024 (was Initech)"),
        # a diet said with its noun: no diet before
        (("I started a keto diet last week.",), "What diet is Eva on?", "Eva — diet: keto since 22 Apr 2024"),
        (("I've switched to a vegan diet since January.",), "Is Eva vegan?", "Eva — diet: vegan: not meat"),
        (("I've been on a vegan diet since January.",), "Does Eva eat meat?", "Eva — diet: vegan: not meat"),
        # a diet quit by its label alone: still keto before
        (("I'm keto.", "I quit keto."), "Is Eva keto?", "Eva — diet: not keto"),
        # a pet's name after its breed between commas: a dog without a name before
        (("I got a puppy, a golden retriever named Sunny.",), "What pets does Eva have?", "Eva — pets: Sunny"),
        (("We adopted a cat, a tabby called Milo.",), "What pets does Eva have?", "Eva — pets: Milo"),
    ],
)
def test_a_state_said_another_way_is_the_answer(memory: Memory, texts: tuple[str, ...], question: str,
                                                answer: str) -> None:
    space = _eva(memory, *texts)
    said = _answer(memory, space, question)
    assert said.startswith(answer), said


def test_a_vegetarian_diet_said_not_to_have_lasted_is_no_longer_claimed(memory: Memory) -> None:
    """"… the vegetarian thing didn't last." left the vegetarian's "diet: not meat" claimed as
    what holds now. It is now believed ended (meat, positive); the memory claims no answer
    either way, since the reading of what holds does not take that sentence for a change
    (its turn carries no cessation cue), and the two say opposite things a month apart."""
    space = _eva(memory, "I'm vegetarian.",
                 "Honestly I caved and had a burger last night, the vegetarian thing didn't last.")
    beliefs = {(b.attribute, b.value, b.polarity) for b in memory.beliefs(space)}
    assert ("diet", "meat", "positive") in beliefs, beliefs
    state = _answer(memory, space, "Is Eva vegetarian?").split(" — last said")[0]
    assert "not meat" not in state and "vegetarian" not in state, state
