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
* when the shorter word is the whole stem, what the longer adds is an English ending
  (``_ENDINGS``: "asthma" + "tic", "sprain" + "ed", "deaf" + "ness"): a word that merely
  begins with another is another word ("torn" and "tornado", "pear" and "pearl");
* or, for words shorter than the minimum stem, one is the other with a plural ending ("cat",
  "cats");
* or both are forms of one of the few irregular verbs a value is made from
  (``IRREGULAR_VERBS``): "I broke my wrist" is the value "broken wrist", asked about as "Did
  Priya break her wrist?".

Pure spelling, and no list of words but that one: the registry turns it on for the attributes whose values are
named so (``AttributeSpec.word_forms``), and the reader uses it to find which values a question
names (``eywa.read.answers.asked_values``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

__all__ = ["IRREGULAR_VERBS", "form_of_any", "participle", "same_word", "word_list"]

_MIN_STEM: Final = 4
_STEM_SHARE: Final = 0.75
_MAX_ENDING: Final = 4
_PLURAL: Final = ("s", "es")
_ENDINGS: Final = frozenset({"s", "es", "d", "ed", "ing", "c", "ic", "tic", "atic", "al", "ous", "ness", "ion", "ive"})
"""The endings English adds to a whole word to make another form of it (plural, past,
participle, adjective, abstract noun): "peanuts", "sprained", "insomniac", "asthmatic",
"cancerous", "deafness", "addiction". Letters added that are none of these make another
word ("tornado", "pearl", "kneel")."""
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)

IRREGULAR_VERBS: Final[tuple[tuple[str, str, str], ...]] = (
    ("break", "broke", "broken"),
    ("tear", "tore", "torn"),
)
"""(base, past, participle) of the verbs whose forms share no stem and that values are made
from: the health rules word "I broke my wrist" as "broken wrist" and "I tore my ACL" as "torn
acl" (``participle``), and a question says "break" or "broke" (``same_word``)."""
_IRREGULAR: Final = {form: forms for forms in IRREGULAR_VERBS for form in forms}


def participle(verb: str) -> str:
    """The past participle of ``verb`` (a lower-case form of it): "broke" → "broken", "tore" →
    "torn"; a regular past is its own ("sprained"). Pure."""
    forms = _IRREGULAR.get(verb)
    return verb if forms is None else forms[2]


def same_word(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` (lower-case words) are forms of one word (see the module
    docstring): ``same_word("allergy", "allergic")``, ``same_word("asthma", "asthmatic")``,
    not ``same_word("painter", "painting")``. Numbers match only themselves. Pure."""
    if a == b:
        return True
    if a.isdigit() or b.isdigit():
        return False
    if (forms := _IRREGULAR.get(a)) is not None and b in forms:
        return True
    short, long_ = sorted((a, b), key=len)
    if len(short) < _MIN_STEM:
        return any(long_ == short + ending for ending in _PLURAL)
    stem = 0
    for x, y in zip(a, b):
        if x != y:
            break
        stem += 1
    if stem == len(short) and long_[stem:] not in _ENDINGS:
        return False  # "torn", "tornado": the longer word only begins with the shorter
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
