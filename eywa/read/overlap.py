"""Cheap lexical relevance for routes that gather candidates structurally (graph,
inference, dimensions) and must still order them against the question."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

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
    return {stem for word in _WORD.findall(text.lower()) if (stem := _stem(word)) is not None}


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


def overlap(query_terms: set[str], text: str) -> float:
    """Share of the query's content words found in ``text`` (0 when the query has none)."""
    if not query_terms:
        return 0.0
    return len(query_terms & terms(text)) / len(query_terms)


def rank_by_overlap(query: str, items: Iterable[tuple[str, str, str, float]]) -> list[tuple[str, str, float]]:
    """Order (kind, id, text, prior) by overlap × prior, dropping items with no overlap."""
    wanted = terms(query)
    scored = [(kind, item_id, overlap(wanted, text) * prior) for kind, item_id, text, prior in items]
    return sorted((s for s in scored if s[2] > 0), key=lambda s: -s[2])
