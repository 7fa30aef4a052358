"""A pet asked for by its kind: "What is Bo's dog called?" when Bo's pets are a parrot and a dog.

The pets line names every pet ("pets: Kiwi, Rex"), not which is which, so it may not answer
first when the set holds a pet said to be of another kind: the turns and beliefs that say
"dog" do, as they do for a sister asked among brothers (``eywa.read.relatives``). A pet's kind
is read from its beliefs' statements ("Bo has a dog named Rex"), with the registry's pet words
and synonyms ("puppy" and "beagle" are dogs, "bunny" a rabbit); a statement that names no
kind says nothing either way. Kinds are compared at that level: "Does Bo have a beagle?"
is answered by a pet said to be a dog as "Does Bo have a dog?" is by a beagle.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Final, Literal

from eywa.attributes import get_attribute
from eywa.models import Delta

__all__ = [
    "PETS", "another_kind", "asks_for_kinds", "gone_by_kind", "kind_asked", "names_kind", "only_kinds", "said_kind",
]

PETS: Final = "pets"
_GENERIC: Final = frozenset({"pet", "pets", "animal", "animals"})
"""Pet words that name no kind ("What is Bo's pet called?" asks for any)."""
_WORD: Final = re.compile(r"[a-z]+")
_KIND_OF: Final = re.compile(r"\b(?:what|which)\s+(?:(?:kinds?|types?|sorts?|breeds?)\s+of|breeds?)\b", re.IGNORECASE)
"""A question for the kind of a pet ("What kind of dog does Bo have?", "What breed is Rex?")."""


@cache
def _kinds() -> Mapping[str, str]:
    """Each word of a kind of pet (and its plural) → the kind it names: "puppies" and "beagle"
    → dog, the registry's synonyms (a breed is said of its kind, as a young one is)."""
    spec = get_attribute(PETS)
    said_of = {synonym.surface: synonym.value for synonym in spec.synonyms}
    kinds: dict[str, str] = {}
    for word in spec.words:
        if word not in _GENERIC:
            # A plural the registry lists ("bunnies") names the kind its singular does.
            singular = word[:-3] + "y" if word.endswith("ies") else word
            kind = said_of.get(word, said_of.get(singular, singular))
            kinds[word] = kind
            kinds.setdefault(singular + "s", kind)
    kinds.update(said_of)
    return kinds


def _kinds_in(text: str) -> set[str]:
    kinds = _kinds()
    return {kinds[w] for w in _WORD.findall(text.lower()) if w in kinds}


def kind_asked(question: str) -> str | None:
    """The one kind of pet the question asks for ("What is Bo's parrot called?" → parrot), or
    None when it names none or several. Pure."""
    found = _kinds_in(question)
    return next(iter(found)) if len(found) == 1 else None


def asks_for_kinds(question: str) -> bool:
    """Whether the question asks what kind (or breed) a pet is, not what it is called. Pure."""
    return _KIND_OF.search(question) is not None


def only_kinds(values: Iterable[str]) -> bool:
    """Whether every value names a kind of pet ("dog": a pet whose name was never said), so
    that a line of them answers a question for the kind; a name ("Rex") does not. Pure."""
    kinds = _kinds()
    return all(value.casefold() in kinds or value.casefold() in kinds.values() for value in values)


def names_kind(values: Iterable[str], kind: str) -> bool:
    """Whether one of ``values`` (a pets line's members) is the kind itself, or a word of it
    ("dog", "puppy" for dog): a pet whose name was never said, shown by its kind. Pure."""
    kinds = _kinds()
    return any(kinds.get(value.casefold(), value.casefold()) == kind for value in values)


def said_kind(statements: Iterable[str], kind: str) -> Literal["kind", "other", "unsaid"]:
    """Whether a pet's statements say the asked kind, only another kind, or no kind. Pure."""
    found = {k for statement in statements for k in _kinds_in(statement)}
    if kind in found:
        return "kind"
    return "other" if found else "unsaid"


def another_kind(lines: Sequence[tuple[str, str]], kind: str) -> bool:
    """Whether one of the pets in ``lines`` ((value, statement) of the owner's pet beliefs) is
    said to be of another kind than the one asked, and said to be of it by none. Pure."""
    statements: dict[str, list[str]] = {}
    for value, statement in lines:
        statements.setdefault(value.casefold(), []).append(statement)
    return any(said_kind(said, kind) == "other" for said in statements.values())


def gone_by_kind(members: Iterable[str], lines: Sequence[tuple[str, str]], deltas: Sequence[Delta]) -> list[str]:
    """The ``members`` (a pets line's, by name) said to be of a kind that was said to be had no
    longer after they were last said to be had: "I have a dog named Rex", then "Do you still
    have the dog?" — "No." ends "dog", a value of its own (the reply names no Rex, so no
    belief can end Rex), and the line still holds Rex. Such a line says one pet is had and is
    gone at once, and answers nothing. ``lines``: (value, statement) of the owner's pet
    beliefs, which say a named pet's kind (``said_kind``); ``deltas``: the pets dimension's,
    in event order. A pet had again after the end ("… and then we got a dog named Fido") is
    not gone. Pure."""
    kinds = _kinds()
    ended: dict[str, Delta] = {}
    for d in deltas:
        kind = kinds.get(d.observed.casefold(), d.observed.casefold())
        if d.polarity == "negative" and d.modality == "asserted" and kind in kinds.values():
            ended[kind] = d
    if not ended:
        return []
    statements: dict[str, list[str]] = {}
    for value, statement in lines:
        statements.setdefault(value.casefold(), []).append(statement)
    gone: list[str] = []
    for member in members:
        held = [d.at for d in deltas if d.polarity == "positive" and d.observed.casefold() == member.casefold()]
        said = statements.get(member.casefold(), [])
        if held and any(d.at > max(held) and said_kind(said, kind) == "kind" for kind, d in ended.items()):
            gone.append(member)
    return gone
