"""``terms`` keeps each word's stem between calls (``_stem``): its terms must be those of the
word-by-word rule whatever texts came before."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from eywa.read.overlap import STOP_WORDS, terms


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
