"""Casual spelling read in its standard form, with offsets that still point at their words."""

from __future__ import annotations

import re

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
        # "me" in a subject of two at the start of a sentence; not an object.
        ("Me and Sam broke up.", "I and Sam broke up."),
        ("Wow. Sam and me got engaged!", "Wow. Sam and I got engaged!"),
        ("He invited Sam and me to dinner.", "He invited Sam and me to dinner."),
        ("Me and my wife moved.", "Me and my wife moved."),
    ],
)
def test_standard_spelling(typed: str, read: str) -> None:
    assert standard(typed)[0] == read


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("ive worked at Initech since 2019 and im happy", ("worked", "Initech", "2019", "happy")),
        ("Sam and me moved to Porto in 2019. Me and Sam love it", ("Sam", "moved", "Porto", "2019", "love")),
    ],
)
def test_offsets_follow_their_words(typed: str, words: tuple[str, ...]) -> None:
    read, moved = standard(typed)
    for word in words:
        for found in re.finditer(rf"\b{word}\b", typed):
            at = found.start()
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
