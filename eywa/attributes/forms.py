"""Word forms: whether two words are forms of one word, as a condition's noun and adjective are.

A condition is said as a noun ("I have asthma", "a peanut allergy", "lactose intolerance")
and asked about as an adjective ("Is Priya asthmatic?", "… allergic to peanuts?", "… lactose
intolerant?"), or the other way round. English derives the one from the other by changing
the ending of a shared stem: allergy, allergic, allergies; asthma, asthmatic; diabetes,
diabetic; epilepsy, epileptic; intolerance, intolerant. So two words are taken as forms of
one word when they share a stem and differ only in a short ending:

* the shared beginning is at least ``_MIN_STEM`` letters and at least three quarters of the
  shorter word ("diabet" of "diabetes"/"diabetic"; not "paint" of "painter"/"painting");
* what follows it in either word is at most ``_MAX_ENDING`` letters ("tic" of "asthmatic";
  not "packing" of "backpacking" after "back");
* or, for words shorter than the minimum stem, one is the other with a plural ending ("cat",
  "cats").

Pure spelling, no list of words: the registry turns it on for the attributes whose values are
named so (``AttributeSpec.word_forms``), and the reader uses it to find which values a question
names (``eywa.read.answers.asked_values``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

__all__ = ["form_of_any", "same_word", "word_list"]

_MIN_STEM: Final = 4
_STEM_SHARE: Final = 0.75
_MAX_ENDING: Final = 4
_PLURAL: Final = ("s", "es")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)


def same_word(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` (lower-case words) are forms of one word (see the module
    docstring): ``same_word("allergy", "allergic")``, ``same_word("asthma", "asthmatic")``,
    not ``same_word("painter", "painting")``. Numbers match only themselves. Pure."""
    if a == b:
        return True
    if a.isdigit() or b.isdigit():
        return False
    short, long_ = sorted((a, b), key=len)
    if len(short) < _MIN_STEM:
        return any(long_ == short + ending for ending in _PLURAL)
    stem = 0
    for x, y in zip(a, b):
        if x != y:
            break
        stem += 1
    return (
        stem >= _MIN_STEM
        and stem >= _STEM_SHARE * len(short)
        and len(a) - stem <= _MAX_ENDING
        and len(b) - stem <= _MAX_ENDING
    )


def form_of_any(word: str, words: Iterable[str]) -> bool:
    """Whether ``word`` is a form of one of ``words`` (``same_word``). Pure."""
    return any(same_word(word, w) for w in words)


def word_list(text: str) -> list[str]:
    """The lower-case words of ``text``, in order. Pure."""
    return [w.casefold() for w in _WORD.findall(text)]
