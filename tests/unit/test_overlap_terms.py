"""``terms`` keeps each word's stem between calls (``_stem``): its terms must be those of the
word-by-word rule whatever texts came before. ``overlap`` skips splitting a text that holds
no query term: its share must still be the rule's."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eywa.read import overlap as overlap_module
from eywa.read.overlap import _WORD, STOP_WORDS, overlap, terms


def _rule(text: str) -> set[str]:
    """The rule spelled out: content words of three letters or more, the first suffix of
    ing/ed/es/s stripped when three letters remain."""
    out = set()
    for word in "".join(c if c.isalnum() else " " for c in text.lower()).split():
        if word in STOP_WORDS or len(word) < 3:
            continue
        for suffix in ("ing", "ed", "es", "s"):
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                word = word[: -len(suffix)]
                break
        out.add(word)
    return out


def test_terms_strip_suffixes_and_drop_function_words() -> None:
    assert terms("The THINGS she was painting, and sings!") == {"thing", "paint", "sing"}
    assert terms("is as ed es") == set()


@given(st.lists(st.text(alphabet="aeinsgdT ,.'", max_size=30), min_size=1, max_size=6))
def test_terms_follow_the_rule_whatever_came_before(texts: list[str]) -> None:
    for text in [*texts, *reversed(texts)]:
        assert terms(text) == _rule(text)


@given(
    st.sets(st.text(alphabet="aeinsgdTİß", min_size=1, max_size=6), max_size=4),
    st.text(alphabet="aeinsgdTİß ,.'", max_size=40),
)
def test_overlap_is_the_share_of_the_query_terms_among_the_text_terms(query: set[str], text: str) -> None:
    expected = len(query & _rule(text)) / len(query) if query else 0.0
    assert overlap(query, text) == expected


class _CountingWords:
    """Stands in for ``overlap._WORD``: counts the texts split into words."""

    def __init__(self) -> None:
        self.split = 0

    def findall(self, text: str) -> list[str]:
        self.split += 1
        return _WORD.findall(text)


def test_overlap_does_not_split_a_text_that_holds_no_query_term(monkeypatch: pytest.MonkeyPatch) -> None:
    """The belief route scores each of a person's beliefs of the asked attributes (about
    4,000 at 100k turns): a statement sharing no letters with the topic is not tokenised."""
    query = terms("all the pottery")
    words = _CountingWords()
    monkeypatch.setattr(overlap_module, "_WORD", words)
    assert overlap(query, "Quinn ran 2 kilometres on Sunday before 2 January 2023.") == 0.0
    assert overlap(query, "Olga started chess") == 0.0
    assert words.split == 0
    assert overlap(query, "Olga made pottery with all her friends") == 1.0
    assert overlap(query, "Olga plays football") == 0.0  # "all" is in "football", not a word of it
    assert words.split == 2
