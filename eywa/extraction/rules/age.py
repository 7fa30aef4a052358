"""Age: "I'm 40.", "I am 32 years old", "I just turned 40 last week", and the same in words
("I'm forty.", "I just turned thirty-two.", "I'm twenty five years old").

The value is the age in years in digits, however it was said, and
the dimension places it when it was said (``eywa.nous.observations.event_time``: an open
validity counts from the statement; "I turned 40 last week" keeps the birthday as the
belief's ``valid_from`` and in its statement), so the answer reads "age: 40 since <said> —
last said <said>; p … as of <asked>". An age is not projected forward: the registry's τ of
half a year lets the claim lapse within a year, and the reader sees the number with the
date it was said, never a stale number claimed as now. "almost 40", "nearly", "about" are
no age.

A bare number is an age only when it ends its clause ("I'm 40." and "I'm 40 now", not
"I'm 40 minutes away") and lies between 13 and 110; "years old" and "turned" accept any
age up to 110, "turned" only when the clause ends or a date follows ("turned 40 pages" is
no birthday). A number in words is read with Level 0's own number words (``WORD_NUMBER``:
one to ninety-nine, "twenty-five" or "twenty five"), under the same conditions, so "I'm one
of them" and "I'm second" are no age; the statement writes the digits, which the validator
finds in the turn as the number Level 0 read there ("forty" is the number 40).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from eywa.extraction.rules.clause import (
    A,
    ADV,
    BE,
    HAVE,
    SUBJ,
    Ctx,
    Rule,
    asserts,
    future_date,
    matches,
    openings,
    past_date,
    plain,
    rule,
)
from eywa.extraction.rules.phrasing import date_phrase, fact
from eywa.models import CandidateFact
# Level 0's own number words: the rule reads "forty" as the number Level 0 read there.
from eywa.signals._text import WORD_NUMBER, word_value

_NUMBER = rf"(?P<n>\d{{1,3}}|(?i:{WORD_NUMBER})\b)"
"""Digits or number words ("40", "forty", "Forty", "twenty-five")."""
_CLAUSE_END = r"(?=\s*(?:[.!;,]|$))"
_BARE_END = rf"(?:\s+(?:now|today|already|this\s+year))?{_CLAUSE_END}"
_YEARS_OLD = r"\s+years?\s+old\b"
_DATE_AFTER = r"(?=\s*(?:[.!;,]|$|\s+(?:last|this|on|in|yesterday|today|just|a\s+(?:few|couple)|two|three)\b))"

_IS_AGE = Rule(
    rf"{SUBJ}{BE}\s+{ADV}(?:(?P<approx>almost|nearly|about)\s+)?{_NUMBER}(?:{_YEARS_OLD}|(?P<bare>{_BARE_END}))",
    frozenset({"m", "am", "s", "is", "re", "are"}),  # "I'm": the gate's words are the verb's, one letter too
)
_CHILD = re.compile(r"\b(?:son|daughter|kid|child|baby|boy|girl|grandson|granddaughter|niece|nephew)s?\b", re.I)
_CHILD_BEFORE = re.compile(rf"{_CHILD.pattern}\s*$", re.I)
"""A child named before the number ("my son is 5", "my daughter Mia is 5"): a small bare number
is the child's age, where "I'm 5" alone may be minutes away (``_LOWEST_BARE``)."""
_TURNED = rule(rf"{SUBJ}(?:{HAVE})?\s+{ADV}turned\s+{_NUMBER}(?:{_YEARS_OLD})?{_DATE_AFTER}", "turned")
_TURNING = rule(
    rf"(?:{SUBJ}(?:{BE}\s+{ADV}turning|\s+{ADV}(?:turn|turns)|\s+will\s+be|{A}ll\s+be)|(?<=,\s)(?:and\s+)?turning)"
    rf"\s+{_NUMBER}(?:{_YEARS_OLD})?(?=\s+(?:in|on|next|this)\b)",
    "turning turn turns will ll",
)
""""I'm turning 39 in August", "I turn 40 next month", "I'll be 40 in June", and after an age,
"I'm 38, turning 39 in August": the age from the birthday said ahead (not "I'm turning 39
soon": when, it does not say)."""
_LOWEST_BARE, _LOWEST, _HIGHEST = 13, 1, 110
_AT_ANOTHER_TIME = re.compile(r"\b(?:when|once|since|after|before|until|till|by\s+the\s+time)\s*$", re.IGNORECASE)
"""A subordinate clause of time: "When I turned eleven, my uncle enrolled me" says when something
else happened, "when I'm forty" a time to come; neither is the age now."""


def _years(said: str) -> int | None:
    """The number said, in digits or in words; None for a word that is no age ("dozen")."""
    if said.isdigit():
        return int(said)
    return None if said.casefold() in {"dozen", "hundred", "zero"} else word_value(said)


def age(ctx: Ctx) -> Iterator[CandidateFact]:
    """The age facts of one part."""
    if not plain(ctx) or not asserts(ctx):
        return
    ages = matches(ctx, _IS_AGE)
    for m, s in ages:
        if _AT_ANOTHER_TIME.search(ctx.text[: m.start()]):
            continue
        years = _years(m.group("n"))
        child = _CHILD.search(m.group("kin") or "") or _CHILD_BEFORE.search(ctx.text[: m.start()])
        lowest = _LOWEST_BARE if m.group("bare") is not None and not child else _LOWEST
        if years is not None and lowest <= years <= _HIGHEST and m.group("approx") is None:
            said = " ".join(m.group(0)[m.end("n") - m.start() :].split()).rstrip(".!;, ")
            yield fact(ctx, s, f"{s} is {years} {said}", "age", str(years), confidence=0.85)
    for m in openings(ctx, _TURNING, anywhere=True):
        # "I'm turning 39 …": whom the subject names; "…, turning 39 in August" is said of
        # whoever the age before it is ("I'm 38, …", "Tobias is 38, …"), or of no one.
        found = matches(ctx, _TURNING) if m.group("subj") else [(a, w) for a, w in ages if a.end() < m.start()]
        who = next((w for a, w in found if a.start() == m.start() or not m.group("subj")), None)
        years, when = _years(m.group("n")), future_date(ctx)
        if who and years is not None and _LOWEST <= years <= _HIGHEST and when is not None:
            grain = next((d.granularity for d in ctx.dates if d.window_start == when), None)
            verb = "turns" if "turn" in m.group(0) else "will be"
            yield fact(ctx, who, f"{who} {verb} {years} {date_phrase(when, grain)}", "age", str(years), valid_from=when,
                       confidence=0.8)
    for m, s in matches(ctx, _TURNED):
        if _AT_ANOTHER_TIME.search(ctx.text[: m.start()]):
            continue
        years = _years(m.group("n"))
        if years is not None and _LOWEST <= years <= _HIGHEST:
            when = past_date(ctx, m)
            grain = next((d.granularity for d in ctx.dates if d.window_start == when), None)
            said = f" {date_phrase(when, grain)}" if when is not None else ""
            yield fact(ctx, s, f"{s} turned {years}{said}", "age", str(years), valid_from=when, confidence=0.85)
