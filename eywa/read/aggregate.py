"""Does a question ask for a list or an aggregate over a person's life, or for one answer?

"What books has Ana read?", "Which cities has Ben visited?", "How many times did they
move?", "Where has Ana camped?" want every occasion: their evidence is the person's own
turns, spread over many sessions. "What kind of bread did Ana bake for the fair?" and "When
did Ben move?" want one turn. The planner's ``shape`` does not separate the two ("What kind
of … did …" is a list shape by its wording), so this reads the question's grammar:

- the head noun the question word asks for is plural ("What *books* has…", "Which *cities*…",
  "What *types* of pottery…", "What are the *names*…"), or
- the question word is followed by a present perfect ("What *has* Ana painted?"), which asks
  about a span of a life rather than a moment, or
- it counts occasions or things ("how many *times*", "how many *books*"), not a span of time
  ("how many *weeks* between…"), or
- it holds a quantifier over occasions ("all", "every", "ever", "multiple times").

A question with a time window ("in May 2023", "last week") asks about one occasion and is
never an aggregate, nor is a "when" question. Pure grammar: no word of any conversation.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from eywa.read.plan import Shape

_TOKEN = re.compile(r"[^\W_]+(?:['’+/-][^\W_]+)*[+]?", re.UNICODE)
_WH: Final = frozenset({"what", "which"})
# Question words that, directly before a present perfect, ask for every place, thing or
# person of a span: "Where has Ana camped?", "Who has Ben met?".
_WH_PERFECT: Final = frozenset({"what", "which", "where", "who"})
# Words that close the noun phrase a question word opens: an auxiliary or a copula.
_AUX: Final = frozenset("has have had does do did is are was were can could will would should".split())
# A question word directly followed by one of these asks about a span of a life.
_PERFECT: Final = frozenset({"has", "have"})
# Words that stand for "a sort of" the noun after "of": the head is that noun.
_SORT_WORDS: Final = frozenset({"kind", "type", "sort", "form", "variety", "genre", "style"})
# Plural nouns without a final -s.
_IRREGULAR_PLURALS: Final = frozenset("people children men women feet teeth mice geese".split())
# Words ending in -s that are not plural nouns.
_NOT_PLURAL: Final = frozenset(
    "is was has does his this its us yes always sometimes perhaps news series species means "
    "lens bus gas plus status bonus campus focus virus chaos".split()
)
# Units of time: "how many weeks …" asks for a span, not a number of occasions.
_TIME_UNITS: Final = frozenset(
    "seconds minutes hours days nights weeks weekends months years decades centuries".split()
)
# The longest noun phrase read after the question word ("What *dairy-free dessert flavours*
# does…").
MAX_PHRASE_WORDS: Final = 5
_QUANTIFIERS = re.compile(r"\b(all|every|ever|multiple times|several times|each time|so far)\b", re.I)


def asks_aggregate(question: str, shape: Shape, has_window: bool) -> bool:
    """Whether the question asks for everything of a kind over a span (a list, a count of
    occasions) rather than one answer; see the module docstring."""
    if has_window or shape == "temporal":
        return False
    words = [w.casefold().strip("’'") for w in _TOKEN.findall(question)]
    if not words:
        return False
    if words[0] == "how" and len(words) > 2 and words[1] == "many":
        return words[2] not in _TIME_UNITS
    if _QUANTIFIERS.search(question):
        return True
    if words[0] in _WH_PERFECT and len(words) > 1 and words[1] in _PERFECT:
        return True
    start = _wh_index(words)
    if start is None or start + 1 >= len(words):
        return False
    following = words[start + 1]
    if following in _PERFECT:
        return True
    if following in ("are", "were"):  # "What are Ana's hobbies?", "What are the names of…"
        return any(_plural(w) for w in words[start + 2 : start + 2 + MAX_PHRASE_WORDS])
    phrase = _noun_phrase(words[start + 1 :])
    return phrase is not None and _plural(_head(phrase))


def _wh_index(words: list[str]) -> int | None:
    """The position of the question word ("what", "which"), also after a preposition
    ("In what ways…")."""
    for index, word in enumerate(words[:3]):
        if word in _WH:
            return index
    return None


def _noun_phrase(words: list[str]) -> list[str] | None:
    """The words up to the first auxiliary: the noun phrase the question word asks for; None
    when no auxiliary closes it within ``MAX_PHRASE_WORDS`` ("What inspired Ana to join the
    marches?" has a verb, not a noun, after its question word)."""
    for index, word in enumerate(words[: MAX_PHRASE_WORDS + 1]):
        if word in _AUX:
            return words[:index] or None
    return None


def _head(phrase: list[str]) -> str:
    """The head noun of a noun phrase: its last word, except in "kind of X" (X) and "types
    of X" (types) — the word before "of" unless it only names a sort."""
    if "of" in phrase:
        before = phrase[: phrase.index("of")]
        after = phrase[phrase.index("of") + 1 :]
        if before and before[-1] not in _SORT_WORDS:
            return before[-1]
        if after:
            return after[-1]
    return phrase[-1] if phrase else ""


def _plural(word: str) -> bool:
    """Whether a word reads as a plural noun: an irregular plural, or an -s ending that is
    not -ss, -us, -is and not a known non-plural."""
    word = word.split("/")[0].rstrip("+")
    if word in _IRREGULAR_PLURALS:
        return True
    if len(word) < 3 or word in _NOT_PLURAL or word in _AUX:
        return False
    return word.endswith("s") and not word.endswith(("ss", "us", "is", "'s"))
