"""Casual spelling read in its standard form, with offsets that still point at their words."""

from __future__ import annotations

import pytest

from eywa.extraction.rules.casual import cased, standard


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("im working at Initech now", "I'm working at Initech now"),
        ("i dont eat meat", "I don't eat meat"),
        ("Ive been vegan, i.e. for ages", "I've been vegan, i.e. for ages"),
        ("Dont worry, i cant and i wont", "Don't worry, I can't and I won't"),
        ("my id is ill-formed; we were well", "my id is ill-formed; we were well"),  # words of their own
        ("email i@x.org or see docs/i", "email i@x.org or see docs/i"),
    ],
)
def test_standard_spelling(typed: str, read: str) -> None:
    assert standard(typed)[0] == read


def test_offsets_follow_their_words() -> None:
    typed = "ive worked at Initech since 2019 and im happy"
    read, moved = standard(typed)
    for word in ("worked", "Initech", "2019", "happy"):
        at = typed.index(word)
        assert read[moved(at) : moved(at + len(word))] == word


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("i live in new york now", "i live in New York now"),
        ("i work at home most days", "i work at home most days"),
        ("we moved to porto last year", "we moved to Porto last year"),
        ("i work for fun", "i work for fun"),
        ("I live in berlin", "I live in berlin"),  # a capital typed: names would have one too
        ("i went to see a movie", "i went to see a movie"),  # an infinitive, not a place
        ("we went to visit grandma", "we went to visit grandma"),
        ("im really good at cooking", "im really good at cooking"),  # an activity
        ("im interested in painting", "im interested in painting"),
        ("we went to paris to visit grandma", "we went to Paris to visit grandma"),
    ],
)
def test_names_in_a_turn_typed_without_capitals(typed: str, read: str) -> None:
    assert cased(typed) == read
