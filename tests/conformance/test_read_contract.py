"""Recall contract: ranked items with provenance, budgets, policies, as-of, recovery."""

from __future__ import annotations

import pytest

from eywa import Memory
from eywa.errors import InvalidInputError

from .conftest import MemoryFactory

CONVERSATION = [
    {"text": "I adopted a golden retriever puppy named Biscuit.", "speaker": "Mia", "session": "s1",
     "observed_at": "2023-03-01T09:00:00", "metadata": {"dia_id": "D1:1", "source": "chat"}},
    {"text": "Aww, how old is he?", "speaker": "Tom", "session": "s1",
     "observed_at": "2023-03-01T09:01:00", "metadata": {"dia_id": "D1:2"}},
    {"text": "Ten weeks. He chews everything, including my running shoes.", "speaker": "Mia",
     "session": "s1", "observed_at": "2023-03-01T09:02:00", "metadata": {"dia_id": "D1:3"}},
    {"text": "I signed up for the city marathon in October.", "speaker": "Tom", "session": "s2",
     "observed_at": "2023-06-10T18:00:00", "metadata": {"dia_id": "D2:1"}},
    {"text": "My sister Lena is visiting from Berlin next week.", "speaker": "Mia", "session": "s2",
     "observed_at": "2023-06-10T18:05:00", "metadata": {"dia_id": "D2:2"}},
    {"text": "We painted the kitchen a pale green colour.", "speaker": "Tom", "session": "s3",
     "observed_at": "2023-09-02T12:00:00", "metadata": {"dia_id": "D3:1"}},
]


@pytest.fixture
def filled(memory: Memory) -> Memory:
    memory.remember("home", CONVERSATION)
    return memory


def _dia_ids(result_items: object) -> list[str]:
    return [ref.metadata.get("dia_id") for item in result_items for ref in item.provenance]  # type: ignore[attr-defined]


def test_recall_ranks_the_relevant_turn_first_with_provenance(filled: Memory) -> None:
    """The pets line the turn made ("pets: Biscuit": the puppy named after its breed and kind)
    answers first, citing that turn; the turn itself is the first turn, found by words and by
    meaning, with the caller's metadata."""
    result = filled.recall("home", "What is the name of Mia's dog?", k=3)
    answer, top = result.items[0], result.items[1]
    assert answer.kind == "dimension" and answer.text.startswith("Mia — pets: Biscuit")
    assert result.trace["answer"] == {"kind": "dimension", "id": answer.id}
    assert [ref.metadata for ref in answer.provenance] == [{"dia_id": "D1:1", "source": "chat"}]
    assert top.kind == "evidence" and "Biscuit" in top.text
    assert top.provenance[0].metadata == {"dia_id": "D1:1", "source": "chat"}
    assert top.provenance[0].speaker == "Mia" and top.provenance[0].session == "s1"
    assert {"keyword", "vector"} <= set(top.routes)
    assert "Biscuit" in result.context


def test_vector_route_finds_paraphrases_keyword_cannot(filled: Memory) -> None:
    result = filled.recall("home", "Which pet did she get?", k=2)
    assert "D1:1" in _dia_ids(result.items)


def test_items_are_sorted_by_score_and_k_is_respected(filled: Memory) -> None:
    result = filled.recall("home", "marathon running", k=4)
    scores = [i.score for i in result.items]
    assert scores == sorted(scores, reverse=True) and len(result.items) <= 4


def test_context_is_grouped_by_session_with_dates(filled: Memory) -> None:
    result = filled.recall("home", "dog puppy marathon kitchen", k=6)
    assert "March 2023" in result.context and "June 2023" in result.context
    assert result.context.index("March 2023") < result.context.index("June 2023")


def test_budget_limits_the_context(filled: Memory) -> None:
    unlimited = filled.recall("home", "dog puppy marathon kitchen sister", k=6)
    small = filled.recall("home", "dog puppy marathon kitchen sister", k=6, budget_tokens=40)
    assert small.tokens <= 40 < unlimited.tokens
    assert 0 < len(small.items) < len(unlimited.items)


def test_answer_instructions_are_separate_from_context(filled: Memory) -> None:
    strict = filled.recall("home", "dog", policy="strict")
    advanced = filled.recall("home", "dog", policy="advanced")
    assert strict.answer_instructions != advanced.answer_instructions
    assert strict.answer_instructions not in strict.context
    assert "date" in advanced.answer_instructions.lower()


def test_as_of_hides_later_turns(filled: Memory) -> None:
    result = filled.recall("home", "kitchen paint colour", k=6, as_of="2023-07-01T00:00:00")
    assert "D3:1" not in _dia_ids(result.items)
    assert all(i.observed_at is None or i.observed_at.year == 2023 and i.observed_at.month < 7 for i in result.items)


def test_trace_has_plan_routes_and_timings(filled: Memory) -> None:
    trace = filled.recall("home", "When is Tom's marathon?").trace
    assert trace["plan"]["shape"] == "temporal" and "Tom" in trace["plan"]["entities"]
    assert set(trace["routes"]) >= {"keyword", "vector"}
    assert trace["timings_ms"]["total"] > 0


@pytest.mark.parametrize(
    "kwargs",
    [{"query": ""}, {"query": "x", "k": 0}, {"query": "x", "k": 10_000}, {"query": "x", "policy": "loose"},
     {"query": "x", "budget_tokens": 0}, {"query": "x", "as_of": "yesterday-ish"}],
)
def test_bad_recall_arguments_are_refused(filled: Memory, kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidInputError):
        filled.recall("home", **kwargs)  # type: ignore[arg-type]


def test_vectors_are_repaired_after_a_crash_between_commits(
    open_memory: MemoryFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem = open_memory()

    def crash(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt("simulated crash after the SQLite commit")

    monkeypatch.setattr(mem._stores.vectors, "upsert", crash)
    with pytest.raises(KeyboardInterrupt):
        mem.remember("home", CONVERSATION)
    monkeypatch.undo()
    assert mem._stores.vectors.count("evidence", "home") == 0
    mem.close()

    reopened = open_memory()
    assert reopened._stores.vectors.count("evidence", "home") == len(CONVERSATION)
    assert reopened.repair_vectors() == 0
    result = reopened.recall("home", "Which pet did she get?", k=2)
    assert "D1:1" in _dia_ids(result.items)


def test_repair_of_one_space_leaves_the_others_alone(
    open_memory: MemoryFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem = open_memory()

    def crash(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt("simulated crash after the graph commit")

    monkeypatch.setattr(mem._stores.vectors, "upsert", crash)
    for space in ("a", "b"):
        with pytest.raises(KeyboardInterrupt):
            mem.remember(space, CONVERSATION[:2])
    monkeypatch.undo()
    assert mem.repair_vectors("a") == 2
    assert mem._stores.vectors.count("evidence", "b") == 0
    assert mem.repair_vectors() == 2  # b now
