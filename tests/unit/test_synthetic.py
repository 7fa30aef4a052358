"""The synthetic latency corpus: deterministic, multi-speaker, multi-session, and a query
mix whose shapes the planner reads as intended and whose names are corpus speakers."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Required, TypedDict

import pytest

from eywa.bench.synthetic import (
    QUERY_SHAPES,
    corpus_speakers,
    generate_corpus,
    generate_queries,
)
from eywa.errors import InvalidInputError
from eywa.models import Turn
from eywa.read.plan import question_shape


def test_same_seed_gives_identical_corpus_and_other_seed_differs() -> None:
    first = list(generate_corpus(500, seed=7))
    assert first == list(generate_corpus(500, seed=7))
    assert [t["text"] for _, t in first] != [t["text"] for _, t in generate_corpus(500, seed=8)]


def test_corpus_has_exact_size_valid_turns_and_one_space() -> None:
    corpus = list(generate_corpus(1234, seed=0))
    assert len(corpus) == 1234
    assert {space for space, _ in corpus} == {"synthetic"}
    for _, raw in corpus[:200]:
        Turn.model_validate(raw)  # every turn is accepted by Memory.remember


def test_corpus_is_multi_speaker_multi_session_with_increasing_dates() -> None:
    turns = [t for _, t in generate_corpus(2000, seed=3, speakers=6)]
    assert {t["speaker"] for t in turns} == set(corpus_speakers(3, 6))
    sessions = [t["session"] for t in turns]
    assert len(set(sessions)) == 50  # 40 turns per session
    assert sessions == sorted(sessions)
    stamps = [datetime.fromisoformat(t["observed_at"]) for t in turns]
    assert all(a < b for a, b in zip(stamps, stamps[1:], strict=False))
    by_session: dict[str, set[str]] = {}
    for t in turns:
        by_session.setdefault(t["session"], set()).add(t["speaker"])
    assert all(len(speakers) == 2 for speakers in by_session.values())


def test_speakers_state_facts_that_the_queries_ask_about() -> None:
    texts = " ".join(t["text"] for _, t in generate_corpus(3000, seed=0))
    assert "I work as a" in texts and "$" in texts and "last Saturday" in texts


def test_query_mix_is_balanced_and_planner_reads_each_shape() -> None:
    queries = generate_queries(seed=0, n=120)
    assert queries == generate_queries(seed=0, n=120)
    assert Counter(q.shape for q in queries) == {shape: 20 for shape in QUERY_SHAPES}
    assert all(question_shape(q.text) == q.shape for q in queries)


def test_queries_name_speakers_of_the_corpus() -> None:
    names = corpus_speakers(5, 8)
    for query in generate_queries(seed=5, n=60):
        assert any(name in query.text for name in names), query.text


class CorpusSize(TypedDict, total=False):
    """Size arguments of ``generate_corpus``."""

    turns: Required[int]
    speakers: int
    turns_per_session: int


@pytest.mark.parametrize("kwargs", [{"turns": -1}, {"turns": 10, "speakers": 1}, {"turns": 10, "turns_per_session": 1}])
def test_bad_arguments_are_refused(kwargs: CorpusSize) -> None:
    with pytest.raises(InvalidInputError):
        list(generate_corpus(**kwargs))
