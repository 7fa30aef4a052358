"""Which words are forms of one word (``eywa.attributes.forms``), and which values of a
condition a question names by them (``eywa.read.answers.asked_values``)."""

from __future__ import annotations

import pytest

from eywa.attributes.forms import form_of_any, participle, same_word, word_list
from eywa.read.answers import asked_values, names_only_values, state_answer
from tests.unit.test_state_answers import dimension, obs


@pytest.mark.parametrize(
    ("a", "b"),
    [("allergy", "allergic"), ("allergies", "allergic"), ("asthma", "asthmatic"), ("diabetes", "diabetic"),
     ("epilepsy", "epileptic"), ("intolerance", "intolerant"), ("arthritis", "arthritic"), ("peanut", "peanuts"),
     ("injury", "injured"), ("cat", "cats"), ("knee", "knee")],
)  # fmt: skip
def test_forms_of_one_word_are_the_same_word(a: str, b: str) -> None:
    assert same_word(a, b) and same_word(b, a)


@pytest.mark.parametrize(
    ("a", "b"),
    [("painter", "painting"), ("back", "backpacking"), ("cat", "catering"), ("flu", "fluent"), ("anxiety", "anxious"),
     ("peanuts", "pears"), ("1", "12"), ("art", "artistic")],
)  # fmt: skip
def test_words_that_only_begin_alike_are_not(a: str, b: str) -> None:
    assert not same_word(a, b) and not same_word(b, a)


@pytest.mark.parametrize(("a", "b"), [("torn", "tornado"), ("pear", "pearl"), ("knee", "kneel"), ("rash", "rashly")])
def test_a_word_that_only_begins_with_another_is_another_word(a: str, b: str) -> None:
    """The shorter word whole, then letters that are no English ending: "torn" is no form of
    "tornado" ("Was Priya's ACL torn?" does not ask about a tornado)."""
    assert not same_word(a, b) and not same_word(b, a)


@pytest.mark.parametrize(
    ("a", "b"), [("sprain", "sprained"), ("insomnia", "insomniac"), ("deaf", "deafness"), ("cancer", "cancerous")]
)  # fmt: skip
def test_a_whole_word_with_an_english_ending_is_the_same_word(a: str, b: str) -> None:
    assert same_word(a, b) and same_word(b, a)



def test_a_word_is_looked_for_among_the_words_of_a_text() -> None:
    assert form_of_any("asthma", word_list("Is Bo asthmatic?"))
    assert not form_of_any("asthma", word_list("Is Bo athletic?"))


def test_a_condition_is_named_by_each_of_its_words_in_any_form_and_order() -> None:
    health, deltas = dimension(
        [obs("health", "peanuts allergy", "2024-01-01", "p"), obs("health", "lactose intolerance", "2024-01-02", "l")]
    )
    assert asked_values("Is Ana allergic to peanuts?", health) == ("peanuts allergy",)
    assert asked_values("Is Ana lactose intolerant?", health) == ("lactose intolerance",)
    assert asked_values("Is Ana allergic to shellfish?", health) == ()
    assert asked_values("Is Ana gluten intolerant?", health) == ()
    answer = state_answer(health, deltas, "Is Ana lactose intolerant?")
    assert names_only_values(answer, ["lactose", "intolerant"])
    assert not names_only_values(answer, ["lactose", "intolerant", "today"])


def test_other_attributes_name_values_by_their_words_as_said() -> None:
    # Word forms are the health attribute's (``AttributeSpec.word_forms``): "Does Ana garden?"
    # does not name the hobby "gardening" (one may garden for a living), though a condition's
    # "Is Ana asthmatic?" names "asthma".
    hobby, _ = dimension([obs("hobbies", "gardening", "2024-01-01", "h")])
    assert asked_values("Does Ana garden?", hobby) == ()
    health, _ = dimension([obs("health", "asthma", "2024-01-01", "a")])
    assert asked_values("Is Ana asthmatic?", health) == ("asthma",)


@pytest.mark.parametrize(("a", "b"), [("break", "broken"), ("broke", "broken"), ("break", "broke"), ("tear", "torn")])
def test_forms_of_an_irregular_verb_a_value_is_made_from_are_the_same_word(a: str, b: str) -> None:
    """"Did Priya break her wrist?" names "broken wrist" (``IRREGULAR_VERBS``)."""
    assert same_word(a, b) and same_word(b, a)


@pytest.mark.parametrize(("a", "b"), [("break", "brake"), ("broken", "breaking"), ("tore", "torso")])
def test_an_irregular_verb_is_not_every_word_that_looks_like_it(a: str, b: str) -> None:
    assert not same_word(a, b) and not same_word(b, a)


def test_a_participle_is_read_from_the_same_table() -> None:
    assert [participle(v) for v in ("broke", "tore", "sprained")] == ["broken", "torn", "sprained"]


def test_a_past_question_names_a_value_made_from_an_irregular_verb() -> None:
    health, _ = dimension([obs("health", "broken wrist", "2024-03-01", "t1")])
    assert asked_values("Did Ana break her wrist?", health) == ("broken wrist",)
    assert asked_values("Did Ana break her arm?", health) == ()
