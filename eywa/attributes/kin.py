"""Relatives spoken of without a name: "my sister works at Globex" is about Ana's sister.

A relative the speaker names ("my sister Eva") is a person of their own, Eva. One never
named is still someone facts are about: the rule extractor makes the subject
``kin_subject("Ana", "sister")`` = "Ana's sister", and the read path asks "Where does Ana's
sister work?" of that subject when no sister is known by name. Both sides build the name
here, so that what was written is what is asked.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["KIN_AGE", "KIN_WORDS", "PLURAL_KIN", "RELATIVE_ATTRIBUTE", "kin_spoken_of", "kin_subject"]

KIN_WORDS: Final[dict[str, str]] = {
    "sister": "sister", "brother": "brother",
    "mom": "mother", "mum": "mother", "mother": "mother", "mommy": "mother",
    "dad": "father", "father": "father", "daddy": "father",
    "husband": "husband", "wife": "wife", "boyfriend": "boyfriend", "girlfriend": "girlfriend",
    "son": "son", "daughter": "daughter",
    "parents": "parents", "sisters": "sisters", "brothers": "brothers", "siblings": "siblings",
    "sons": "sons", "daughters": "daughters", "kids": "children", "children": "children",
}  # fmt: skip
"""Each word for one relative, and the word the subject's name uses ("mom" → "mother"). A plural
said of no names ("my parents live in Lisbon", "my kids go to Oakwood Elementary") is one
subject too, "Ana's parents", "Ana's children": what is said of them is said of them all, and
"Where do Ana's parents live?" is asked of that subject, as of "Ana's sister"."""
PLURAL_KIN: Final = frozenset({"parents", "sisters", "brothers", "siblings", "sons", "daughters", "children"})
"""The subject names' words of relatives said together ("Ana's parents"): a plural subject."""
RELATIVE_ATTRIBUTE: Final[dict[str, str]] = {
    **dict.fromkeys("sister sisters brother brothers sibling siblings".split(), "siblings"),
    **dict.fromkeys("mom mum mother mommy dad father daddy parent parents".split(), "parents"),
    **dict.fromkeys("son sons daughter daughters kid kids child children".split(), "children"),
    **dict.fromkeys("husband boyfriend wife girlfriend partner spouse".split(), "partner"),
}
"""The attribute a person's relatives of each kind are kept under ("sister" → siblings): what
the rules write a named relative as, and what the read path looks a relation up in."""
KIN_AGE: Final = r"(?:(?:older|younger|big|little|baby|twin|elder|eldest|oldest|youngest)\s+)?"
"""Words that may stand between "my" (or "Ana's") and the relative ("my older sister"), as a
regular expression: the rules and the read path skip the same ones."""


def kin_subject(owner: str, word: str) -> str:
    """The subject name of ``owner``'s relative called ``word`` (a key of ``KIN_WORDS``):
    "Ana's mother" for ("Ana", "mom"), "James' sister" for ("James", "sister"). Pure."""
    mark = "'" if owner.endswith("s") else "'s"
    return f"{owner}{mark} {KIN_WORDS[word.lower()]}"


_KIN_ALTERNATION: Final = "|".join(sorted(KIN_WORDS, key=len, reverse=True))
_ANY_KIN: Final = re.compile(rf"(?:\bmy|['’]s?)\s+{KIN_AGE}(?:{_KIN_ALTERNATION})\b", re.IGNORECASE)
"""Any "my sister" or "…'s dad" at all: most turns have none, and are left before a pattern of
the owner's name is made (Level 1 asks this of every turn it reads, per person)."""


def kin_spoken_of(owner: str, text: str, *, speaker: bool = True) -> list[str]:
    """The subject names of ``owner``'s relatives ``text`` speaks of by no name, each once,
    in order: "my sister", "my dad" when ``owner`` is the speaker ("Ana's sister", "Ana's
    father"), "Ana's sister" by anyone. Whose earlier beliefs a turn about them may lean on
    ("My sister left Globex" ends the job "My sister works at Globex" gave her). Pure."""
    if _ANY_KIN.search(text) is None:
        return []
    whose = rf"my|{re.escape(owner)}['’]s?" if speaker else rf"{re.escape(owner)}['’]s?"
    pattern = rf"(?<![\w'’])(?:{whose})\s+{KIN_AGE}(?P<kin>{_KIN_ALTERNATION})\b(?![-‐])"
    return list(dict.fromkeys(kin_subject(owner, m.group("kin")) for m in re.finditer(pattern, text, re.IGNORECASE)))
