"""Whether the words around a capitalised word say it names a place or an organisation.

A single capitalised word shaped like a given name is a person by default
(``eywa.signals.mentions``), but English puts places and organisations in slots a person
rarely takes: "I work at Acme", "I quit Acme", "we moved to Lyon", "she grew up in Galway".
The cue is the word (or two) right before the name:

- "at" and "in", but not after a verb aimed at someone ("looked at Max", "mad at Sam",
  "believe in Tom");
- "for" after "work" or "volunteer" ("works for Globex");
- "join" and "quit" in any form ("joined Initech"), "join" not when a "for" follows
  ("joined Sam for lunch");
- "left"/"leave" when no object follows the name ("left Acme", "left Acme in May"; not
  "left Sam a message", "left Mel alone");
- "to" after a verb or noun of travel ("moved to Lyon", "been to Edinburgh", "a trip to
  Oregon"; not "said goodbye to Max", "talked to Sam"); "from" after "move" ("moved from
  Boston") or "offer" ("a job offer from Hooli"; not "a letter from Mel");
- "by" after "hired", "recruited" or "employed" ("I got hired by Initech"): who hires is
  most often a firm, and a name read as a person there stays one for the whole space, so
  "Initech laid me off" a month later was a person's doing and ended no job.

A possessive is a person's place, never the place itself: "dinner at Ana's". The rule is
general English, not a list of names; known people are matched before it ever runs.
"""

from __future__ import annotations

import re
from typing import Final

# The one or two words right before a name, lower-cased: "(works) (for) Acme".
_BEFORE: Final = re.compile(r"(?:([A-Za-z]+)[ \t]+)?([A-Za-z]+)[ \t]+$")
_WINDOW: Final = 40
"""Characters before a name that are searched for its cue; two words fit with room."""

_AT_OR_IN: Final = frozenset({"at", "in"})
_AT_SOMEONE: Final = frozenset(
    """look looks looked looking stare stares stared staring glance glanced smile smiles smiled
    smiling laugh laughs laughed laughing yell yells yelled yelling shout shouts shouted shouting
    wave waves waved waving point points pointed pointing mad angry upset cross believe believes
    believed believing confide confides confided confiding""".split()
)
"""Words after which "at X" / "in X" aim at a person, not a place."""

_WORK: Final = frozenset("work works worked working volunteer volunteers volunteered volunteering".split())
_JOIN_OR_QUIT: Final = frozenset("join joins joined joining quit quits quitting".split())
_LEAVE: Final = frozenset("left leave leaves leaving".split())
_TRAVEL: Final = frozenset(
    """move moves moved moving relocate relocates relocated relocating go goes going gone went been
    travel travels traveled travelled traveling travelling fly flies flew flying drive drives drove
    driving trip trips journey vacation holiday""".split()
)
_MOVE: Final = frozenset("move moves moved moving".split())
_OFFER: Final = frozenset("offer offers".split())
_HIRED_BY: Final = frozenset("hired recruited employed".split())

# What follows a name that is the object of "join"/"leave" when the name is a person: an
# errand ("joined Sam for lunch") or a second object ("left Sam a message", "left Mel alone").
_JOINED_SOMEONE: Final = re.compile(r"[ \t]+for\b", re.I)
_LEFT_SOMEONE: Final = re.compile(
    r"[ \t]+(?:a|an|the|my|our|his|her|their|your|some|this|that|alone|behind|with)\b", re.I
)


def names_place_or_organisation(text: str, start: int, end: int) -> bool:
    """Whether the single capitalised word ``text[start:end]`` sits in a place's or an
    organisation's slot (see the module docstring); never for a possessive ("at Ana's")."""
    if text.startswith(("'s", "’s"), end):
        return False
    before = _BEFORE.search(text, max(0, start - _WINDOW), start)
    if before is None:
        return False
    first, cue = (before.group(1) or "").lower(), before.group(2).lower()
    if cue in _AT_OR_IN:
        return first not in _AT_SOMEONE
    if cue == "for":
        return first in _WORK
    if cue in _JOIN_OR_QUIT:
        return not (cue.startswith("join") and _JOINED_SOMEONE.match(text, end))
    if cue in _LEAVE:
        return not _LEFT_SOMEONE.match(text, end)
    if cue == "to":
        return first in _TRAVEL
    if cue == "from":
        return first in _MOVE or first in _OFFER
    if cue == "by":
        return first in _HIRED_BY
    return False
