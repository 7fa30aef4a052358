"""The members of what a possession verb lists: "I have a cat named Miso, two kids and a dog allergy".

A rule that reads one kind of thing a speaker has (a pet, an allergy) finds it wherever it
stands in the list, not only first: "I have a dog allergy and a cat named Miso" holds a pet,
"I have a cat named Miso and a dog allergy" an allergy, and each member is read by the rule
of its kind alone, so the dog of the allergy is no pet. Members are cut where a comma or
"and" is followed by the start of another one (an article or a number: "a", "two"); what
follows "and" without one ("… and I love walks") closes the list, and so does a member that
holds a clause of its own ("a brother who has a dog and a cat"). A member's own commas ("two
cats, Luna and Sol") are the reader's to consume: it says where its member ended; names between
commas after a member another rule reads ("a sister, Ana, and a dog") are passed over.
"""

from __future__ import annotations

import re
from typing import Final

from eywa.extraction.lexicon import NUMBER_WORD

__all__ = ["list_members"]

_DETERMINER = rf"(?:{NUMBER_WORD}|another|some|my|our)"
_STOP = r"(?!(?:and|who|which|that|whose|with|has|have|had|is|are|was|were|to)\b)"
"""Words that no member holds: a clause of its own ("a brother who has a dog and a cat": the
dog and the cat are not the speaker's)."""
_CUT = rf"(?:\s*,\s*(?:and\s+)?|\s+and\s+)(?={_DETERMINER}\s)"
_APPOSITION = r"(?:\s*,\s*(?-i:[A-Z])[\w'’-]*(?:(?:\s*,\s*|\s+and\s+)(?-i:[A-Z])[\w'’-]*){0,3})?"
"""The names of a member said between commas ("a sister, Ana, and a dog", "two cats, Luna and
Sol, and a dog"): part of that member, not the end of the list."""
_NEXT_MEMBER: Final = re.compile(rf"(?:\s*{_STOP}[\w'’-]+){{0,5}}?{_APPOSITION}{_CUT}")
"""The rest of a member (a few words, no comma, then the names it is given), then the cut
before the next one."""
_NEXT_AFTER_BARE: Final = re.compile(rf"(?:\s*{_STOP}[a-z][\w'’-]*){{1,2}}?{_CUT}")
"""A first member said with no article: one or two words ("asthma", "celiac disease"), not
what only a verb begins ("I have always wanted a dog and a cat": no list)."""
_BARE: Final = re.compile(rf"(?!{_DETERMINER}\s)")
_NOT_A_MEMBER: Final = re.compile(
    r"(?:to|been|had|got|no|not|never|nothing|none|it|that|this|always|also|just|only|ever|really|already|still)\b"
)
"""Words a possession verb's object never starts with ("I have to say, a dog …", "I have no
idea, a cat …", "I have always wanted a dog"): no list follows."""
_MOST: Final = 8
"""Members read at most: a list longer than this is no list of things had."""


def list_members(text: str, start: int, member: re.Pattern[str]) -> list[re.Match[str]]:
    """The members of the list that begins at ``start`` (right after its verb) that
    ``member`` matches there, in order. Pure."""
    if _NOT_A_MEMBER.match(text, start):
        return []
    found: list[re.Match[str]] = []
    at = start
    for n in range(_MOST):
        m = member.match(text, at)
        if m is not None:
            found.append(m)
            at = m.end()
        bare = n == 0 and m is None and _BARE.match(text, at) is not None
        cut = (_NEXT_AFTER_BARE if bare else _NEXT_MEMBER).match(text, at)
        if cut is None:
            break
        at = cut.end()
    return found
