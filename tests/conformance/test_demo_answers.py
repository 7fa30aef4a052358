"""Every demo question is answered at rank 1 by an item carrying the right value (the
current value for state questions, the date or amount for the others), and no stale value
outranks it; where a dimension answers, its provenance is the speaker's own turns."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import resources

import pytest

from eywa import Memory
from eywa.cli.demo import DEMO_SPACE, DemoQuestion, demo_as_of, demo_questions
from eywa.embedding import Embedder

from .conftest import BACKENDS
from .conversation_answers import answer_rank, remembered, stale_rank


@pytest.fixture(scope="module", params=BACKENDS)
def demo_memory(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, embedder: Embedder
) -> Iterator[tuple[Memory, list[str]]]:
    with resources.as_file(resources.files("eywa").joinpath("data/demo/conversation.jsonl")) as turns:
        yield from remembered(request, tmp_path_factory.mktemp("demo"), embedder, turns, DEMO_SPACE)


@pytest.mark.parametrize("question", demo_questions(), ids=lambda q: q.question)
def test_the_rank_one_item_carries_the_answer_and_no_stale_value_outranks_it(
    question: DemoQuestion, demo_memory: tuple[Memory, list[str]]
) -> None:
    mem, ids = demo_memory
    result = mem.recall(DEMO_SPACE, question.question, k=5, as_of=demo_as_of())
    ranked = [(item.kind, item.text) for item in result.items]
    assert answer_rank(result, question.expected) == 1, ranked
    stale = stale_rank(result, question.stale, question.expected)
    assert stale is None or stale > 1, ranked
    top = result.items[0]
    if top.kind == "dimension":
        subject = top.text.split(" — ")[0]
        assert top.provenance and all(ref.id in ids and ref.speaker == subject for ref in top.provenance)


def test_the_state_questions_about_work_and_diet_are_answered_by_dimensions(demo_memory: tuple[Memory, list[str]]) -> None:
    mem, _ = demo_memory
    answered = {
        q.question: mem.recall(DEMO_SPACE, q.question, k=5, as_of=demo_as_of()).items[0].kind
        for q in demo_questions()
    }
    assert answered["Where does Priya work now?"] == "dimension"
    assert answered["What is Priya's job now?"] == "dimension"
    assert answered["Does Priya eat meat?"] == "dimension"
    assert answered["When did Priya move to Lisbon?"] != "dimension"  # a date: a turn or belief says it
