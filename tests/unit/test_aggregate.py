"""The aggregate classifier reads grammar: a plural head, a present perfect after the question
word, a count of occasions or a quantifier make a list question; a singular head, a dated
question, a "when" or a span of time do not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from eywa.read.aggregate import asks_aggregate
from eywa.read.plan import make_plan, question_shape

NOW = datetime(2024, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    "question",
    [
        "What novels has Priya finished?",  # plural head, present perfect
        "Which towns did Omar drive through?",  # plural head, past
        "What sorts of cheese does Lena buy?",  # "sorts of": the sort word is the plural head
        "What kind of sandwiches does Lena make?",  # "kind of": the noun after it is the head
        "In what ways does Omar help his neighbours?",  # a preposition before the question word
        "What are Priya's favourite board games?",  # "what are" + a plural noun
        "What has Omar repaired?",  # present perfect directly after the question word
        "Where has Lena hiked?",
        "How many times did Priya call the plumber?",  # a count of occasions
        "How many bikes does Omar own?",
        "What instruments/tools does Lena carry?",  # a slash between two plural heads
        "What did Priya ever cook for Omar?",  # a quantifier over occasions
    ],
)
def test_list_and_count_questions_are_aggregates(question: str) -> None:
    assert asks_aggregate(question, question_shape(question), has_window=False)


@pytest.mark.parametrize(
    "question",
    [
        "What kind of bread did Lena bake for the fair?",  # "kind of" + a singular noun
        "What colour is Omar's bike?",
        "Which city did Priya move to?",
        "What bus does Lena take?",  # -s ending that is not a plural
        "What is Omar's status at work?",
        "When did Omar buy his bikes?",  # a "when" question asks for one date
        "How many weeks passed between Priya's two trips?",  # a span of time, not occasions
        "Why did Lena quit?",
        "",
    ],
)
def test_one_answer_questions_are_not_aggregates(question: str) -> None:
    assert not asks_aggregate(question, question_shape(question), has_window=False)


def test_a_dated_question_is_never_an_aggregate() -> None:
    question = "What books did Priya read in May 2023?"
    assert asks_aggregate(question, question_shape(question), has_window=False)
    assert not asks_aggregate(question, question_shape(question), has_window=True)
    assert not make_plan(question, [], NOW).aggregate
    assert make_plan("What books has Priya read?", [], NOW).aggregate
    assert make_plan("What books has Priya read?", [], NOW).as_trace()["aggregate"] is True


def test_a_verb_after_the_question_word_is_not_a_noun_phrase() -> None:
    question = "What inspired Lena to join the protests for workers' rights?"
    assert not asks_aggregate(question, question_shape(question), has_window=False)
