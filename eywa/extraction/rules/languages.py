"""The languages one speaks: "I speak Arabic, English and a bit of French".

"I speak X", "I'm fluent in X", "I'm bilingual in X and Y", "my native language is X" and "X
is my first language" say a language spoken (``languages`` X, positive), each of a list
("X, Y and a bit of Z") its own; "I don't speak X" and "I can't speak X" say one not spoken
(negative; not "I don't speak X very well", which says some). The language must be one the
lexicon knows (``lexicon.LANGUAGES``): "I speak to my mom every day", "I speak for everyone"
and "I speak my mind" say none. Learning a language is studying it
(``eywa.extraction.rules.life``: education), not speaking it; a language spoken once ("I
spoke French as a kid") is no present state and is left.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from eywa.extraction.lexicon import LANGUAGES
from eywa.extraction.rules.clause import A, ADV, BE, SUBJ, Ctx, matches, rule
from eywa.extraction.rules.phrasing import fact
from eywa.models import CandidateFact

_LANGUAGE: Final = rf"(?i:{LANGUAGES})(?![\w'’-])(?!\s+(?:food|music|movies?|films?|friends?|people|class|lessons?)\b)"
_SOME: Final = r"(?:(?:a\s+(?:little\s+)?bit\s+of|a\s+little|some|basic|conversational|fluent|broken)\s+)?"
_LIST: Final = rf"(?P<list>{_SOME}{_LANGUAGE}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s+or\s+){_SOME}{_LANGUAGE})*)"
"""One language or a list of them, each perhaps with how well ("a bit of French")."""
_END: Final = (
    r"(?=\s*(?:[.!;,:)]|$|\s+(?:and|but|so|too|as\s+well|fluently|well|very|much|now|at\s+(?:home|all|work)|with|every"
    r"|daily)\b))"
)

_SPEAKS = rule(
    rf"{SUBJ}\s+{ADV}(?:can\s+(?:also\s+)?)?(?:speak|speaks)\s+{ADV}{_LIST}{_END}",
    "speak speaks",
)
_FLUENT = rule(
    rf"{SUBJ}{BE}\s+{ADV}(?:fluent|bilingual|trilingual|conversational|native)\s+in\s+{_LIST}{_END}",
    "fluent bilingual trilingual conversational native",
)
_NATIVE = rule(
    rf"(?<![\w'’])(?P<subj>[Mm]y)\s+(?:native|first|mother)\s+(?:language|tongue)\s+is\s+{_LIST}{_END}",
    "native first mother",
)
_IS_NATIVE = rule(
    rf"(?P<list>{_LANGUAGE})\s+is\s+{ADV}(?P<subj>my)\s+(?:native|first|mother)\s+(?:language|tongue)\b",
    "native first mother",
)
_NOT_SPOKEN = rule(
    rf"{SUBJ}\s+{ADV}(?:do\s+not|does\s+not|don{A}t|doesn{A}t|can{A}t|cannot|can\s+not)\s+(?:really\s+)?"
    rf"(?:speak|talk)\s+(?:any\s+)?{_LIST}"
    r"(?=\s*(?:[.!;,:)]|$|\s+(?:and|but|at\s+all|anymore|any\s+more|either|though|yet)\b))",
    "speak talk",
)
_ITEM: Final = re.compile(rf"{_SOME}(?P<lang>{_LANGUAGE})")
"""One language of a list, how well it is spoken ("a bit of") left out of the name."""


def _spoken(listed: str) -> list[str]:
    """Each language of a list, capitalised as a name ("arabic" → "Arabic", "asl" → "ASL")."""
    found: list[str] = []
    for m in _ITEM.finditer(listed):
        words = m.group("lang").split()
        name = " ".join(w.upper() if w.lower() == "asl" else w.capitalize() for w in words)
        if name not in found:
            found.append(name)
    return found


def languages(ctx: Ctx) -> Iterator[CandidateFact]:
    """The languages one part says someone speaks, or does not."""
    part = ctx.part
    if part.hedged or part.hypothetical or part.past_habit:
        return
    if part.negated:
        for m, s in matches(ctx, _NOT_SPOKEN, we=True):
            for language in _spoken(m.group("list")):
                yield fact(ctx, s, f"{s} does not speak {language}", "languages", language, polarity="negative",
                           confidence=0.8)
        return
    for pattern in (_SPEAKS, _FLUENT, _NATIVE, _IS_NATIVE):
        # "We speak Hindi at home": a household's language is the speaker's too.
        for m, s in matches(ctx, pattern, we=True, anywhere=pattern is _IS_NATIVE):
            for language in _spoken(m.group("list")):
                yield fact(ctx, s, f"{s} speaks {language}", "languages", language, confidence=0.8)
