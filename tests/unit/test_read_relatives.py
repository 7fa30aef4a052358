"""A question about a person's relative ("Where does Ana's sister work?") is planned as a
question about the relative the memory knows by name, and only when it asks something of
them besides the relation."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from eywa.models import Entity
from eywa.read.plan import make_plan, without_names
from eywa.read.relatives import (
    Kin, RelativeAsk, ask_of_relatives, asked_through, is_name, relation_count_unclaimed, relation_unclaimed,
    relatives_asked, said_so,
)  # fmt: skip

_AT = datetime(2024, 6, 1, tzinfo=UTC)
_PEOPLE = [Entity(id=f"e_{n}", space="s", name=n, kind="person") for n in ("Ana", "Eva", "Tom", "James")]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Where does Ana's sister work?", (RelativeAsk("Ana", "sister"),)),
        ("Where does Ana’s older brother live?", (RelativeAsk("Ana", "brother"),)),
        ("What do James' kids like?", (RelativeAsk("James", "kids"),)),
        ("Is ana's husband a nurse?", (RelativeAsk("Ana", "husband"),)),
        # Not a relation of a named person: nothing to resolve.
        ("Where does Ana's sisterhood meet?", ()),
        ("Where does Bea's sister work?", ()),
        ("Where does her sister work?", ()),
    ],
)
def test_the_relatives_a_question_asks_about(question: str, expected: tuple[RelativeAsk, ...]) -> None:
    assert relatives_asked(question, ["Ana", "James"]) == expected


def test_a_relation_word_says_where_such_relatives_are_kept() -> None:
    assert [RelativeAsk("Ana", w).attribute for w in ("sister", "dad", "daughter", "wife", "siblings")] == [
        "siblings", "parents", "children", "partner", "siblings",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("statements", "word", "verdict"),
    [
        (["Ana's sister is Eva."], "sister", True),
        (["Ana's brother is Tom."], "sister", False),
        (["Eva is one of Ana's siblings."], "sister", None),
        (["Ana's brother is Tom."], "sibling", True),  # "sibling" asks for either
        ([], "brother", None),
    ],
)
def test_statements_tell_one_relative_from_the_other(statements: list[str], word: str, verdict: bool | None) -> None:
    assert said_so(statements, word) is verdict


def test_the_question_is_rewritten_about_the_relatives_found() -> None:
    found = {RelativeAsk("Ana", "sister"): Kin(("Eva", "Lia"))}
    assert ask_of_relatives("Where does Ana's older sister work?", found) == "Where does Eva and Lia work?"
    eva = {RelativeAsk("Ana", "sister"): Kin(("Eva",))}
    assert ask_of_relatives("Does ana’s sister still live in Oslo?", eva) == "Does Eva still live in Oslo?"


def test_a_question_asking_something_of_the_relative_is_about_them() -> None:
    question = "Where does Ana's sister work?"
    plan = make_plan(question, _PEOPLE, _AT)
    found = {RelativeAsk("Ana", "sister"): Kin(("Eva",))}
    asked = asked_through(make_plan(ask_of_relatives(question, found), _PEOPLE, _AT), plan, found)
    assert (asked.entities, asked.through, asked.people) == (("Eva",), ("Ana",), ("Eva", "Ana"))
    assert asked.attributes[0] == "employer" and "siblings" not in asked.attributes
    assert asked.current_state, "a present-tense question about one attribute of the sister"
    assert not plan.current_state, "unresolved, it asks about a chain of two (sister → work)"


def test_a_question_asking_for_the_relation_itself_stays_about_the_owner() -> None:
    question = "Who is Ana's sister?"
    plan = make_plan(question, _PEOPLE, _AT)
    found = {RelativeAsk("Ana", "sister"): Kin(("Eva",))}
    assert asked_through(make_plan(ask_of_relatives(question, found), _PEOPLE, _AT), plan, found) is plan
    assert plan.entities == ("Ana",) and plan.attributes == ("siblings",)


def test_a_relation_asked_of_a_set_holding_the_other_relation_too_is_not_claimed() -> None:
    """"Who is Ana's sister?" is planned on her siblings; when the set holds her brothers too,
    the siblings line (naming them all) may not answer first; when it holds the sister alone,
    or the question asks for the whole set, the line answers it."""
    question = "Who is Ana's sister?"
    plan = make_plan(question, _PEOPLE, _AT)
    assert plan.current_state and plan.attributes == ("siblings",)
    mixed = {RelativeAsk("Ana", "sister"): Kin(("Eva",), ("Tom",))}
    assert not relation_unclaimed(plan, mixed).current_state
    assert relation_unclaimed(plan, {RelativeAsk("Ana", "sister"): Kin(("Eva",))}) is plan
    siblings = make_plan("Who are Ana's siblings?", _PEOPLE, _AT)
    assert relation_unclaimed(siblings, {RelativeAsk("Ana", "siblings"): Kin(("Eva", "Tom"))}) is siblings
    husband = make_plan("Who is Ana's husband?", _PEOPLE, _AT)
    assert relation_unclaimed(husband, {RelativeAsk("Ana", "husband"): Kin(("Tom",), ("Eva",))}) is husband


@pytest.mark.parametrize(
    ("question", "claimed"),
    [
        ("How many siblings does Ana have?", True),
        ("How many brothers and sisters does Ana have?", True),
        ("How many kids does Ana have?", True),
        ("How many brothers does Ana have?", False),  # the siblings line does not say who is a brother
        ("How many daughters has Ana got?", False),
    ],
)
def test_a_count_of_one_relation_of_a_set_is_not_claimed(question: str, claimed: bool) -> None:
    plan = make_plan(question, _PEOPLE, _AT)
    assert plan.current_state and plan.shape == "count"
    assert relation_count_unclaimed(plan, question).current_state is claimed
    if claimed:
        assert relation_count_unclaimed(plan, question) is plan


def test_a_relative_known_by_no_name_is_planned_as_the_person_so_called() -> None:
    """"Ana's sister" is the subject name of a sister Ana never named
    (``eywa.attributes.kin``): planned as one person, whose name is no attribute word."""
    sister = Entity(id="e_sis", space="s", name="Ana's sister", kind="person")
    question = "Where does Ana's older sister work?"
    found = {RelativeAsk("Ana", "sister"): Kin(("Ana's sister",))}
    rewritten = ask_of_relatives(question, found)
    assert rewritten == "Where does Ana's sister work?"
    others = [e for e in _PEOPLE if e.name != "Ana"]
    asked = asked_through(make_plan(rewritten, [*others, sister], _AT), make_plan(question, _PEOPLE, _AT), found)
    assert (asked.entities, asked.through, asked.attributes[0]) == (("Ana's sister",), ("Ana",), "employer")
    assert "siblings" not in asked.attributes and asked.current_state


def test_names_are_no_attribute_words() -> None:
    assert without_names("Where does Ana's sister work?", ["Ana's sister"]) == "Where does someone work?"
    assert without_names("Is Rose Baker a baker?", ["Rose Baker"]) == "Is someone a baker?"


@pytest.mark.parametrize(("value", "name"), [("Eva", True), ("Leo", True), ("children", False), ("two kids", False),
                                             ("baby girl", False), ("Son", False)])  # fmt: skip
def test_only_a_name_is_a_relative_to_ask_about(value: str, name: bool) -> None:
    """A set of children may hold "two kids" beside "Leo": only a name is someone to plan for."""
    assert is_name(value) is name


def test_a_value_of_the_relative_named_in_the_question_is_asked_of_them() -> None:
    """"Is Ana's sister still at Globex?" names no attribute, but another entity: asked of
    the sister (the dimension route finds her employer by its value), not of Ana's siblings."""
    people = [*_PEOPLE, Entity(id="e_globex", space="s", name="Globex")]
    question = "Is Ana's sister still at Globex?"
    found = {RelativeAsk("Ana", "sister"): Kin(("Eva",))}
    asked = asked_through(make_plan(ask_of_relatives(question, found), people, _AT), make_plan(question, people, _AT),
                          found)  # fmt: skip
    assert set(asked.entities) == {"Eva", "Globex"} and asked.through == ("Ana",)


def test_the_relatives_a_speaker_speaks_of_by_no_name() -> None:
    from eywa.attributes.kin import kin_spoken_of

    assert kin_spoken_of("Ana", "My sister left Globex, and my older brother and MY MOM too.") == [
        "Ana's sister", "Ana's brother", "Ana's mother",
    ]  # fmt: skip
    assert kin_spoken_of("James", "my dad") == ["James' father"]
    assert kin_spoken_of("Ana", "our sisterhood; my brother-in-law") == []
