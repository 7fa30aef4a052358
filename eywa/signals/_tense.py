"""Which way a sentence points in time: told of the past, planned for the future, or unsaid.

Why: some date expressions name a day without saying which side of today it is on. "I ran
my first 10k on Saturday!" is the Saturday just gone; "the party is on Saturday" is the one
coming; "did a festival this weekend", said on a Monday, is the weekend just over, not the
one five days on. Only the sentence's verbs tell them apart. The reading is deliberately
narrow: a direction is given only when the sentence has marks of one tense and none of the
other, so a mixed or verbless sentence ("Saturday?", "I was hoping we'd go on Saturday")
resolves to nothing rather than to a guess.
"""

from __future__ import annotations

import re
from typing import Literal

Tense = Literal["past", "future"]

# Irregular past forms common in conversation ("read", "put", "cut", "hit", "set" are
# also present forms and are left out; "'d" is also "would").
_IRREGULAR_PAST = frozenset(
    """did was were had went came got made took saw ran ate drank met found told said gave
    bought sold left lost won wrote began brought thought felt kept slept spent sat caught
    taught flew drove rode swam sang fell broke chose forgot heard held knew led paid sent
    stood understood woke wore threw built became grew drew fought sought""".split()
)
# Words in -ed that are no past verb.
_NOT_PAST_ED = frozenset(
    """bed red shed seed speed feed weed need indeed proceed succeed exceed breed greed
    freed steed wed""".split()
)
# Marks of a plan or a schedule: modal and going-to futures, and the present tense of "be"
# ("the party is on Saturday", "we're flying on Monday"), which with a named day means a
# day to come. "'s" is left out: it is also the possessive. The other modals ("we could go
# on Friday") say no side of today; as marks of a plan they make a past verb beside them
# ("I was hoping we could go on Friday") an unclear tense, not a past one.
_FUTURE = re.compile(
    r"\b(?:will|shall|gonna|going\s+to|plan(?:s|ning)?\s+(?:to|on)|want\s+to|hope\s+to"
    r"|can['’]?t\s+wait|let['’]s|see\s+you|am|is|are|tomorrow|next|could|would|should|might|can)\b"
    r"|['’](?:ll|m|re|d)\b",
    re.IGNORECASE,
)
_SCHEDULE = re.compile(r"\b(?:start|starts|begin|begins)\b", re.IGNORECASE)
"""The present of starting ("I start on Monday", "classes begin on Friday"): a schedule, so a
day to come, but a weaker mark than a plan's: a past verb beside it ("I handed in my notice
on Monday and I start at Globex in May") still tells the sentence's day in the past."""
_WORD = re.compile(r"[a-z]+")
_SENTENCE_END = re.compile(r"[.!?;\n]")


def sentence_around(text: str, start: int, end: int) -> str:
    """The sentence of ``text`` holding the span ``[start, end)``."""
    before = [m.end() for m in _SENTENCE_END.finditer(text, 0, start)]
    after = _SENTENCE_END.search(text, end)
    return text[before[-1] if before else 0 : after.start() if after else len(text)]


def _has_past(sentence: str) -> bool:
    for word in _WORD.findall(sentence.lower()):
        if word in _IRREGULAR_PAST or (len(word) > 3 and word.endswith("ed") and word not in _NOT_PAST_ED):
            return True
    return False


def tense_of(sentence: str) -> Tense | None:
    """"past" when the sentence has a past verb and no mark of a plan, "future" for the
    reverse or for a schedule alone ("I start on Monday"), None when it has both or neither.

    Example:
        >>> tense_of("I ran my first 10k on Saturday!"), tense_of("The party is on Saturday")
        ('past', 'future')
    """
    past, future = _has_past(sentence), bool(_FUTURE.search(sentence))
    if past == future:
        return None if past or not _SCHEDULE.search(sentence) else "future"
    return "past" if past else "future"
