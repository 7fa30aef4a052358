"""The kind of thing a list question asks for, and how a member of that kind is spoken of.

"Which films has Nadia seen?" is answered by the turns that name each film ("we finally
watched 'Harbour Lights'"), spread over sessions, while the turns that say the question's
words ("I love a good film") are small talk about the kind and tell no member. The fused
ranking puts that small talk first: every lexical route agrees on it. A member is spoken of
with the kind's words (a film is watched, has actors, a sequel) and, for the kinds whose
members go by names of their own (films, books, shows, games, music, pets, places), by its
name: a quoted title, or a capitalised word inside a sentence that is not a speaker's name.

``kind_asked`` reads the one kind a question asks for from its nouns; ``member_query`` is the
keyword search that finds the turns speaking of one; ``names_something`` tells a turn that
names a member. The words of instruments, sports and pets are the attribute registry's, the
one list the extractor and the other readers use too (``PASTIME_KINDS`` for the pastimes
``eywa.read.pastime_kinds`` reads, the pets attribute's words for ``eywa.read.pet_kinds``); the
other kinds' cue words, and the words said around a pastime or a pet ("lessons", "vet"), are
general English usage, not taken from any evaluation file's turns. The reader uses them only
to offer one turn for a reserved place of an aggregate question's result
(``eywa.read.adjust.reserve_place``), never as a vote in fusion (session 48 measured that: it
moved the list's other members across the tenth place, docs/evaluation.md).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from eywa.attributes import get_attribute
from eywa.attributes.registry import PASTIME_KINDS
from eywa.read.pet_kinds import PETS

__all__ = [
    "NAMED_FACTOR",
    "THING_KINDS",
    "ThingKind",
    "kind_asked",
    "member_order",
    "member_query",
    "names_something",
]

KindName = Literal[
    "films", "books", "shows", "games", "music", "pets", "places", "instruments", "sports", "dishes", "art"
]


@dataclass(frozen=True)
class ThingKind:
    """A kind of thing a list question may ask for.

    ``nouns``: the words a question asks for it by ("films", "movie"); ``cues``: the words a
    turn speaking of one of its members tends to hold ("watched", "cinema", "sequel");
    ``named``: whether its members go by names of their own (a film, a book, a pet), so that a
    turn naming something is more likely to name a member.
    """

    name: KindName
    nouns: frozenset[str]
    cues: tuple[str, ...]
    named: bool


def _kind(name: KindName, nouns: str, cues: str, named: bool) -> ThingKind:
    return ThingKind(name, frozenset(nouns.split()), tuple(cues.split()), named)


def _pastime_kind(name: KindName, registry_kind: str, cues: str) -> ThingKind:
    """A kind of pastime (instruments, sports), asked by the registry kind's name and spoken
    of with its pastimes (``PASTIME_KINDS``: "guitar", "cello" for instruments), then the
    words said around any of them (``cues``: "lessons"). Its members are common nouns."""
    members = tuple(sorted(PASTIME_KINDS[registry_kind]))
    return ThingKind(name, frozenset({registry_kind, f"{registry_kind}s"}), (*members, *cues.split()), False)


def _pets_kind(cues: str) -> ThingKind:
    """Pets, asked by the pets attribute's words (a kind, a breed or a young one: "dogs",
    "beagle", "kitten") and spoken of with them, then the words said around any pet
    (``cues``: "vet", "leash"). A pet goes by a name of its own."""
    words = get_attribute(PETS).words
    return ThingKind("pets", frozenset(words), (*words, *cues.split()), True)


THING_KINDS: Final[tuple[ThingKind, ...]] = (
    _kind(
        "films",
        "movie movies film films",
        "movie film watched watch watching cinema theater theatre actor actress director "
        "sequel trailer starring flick screening",
        True,
    ),
    _kind(
        "books",
        "book books novel novels",
        "book novel read reading author chapter pages library writer bookstore paperback "
        "series finished",
        True,
    ),
    _kind(
        "shows",
        "show shows series tv",
        "show series episode episodes season binge tv television streaming sitcom documentary",
        True,
    ),
    _kind(
        "games",
        "game games",
        "game games played playing gaming console rpg level multiplayer",
        True,
    ),
    _kind(
        "music",
        "song songs music band bands album albums artist artists concert concerts",
        "song songs music band album concert singer track playlist listen listening lyrics "
        "gig tune",
        True,
    ),
    _pets_kind("vet adopted adopt breed paws fur leash"),
    _kind(
        "places",
        "place places city cities country countries",
        "visited visit trip travel traveled travelled flew city country vacation tour abroad "
        "town",
        True,
    ),
    _pastime_kind("instruments", "instrument", "lessons"),
    _pastime_kind("sports", "sport", "league match team"),
    _kind(
        "dishes",
        "dish dishes food foods recipe recipes meal meals",
        "recipe cook cooked cooking baked bake dish meal dinner flavor ingredients kitchen "
        "tasty delicious",
        False,
    ),
    _kind(
        "art",
        "art artwork artworks painting paintings",
        "paint painted painting canvas drawing sketch artwork sculpture gallery mural "
        "watercolor",
        False,
    ),
)
# A turn that names something counts this many times its keyword score in the member search,
# for a kind whose members go by names (``ThingKind.named``). Measured on the LoCoMo
# development file at 1 (the search's own order), 1.5, 2 and 3: 1.5 to 3 give the same
# recall (+0.1 over categories 1-4); at 1 the search offers the kind's small talk first, one
# question up and one down (docs/evaluation.md, session 49).
NAMED_FACTOR: Final = 2.0

_WORD: Final = re.compile(r"[a-z]+")
_QUOTED: Final = re.compile(r"[\"“'‘][A-Z][^\"”’\n]{1,60}[\"”’]")
_SENTENCE_END: Final = re.compile(r"(?<=[.!?])\s+")
_CAPITALISED: Final = re.compile(r"\b[A-Z][a-z]+")


def kind_asked(question: str) -> ThingKind | None:
    """The one kind ``question`` asks for by its nouns ("What books has Nadia read?" → books),
    None when it names none or several ("Which films and books…": no one kind to look for)."""
    words = set(_WORD.findall(question.lower()))
    found = [kind for kind in THING_KINDS if words & kind.nouns]
    return found[0] if len(found) == 1 else None


def member_query(kind: ThingKind, topic: Sequence[str]) -> str:
    """The keyword search for turns speaking of a member of ``kind``: its cue words and the
    question's own topic words (``Plan.other_words``), each once."""
    return " ".join(dict.fromkeys((*kind.cues, *topic)))


def names_something(text: str, speakers: Collection[str]) -> bool:
    """Whether ``text`` names something: a quoted name ("'Harbour Lights'"), or a capitalised
    word that is not a sentence's first word, "I" or the name of one of ``speakers`` ("we
    watched Vertigo again"). Pure; a sentence starts after ".", "!" or "?"."""
    if _QUOTED.search(text):
        return True
    for sentence in _SENTENCE_END.split(text):
        for match in _CAPITALISED.finditer(sentence):
            if match.start() > 0 and match.group() not in speakers:
                return True
    return False


def member_order(
    kind: ThingKind, hits: Sequence[tuple[str, float]], texts: dict[str, str], speakers: Collection[str]
) -> list[str]:
    """The ids of ``hits`` (id, keyword score, best first) ordered as members of ``kind``: the
    keyword score, times ``NAMED_FACTOR`` for a turn (its text in ``texts``) that names
    something, when the kind's members go by names. Hits without a text are left out."""
    scored = [
        (score * (NAMED_FACTOR if kind.named and names_something(texts[item], speakers) else 1.0), n, item)
        for n, (item, score) in enumerate(hits)
        if item in texts
    ]
    scored.sort(key=lambda entry: (-entry[0], entry[1]))
    return [item for _, _, item in scored]
