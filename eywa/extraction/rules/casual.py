"""Casual spelling read in its standard form before the rules run.

People type "im working at Initech now", "i dont eat meat" and "ive been vegan since 2020":
a lone lower-case "i" and contractions without their apostrophe. The rules match the
standard forms ("I", "I'm", "don't"), so the turn is read as if it had been typed so:
``standard`` rewrites only whole words whose one reading is the contraction (not "id",
"ill", "were" or "well", which are words of their own) and returns the map from the
turn's offsets to the rewritten text's, so the signals Level 0 found (dates, people) still
point at their words. The proposal cites the turn as it was typed; the validator reads
that, and negation without an apostrophe is one for every reader
(``eywa.signals.cues.NEGATION``). A turn typed with no capital letter at all has no
capitalised names either: there the words after "at", "in", "to" or "from" that can be a
name are read as one ("i live in berlin"), never a word of time, a function word or
"home" ("i work at home").
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable

from eywa.extraction.text import STOPWORDS
from eywa.models import Evidence

__all__ = ["cased", "standard", "standard_turn"]

_CONTRACTIONS = {
    "im": "I'm", "ive": "I've",
    **{f"{stem}nt": f"{stem}n't" for stem in
       "do does did is are was were have has had would could should".split()},
    "cant": "can't", "wont": "won't",
}  # fmt: skip
"""Words that, typed without their apostrophe, can only be the contraction."""

_CASUAL = re.compile(
    r"(?<![\w'’.@/-])(?:(?P<i>i)|(?P<word>(?i:" + "|".join(sorted(_CONTRACTIONS, key=len, reverse=True)) + r")))"
    r"(?![\w'’@/-]|\.\w)"
    # "Me and Sam broke up", "Sam and me broke up": "me" in a subject of two, at the start of
    # a sentence, is "I" ("I and Sam", "Sam and I"); not "he invited Sam and me".
    r"|(?:^|(?<=[.!?]\s)|(?<=[.!?]\s\s))(?P<me>[Mm]e)(?=\s+and\s+[A-Z][a-z]+\s+[a-z])"
    r"|(?:(?:^|(?<=[.!?]\s)|(?<=[.!?]\s\s))[A-Z][a-z]+\s+and\s+)(?P<me_after>me)(?=\s+(?!and\b)[a-z])"
)


def standard(text: str) -> tuple[str, Callable[[int], int]]:
    """``text`` with casual first-person and negated forms in their standard spelling, and
    the map from an offset of ``text`` to the same place in the result."""
    out: list[str] = []
    shifts: list[tuple[int, int]] = []  # (offset in text after which, total shift so far)
    pos = 0
    shift = 0
    for m in _CASUAL.finditer(text):
        said = m.group(0)
        if m.group("me_after"):
            # Only the word "me" is rewritten; the name before it stays as typed.
            out.append(text[pos : m.start("me_after")])
            out.append("I")
            pos = m.end()
            shift -= 1
            shifts.append((m.end(), shift))
            continue
        if m.group("i") or m.group("me"):
            wanted = "I"
        else:
            wanted = _CONTRACTIONS[said.lower()]
            if said[:1].isupper():
                wanted = wanted[:1].upper() + wanted[1:]
        out.append(text[pos : m.start()])
        out.append(wanted)
        pos = m.end()
        if len(wanted) != len(said):
            shift += len(wanted) - len(said)
            shifts.append((m.end(), shift))
    if not shifts and not out:
        return text, _same
    out.append(text[pos:])
    ends = [end for end, _ in shifts]

    def moved(offset: int) -> int:
        at = bisect_right(ends, offset) - 1
        return offset + (shifts[at][1] if at >= 0 else 0)

    return "".join(out), moved


_PLACE_WORD = re.compile(r"\b(?P<prep>at|in|to|from)\s+(?P<name>[a-z][a-z'’&.-]+(?:\s+[a-z][a-z'’&.-]+){0,2})")
"""A place or an organisation after "at", "in", "to" or "from" ("for" is left out: "for fun",
"for free" and "for a living" say why, not where)."""
_NOT_A_NAME = STOPWORDS | frozenset(
    """since last next ago today tonight yesterday tomorrow anymore lately recently every night nights morning
    mornings evening evenings afternoon weekend weekends week weeks month months year years day days moment
    time times least first once twice home work school uni college bed town peace love fear general all
    least most""".split()
)
"""Words after such a preposition that are no name ("at home", "in the morning", "to bed")."""
_AFTER_TO = frozenset(
    """see visit get meet pick watch buy check play eat drink have try learn do make take help find spend
    work live stay sleep celebrate catch start go come bring grab hang read write cook run walk swim relax
    chill rest shop study talk ask tell show give keep join hear listen say think feel be become""".split()
)
"""Verbs an infinitive "to" takes ("went to see a movie", "to visit grandma"): no place follows it."""
_GERUND = re.compile(r"[a-z]{3,}ing$")
"""A word in -ing after "at" or "in" is an activity ("good at cooking", "working in sales" aside)."""


def cased(text: str) -> str:
    """In a turn typed without any capital letter, the words after "at", "in", "to" or
    "from" that may be a name, capitalised as a name ("i live in berlin" → "… in Berlin"),
    so that rules which take a name there read one; other turns are left as they are.
    The length is unchanged, so offsets hold."""
    if any(c.isupper() for c in text):
        return text
    out = list(text)
    for m in _PLACE_WORD.finditer(text):
        at = m.start("name")
        first = m.group("name").split()[0]
        if (m.group("prep") == "to" and first in _AFTER_TO) or (m.group("prep") in ("at", "in") and _GERUND.match(first)):
            continue
        for word in re.finditer(r"\S+", m.group("name")):
            if word.group(0).strip("'’.-") in _NOT_A_NAME:
                break
            out[at + word.start()] = word.group(0)[0].upper()
    return "".join(out)


def _same(offset: int) -> int:
    return offset


def standard_turn(turn: Evidence) -> Evidence:
    """``turn`` read in standard spelling, its signals moved with their words."""
    text, moved = standard(cased(turn.text))
    if text == turn.text and moved is _same:
        return turn
    signals = tuple(s.model_copy(update={"start": moved(s.start), "end": moved(s.end)}) for s in turn.signals)
    return turn.model_copy(update={"text": text, "signals": signals})
