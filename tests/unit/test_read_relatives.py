"""A question about a person's relative ("Where does Ana's sister work?") is planned as a
question about the relative the memory knows by name, and only when it asks something of
them besides the relation."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from eywa.models import Entity
from eywa.read.plan import make_plan
from eywa.read.relatives import RelativeAsk, ask_of_relatives, asked_through, relatives_asked, said_so

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
    found = {RelativeAsk("Ana", "sister"): ("Eva", "Lia")}
    assert ask_of_relatives("Where does Ana's older sister work?", found) == "Where does Eva and Lia work?"
    assert ask_of_relatives("Does ana’s sister still live in Oslo?", {RelativeAsk("Ana", "sister"): ("Eva",)}) == (
        "Does Eva still live in Oslo?"
    )


def test_a_question_asking_something_of_the_relative_is_about_them() -> None:
    question = "Where does Ana's sister work?"
    plan = make_plan(question, _PEOPLE, _AT)
    found = {RelativeAsk("Ana", "sister"): ("Eva",)}
    asked = asked_through(make_plan(ask_of_relatives(question, found), _PEOPLE, _AT), plan, found)
    assert (asked.entities, asked.through, asked.people) == (("Eva",), ("Ana",), ("Eva", "Ana"))
    assert asked.attributes[0] == "employer" and "siblings" not in asked.attributes
    assert asked.current_state, "a present-tense question about one attribute of the sister"
    assert not plan.current_state, "unresolved, it asks about a chain of two (sister → work)"


def test_a_question_asking_for_the_relation_itself_stays_about_the_owner() -> None:
    question = "Who is Ana's sister?"
    plan = make_plan(question, _PEOPLE, _AT)
    found = {RelativeAsk("Ana", "sister"): ("Eva",)}
    assert asked_through(make_plan(ask_of_relatives(question, found), _PEOPLE, _AT), plan, found) is plan
    assert plan.entities == ("Ana",) and plan.attributes == ("siblings",)
