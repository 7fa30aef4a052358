"""Whom a question asks about, when it names two people: the one it names as its subject.

"What did Ana lend to Ben?", "What did Ana think of Ben's band?", "Which film did Ana
suggest to Ben?", "What does Ana tell Ben she will not do?" name both people of a
conversation, but what they ask was said or done by Ana, the subject; Ben is named as an
object. Read as two people asked about, such a question restricts nothing: in a conversation
between the two, every turn is spoken by a named person, so the person route (the named
people's own turns) ranks everyone's and the named-speaker boost raises every turn alike.

The subject is read from where a name stands (``objects_named``): at the question's start,
or right after an auxiliary or a question word ("did Ana", "does Ana", "who"), or joined by
"and"/"or" to such a name ("Did Ana and Ben both …"); "according to Ana" and "from Ana" name
who said it, so they stand there too. When some name stands so, the names that never do are
objects. When none does ("Is it likely that Ana has friends besides Ben?"), a name only ever
right after a preposition ("besides Ben", "to Ben", "with Ben"), or joined to one that is
("between Ana and Ben"), is an object, if another name is not. A question whose every name is
an object, or none, has none.

An object matters only as one of the people talking (``answering``): the subject's turns
answer when the subject talks, and a turn addressed to the object is what was said to them.
Pure grammar over English function words: no word of any conversation.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import Final

from eywa.ids import entity_key

__all__ = ["PREPOSITIONS", "SUBJECT_BEFORE", "answering", "objects_named"]

# Words right before a question's subject: the auxiliaries and question words ("What did
# *Ana* …", "Who …", "How does *Ana* …").
SUBJECT_BEFORE: Final = frozenset(
    """am is are was were has have had do does did can could will would shall should may might
    must what which who whom whose where when why how""".split()
)
# Prepositions: a name right after one is the object of a phrase, not who speaks. Not "from":
# "What did Ana hear from Ben?" names its source, who said it.
PREPOSITIONS: Final = frozenset(
    """to with for about at by toward towards on of into onto upon regarding than after
    before among between like against around behind beside besides except near over under
    without via""".split()
)
# Words that join a name to the one before it, which it then stands beside ("between Ana
# and Ben"): the second takes the first's place.
_JOINERS: Final = frozenset({"and", "or", "&"})
_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*|&", re.UNICODE)
_POSSESSIVE = re.compile(r"['’]s?$")


def objects_named(question: str, names: Sequence[str]) -> tuple[str, ...]:
    """The ``names`` the question names as objects, not as its subject (see the module
    docstring), in the order given; empty when it names fewer than two, or when every name,
    or none, is an object. Pure."""
    if len(names) < 2:
        return ()
    words = [w.casefold() for w in _TOKEN.findall(question)]
    mentions = sorted(_mentions(words, names))
    if not mentions:
        return ()
    ends = {end: name for _, end, name in mentions}
    subject: dict[str, bool] = {}  # name → one of its mentions stands as the subject
    after_preposition: dict[str, bool] = {}  # name → every mention stands after a preposition
    for start, _, name in mentions:
        before = words[start - 1] if start > 0 else ""
        joined = ends.get(start - 1) if before in _JOINERS else None
        says = before == "from" or (before == "to" and start > 1 and words[start - 2] == "according")
        here = start == 0 or before in SUBJECT_BEFORE or says or (joined is not None and subject[joined])
        subject[name] = subject.get(name, False) or here
        governed = (before in PREPOSITIONS and not says) or (joined is not None and after_preposition[joined])
        after_preposition[name] = after_preposition.get(name, True) and governed
    marked = subject if any(subject.values()) else {n: not a for n, a in after_preposition.items()}
    objects = tuple(n for n in names if n in marked and not marked[n])
    return objects if len(objects) < len(marked) else ()


def _mentions(words: list[str], names: Sequence[str]) -> list[tuple[int, int, str]]:
    """Each mention of one of ``names`` among ``words``: (its first word's position, the
    position after its last, the name); a possessive ("Ana's") is a mention."""
    found = []
    for name in names:
        parts = [w.casefold() for w in _TOKEN.findall(name)]
        for start in range(len(words) - len(parts) + 1) if parts else ():
            window = words[start : start + len(parts)]
            if window[:-1] == parts[:-1] and _POSSESSIVE.sub("", window[-1]) == parts[-1]:
                found.append((start, start + len(parts), name))
    return found


def answering(
    people: Sequence[str], objects: Sequence[str], talking: AbstractSet[str]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Whose turns answer the question, and to whom they were said: ``people`` but the
    ``objects`` (``objects_named``), and the objects among the people talking (``talking``:
    the ``entity_key`` of each speaker of the candidate turns), when one of the subjects talks.
    When none does ("What did Tom lend to Ana?" asked of a conversation between Ana and Ben,
    Tom a friend they speak of), one of the speakers tells what the subject did, perhaps the
    object: every person named answers, and nobody is the listener. Pure."""
    subjects = tuple(p for p in people if p not in objects)
    if not objects or not any(entity_key(p) in talking for p in subjects):
        return tuple(people), ()
    return subjects, tuple(o for o in objects if entity_key(o) in talking)
