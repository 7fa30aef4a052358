"""Which words the feedback route adds to a question (pure; the route itself is in
tests/conformance/test_feedback_route.py)."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from eywa.read.overlap import terms
from eywa.read.plan import make_plan
from eywa.read.routes.feedback import MIN_SHARED, expansion_terms

BEST = [
    "Pottery class today: we shaped clay bowls and fired them in the kiln.",
    "More pottery tonight, two clay bowls came out of the kiln cracked.",
    "Ana, the kiln at the studio is booked all week.",
    "My cousin visited on Sunday.",
]


def test_words_several_best_hits_share_and_the_question_lacks_are_added_most_shared_first() -> None:
    added = expansion_terms("What kinds of pottery has Ana made?", BEST, ["Ana"])
    assert added[0] == "kiln"  # in three of the hits
    assert set(added) == {"kiln", "clay", "bowl"}  # "pottery" is asked, "Ana" named, "cousin" said once


def test_at_most_the_asked_number_of_words() -> None:
    assert expansion_terms("What kinds of pottery has Ana made?", BEST, ["Ana"], most=1) == ["kiln"]


def test_list_and_count_questions_are_expanded_and_one_answer_questions_are_not() -> None:
    at = datetime(2024, 1, 1, tzinfo=UTC)
    assert make_plan("What kinds of pottery has Ana made?", [], at).weights.get("feedback", 0.0) > 0.0
    assert make_plan("How many bowls has Ana made?", [], at).weights.get("feedback", 0.0) > 0.0
    assert "feedback" not in make_plan("What did Ana glaze?", [], at).weights
    assert "feedback" not in make_plan("When did Ana glaze the vase?", [], at).weights


@given(st.text(max_size=40), st.lists(st.text(max_size=60), max_size=6))
def test_an_added_word_is_shared_by_enough_hits_and_never_the_questions(question: str, texts: list[str]) -> None:
    added = expansion_terms(question, texts, [])
    assert len(added) == len(set(added))
    for word in added:
        assert word not in terms(question)
        assert sum(word in terms(text) for text in texts) >= MIN_SHARED
