"""Cheap lexical relevance for routes that gather candidates structurally (graph,
inference, dimensions) and must still order them against the question."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from collections.abc import Set as AbstractSet

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
STOP_WORDS = frozenset(
    """a an and are as at be been but by can could did do does for from had has have he her
    his how i if in into is it its me my of on or our she so than that the their them then
    there these they this to too us was we were what when where which who whom why will with
    would you your about after before doing just any much many""".split()
)
"""Function words that carry no topic (shared by the overlap ranking and the planner)."""


def terms(text: str) -> set[str]:
    """Content words, lower-cased, with a crude plural/verb suffix strip."""
    return _terms_of_lowered(text.lower())


def _terms_of_lowered(lowered: str) -> set[str]:
    """``terms`` of a text already lower-cased."""
    return {stem for word in _WORD.findall(lowered) if (stem := _stem(word)) is not None}


@functools.lru_cache(maxsize=65536)
def _stem(word: str) -> str | None:
    """A lower-cased word's term (``terms``), None for a function word or one under three
    letters. Kept per word: the overlap rankings take the terms of some 25 texts per recall,
    whose words recur (a term cost ~19 µs per text on a loaded machine, most of it here)."""
    if word in STOP_WORDS or len(word) < 3:
        return None
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def more_terms_than(text: str, most: int, besides: AbstractSet[str] = frozenset()) -> bool:
    """Whether ``text`` holds more than ``most`` distinct terms (``terms``) outside
    ``besides``. Reads the text's words only until it knows: a turn's first dozen words
    nearly always settle it (``adjust.sink_terse`` asks it of some forty turns a recall)."""
    found: set[str] = set()
    for match in _WORD.finditer(text.lower()):
        stem = _stem(match.group())
        if stem is None or stem in besides:
            continue
        found.add(stem)
        if len(found) > most:
            return True
    return False


def overlap(query_terms: set[str], text: str) -> float:
    """Share of the query's content words found in ``text`` (0 when the query has none).

    A text holding none of the terms as a substring of its lower-cased form shares none,
    and is not split into words: a term is a word of that form or the word less a suffix
    (``_stem``), so it occurs in it. Most texts a route scores share nothing with a short
    topic: the belief route scores each of a person's beliefs of the asked attributes
    (about 4,000 of one person's hobbies and life events at 100k turns), where splitting
    every statement cost ~37 ms of CPU per question.
    """
    if not query_terms:
        return 0.0
    lowered = text.lower()
    if not any(term in lowered for term in query_terms):
        return 0.0
    return len(query_terms & _terms_of_lowered(lowered)) / len(query_terms)


def rank_by_overlap(query: str, items: Iterable[tuple[str, str, str, float]]) -> list[tuple[str, str, float]]:
    """Order (kind, id, text, prior) by overlap × prior, dropping items with no overlap."""
    wanted = terms(query)
    scored = [(kind, item_id, overlap(wanted, text) * prior) for kind, item_id, text, prior in items]
    return sorted((s for s in scored if s[2] > 0), key=lambda s: -s[2])
