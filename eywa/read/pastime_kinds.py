"""A pastime asked for by its kind: "What instrument does Ana play?", "What sport does Bo do?".

The hobbies line names every pastime ("hobbies: guitar, running"), so it answers a question
for one kind only when it holds a pastime of that kind: Ana's "painting, reading" says
nothing about an instrument, and claimed first it would read as the answer. The kinds and
their pastimes are the registry's (``eywa.attributes.registry.PASTIME_KINDS``); a pastime is
of a kind when one of its words is ("bass guitar", "ice skating").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from eywa.attributes.registry import PASTIME_KINDS

__all__ = ["HOBBIES", "holds_kind", "pastime_kind_asked"]

HOBBIES: Final = "hobbies"
_WORD: Final = re.compile(r"[a-z]+")


def _kind_of_word(word: str) -> str | None:
    singular = word.removesuffix("s")
    return singular if singular in PASTIME_KINDS else None


def pastime_kind_asked(question: str) -> str | None:
    """The one kind of pastime the question asks for ("What instruments does Ana play?" →
    instrument), or None when it names none or several. Pure."""
    found = {kind for w in _WORD.findall(question.lower()) if (kind := _kind_of_word(w)) is not None}
    return next(iter(found)) if len(found) == 1 else None


def holds_kind(values: Iterable[str], kind: str) -> bool:
    """Whether one of the pastimes ``values`` is of ``kind``. Pure."""
    members = PASTIME_KINDS[kind]
    return any(not members.isdisjoint(_WORD.findall(value.lower())) for value in values)
