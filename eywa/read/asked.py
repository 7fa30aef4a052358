"""Whom a question asks about, when it names two people: the one it names as the subject.

"What did Ana lend to Ben?", "What did Ana think of Ben's band?", "Which film did Ana
suggest to Ben?" name both people of a conversation, but what they ask was said by
Ana: Ben is named only as the object of a preposition ("to Ben", "of Ben's band", "with
Ben", "for Ben"). Read as two people asked about, such a question restricts nothing: in a
conversation between the two, every turn is spoken by a named person, so the person route
(the named people's own turns) ranks everyone's and the named-speaker boost raises every
turn alike. A name that stands only after a preposition, or is joined by "and"/"or" to one
that does ("between Ana and Ben"), is an object; the others are the question's subjects, and
the routes and boosts that read whose turn it is read them alone (``Plan.speakers``). When
every name is an object ("What did they give to Ana and Ben?") or none is, all stay.

"According to Ana, …" and "… from Ana" name the speaker after a preposition: neither makes
an object. Pure grammar over English function words: no word of any conversation.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

__all__ = ["PREPOSITIONS", "objects_named"]

# Prepositions: a name right after one is the object of a phrase, not who speaks. Not "from":
# "What did Ana hear from Ben?" names its source, who said it.
PREPOSITIONS: Final = frozenset(
    """to with for about at by toward towards on of into onto upon regarding than after
    before among between like against around behind beside besides except near over under
    without via""".split()
)
# Words that join a name to the one before it, which it then stands beside ("between Ana
# and Ben"): the second takes the first's role.
_JOINERS: Final = frozenset({"and", "or", "&"})
# "according to Ana": Ana says it.
_SAYS: Final = frozenset({"according"})
_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*|&", re.UNICODE)
_POSSESSIVE = re.compile(r"['’]s?$")


def objects_named(question: str, names: Sequence[str]) -> tuple[str, ...]:
    """The ``names`` the question names only as the object of a preposition (or joined to
    such an object), when at least one other of ``names`` is not: those are whom the question
    says something was done to or said to, not who did or said it. Empty when the question
    names fewer than two, or when every name (or none) is an object. Pure."""
    if len(names) < 2:
        return ()
    words = [w.casefold() for w in _TOKEN.findall(question)]
    roles: dict[str, bool] = {}  # name → every mention is an object
    found: list[tuple[int, int, str]] = []  # (start, end) word positions of each mention
    for name in names:
        parts = [w.casefold() for w in _TOKEN.findall(name)]
        if not parts:
            continue
        for start in range(len(words) - len(parts) + 1):
            window = words[start : start + len(parts)]
            if window[:-1] == parts[:-1] and _POSSESSIVE.sub("", window[-1]) == parts[-1]:
                found.append((start, start + len(parts), name))
    found.sort()
    ends = {end: name for _, end, name in found}
    for start, _, name in found:
        before = words[start - 1] if start > 0 else ""
        object_here = before in PREPOSITIONS and not (start > 1 and words[start - 2] in _SAYS)
        if not object_here and before in _JOINERS and (start - 1) in ends:
            # "between Ana and Ben": Ben stands where Ana does (her mention ends before "and").
            object_here = roles.get(ends[start - 1], False)
        roles[name] = roles.get(name, True) and object_here
    objects = tuple(name for name in names if roles.get(name, False))
    if not objects or len(objects) == len([n for n in names if n in roles]):
        return ()
    return objects
