"""Corrections that name only the new value: "Actually it's Initech, not Globex."

Said right after "I work at Globex" (or sessions later), the correction has no verb of its
own: "it" is what the speaker said before. Pronouns are never resolved into a value, so the
rule is narrow: the part is a bare "it's Y" / "I meant Y" (after "actually", "sorry", "no",
…) with a trailing contrast "not X", and X is a value the speaker's earlier beliefs hold
(``Ctx.named``: an employer or a residence). The part is then read as the ordinary sentence
that says the same of Y ("I work at Initech, not Globex"; "I live in York, not Leeds"), so
it yields only what those rules yield for it, the contrast's negative of X included; the fact
still cites only the correcting turn.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from eywa.extraction.lexicon import PROPER
from eywa.extraction.rules.clause import A, Part, part_of

__all__ = ["correction"]

_BARE = re.compile(
    rf"^(?:(?:actually|sorry|oops|no|nope|wait|correction|my\s+bad|i\s+mean|I\s+mean)[,!:;.]?\s+)*"
    rf"(?:it{A}s|it\s+is|it{A}s\s+actually|it\s+was|I\s+meant|I\s+mean)\s+(?:actually\s+)?(?P<value>{PROPER})\s*[,!.]?$",
    re.IGNORECASE,
)
_SAID_OF = {"employer": "I work at {}", "residence": "I live in {}"}
"""The sentence that says of a new value what was said of the old one."""


def correction(part: Part, named: Mapping[str, tuple[str, str]]) -> Part | None:
    """The part read as the sentence it corrects, or None when it is not a bare correction
    of a value the speaker's earlier beliefs hold."""
    if not part.contrast or (m := _BARE.match(part.text)) is None:
        return None
    old = re.sub(r"^(?:(?:in|at|for|from|to)\s+)?(?:the\s+)?", "", part.contrast, flags=re.I)
    known = named.get(old.casefold())
    if known is None or known[0] not in _SAID_OF or m.group("value")[:1].islower():
        return None
    return replace(part_of(_SAID_OF[known[0]].format(m.group("value")), part.start), contrast=part.contrast)
