"""Family news that is an event of the speaker's life: a baby on the way, a relative's death.

"I'm pregnant", "we're expecting our first baby" and "my sister is expecting twins" say
that someone is expecting a child, dated by the turn (the state is news when said; its
start is not), in the turn's own words (what the validator finds in it). "My mom passed
away last week", "my grandpa Joe died in March" are a death in the speaker's family: an event of the speaker's life, dated by the part when it says when,
otherwise bounded by the turn. A partner's death is read with the partner (``family``:
widowed), a pet's with the pets (``pets``), "I lost my mom" with the speaker's events.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from eywa.attributes.kin import KIN_AGE, KIN_WORDS
from eywa.extraction.rules.clause import A, ADV, BE, HAVE, NAME, SUBJ, Ctx, asserts, date_from, matches, openings, rule
from eywa.extraction.rules.phrasing import date_phrase, fact, possessive
from eywa.models import CandidateFact

_BABY = r"(?:baby|child|kid|little\s+one|bundle\s+of\s+joy)"
_EXPECTING = rule(
    rf"{SUBJ}{BE}\s+{ADV}(?:(?:about\s+)?(?:\w+\s+)?(?:weeks?|months?)\s+)?(?P<what>pregnant\b"
    rf"|expecting\s+(?:twins|(?:a\s+)?(?:baby\s+)?(?:boy|girl)"
    rf"|(?:a|an|our|my|their|his|her|another)\s+(?:(?:first|second|third|new|baby)\s+)?{_BABY})\b)",
    "pregnant expecting",
)
""""I'm pregnant", "I'm 20 weeks pregnant", "we're expecting our first baby": not "I'm expecting
a package" or "expecting you at six", whose object is no child, nor a bare "we're expecting!"
(the turn does not say what)."""
_RELATIVES = (
    r"(?i:grand(?:ma|mother|pa|father|parents?)|granny|gran|nana|grand-?dad|mom|mum|mother|dad|father|parents"
    r"|aunt|auntie|uncle|brother|sister|son|daughter|cousin|niece|nephew|(?:best\s+|old\s+|close\s+)?friend"
    r"|father-in-law|mother-in-law|stepdad|stepmom|stepfather|stepmother)"
)
_RELATIVE_DIED = rule(
    rf"(?<![\w'’])(?P<subj>[Mm]y|[Oo]ur)\s+{KIN_AGE}(?P<kin>{_RELATIVES})(?:,?\s+(?P<name>{NAME})(?!{A}s),?)?"
    rf"(?:{HAVE})?\s+{ADV}(?:sadly\s+)?(?P<died>passed\s+away|passed\s+on|died)\b",
    "passed died",
)
""""My mom passed away", "my grandpa Joe died in March", "our uncle, Carl, has died": the
relative's death, news of the speaker's life (no name is guessed for one not named)."""


def family_news(ctx: Ctx) -> Iterator[CandidateFact]:
    """A baby expected and a relative's death, of one part."""
    if not asserts(ctx):
        return
    said = ctx.turn.observed_at
    for m, s in matches(ctx, _EXPECTING, we=True):
        what = re.sub(r"\b(?:our|my|their|his|her|another)\b", "a", " ".join(m.group("what").split()))
        yield fact(ctx, s, f"{s} is {what} as of {said.day} {said:%B} {said.year}", "life_events", what,
                   valid_from=said, confidence=0.8)
    speaker = ctx.turn.speaker
    if not speaker or _RELATIVE_DIED.keywords.isdisjoint(ctx.part.words):
        return
    for m in openings(ctx, _RELATIVE_DIED, anywhere=True):
        kin = " ".join(m.group("kin").lower().split())
        who = KIN_WORDS.get(kin, kin) + (f" {m.group('name')}" if m.group("name") else "")
        what = f"{possessive(speaker)} {who} passed away"
        date = date_from(ctx, m)
        if date is not None and date.window_start is not None:
            yield fact(ctx, speaker, f"{what} {date_phrase(date.window_start, date.granularity, date.window_end)}",
                       "life_events", what, valid_from=date.window_start, confidence=0.75)
        else:
            yield fact(ctx, speaker, f"{what} before {said.day} {said:%B} {said.year}", "life_events", what,
                       confidence=0.7)
