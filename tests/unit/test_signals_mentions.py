"""Level 0 mentions: a single capitalised word in a place's or an organisation's slot is an
entity, not a person ("I work at Acme"), people in other slots stay people, and a known
name keeps the kind the space holds it as (``eywa.signals.mentions``, ``name_cues``)."""

from __future__ import annotations

import random
import re
from datetime import datetime, timezone
from typing import Any

import pytest

from eywa.models import Signal, SignalKind
from eywa.signals import detect_signals, mentions as mentions_module

AT = datetime(2024, 9, 10, 9, 0, tzinfo=timezone.utc)


def mentions(text: str, **kwargs: object) -> list[tuple[str, str]]:
    """(kind, text) of each PERSON and ENTITY signal, in order."""
    found = detect_signals(text, AT, **kwargs)  # type: ignore[arg-type]
    return [(s.kind.value, s.text) for s in found if s.kind in (SignalKind.PERSON, SignalKind.ENTITY)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The README's example, as Alice says it.
        ("I just started at Acme as a data engineer.", [("entity", "Acme")]),
        ("I quit Acme; I work at Globex now.", [("entity", "Acme"), ("entity", "Globex")]),
        # Dana opens the sentence as the subject of a life verb: a person (see below).
        ("Dana works for Initech.", [("person", "Dana"), ("entity", "Initech")]),
        ("I volunteered for Oxfam last year.", [("entity", "Oxfam")]),
        ("She joined Initech in May.", [("entity", "Initech")]),
        ("I left Acme in May.", [("entity", "Acme")]),
        ("We moved to Lyon last spring.", [("entity", "Lyon")]),
        ("We moved from Boston.", [("entity", "Boston")]),
        ("I just got hired by Initech!", [("entity", "Initech")]),
        ("I was recruited by Dunmore last year.", [("entity", "Dunmore")]),
        ("I got a job offer from Hooli.", [("entity", "Hooli")]),
        ("I have never been to Edinburgh.", [("entity", "Edinburgh")]),
        ("We took a trip to Oregon.", [("entity", "Oregon")]),
        ("I grew up in Galway.", [("entity", "Galway")]),
        # One slot is enough for the whole turn, a sentence start included.
        ("I quit Acme. Acme was awful.", [("entity", "Acme"), ("entity", "Acme")]),
    ],
)
def test_a_word_in_a_place_or_organisation_slot_is_an_entity(text: str, expected: list[tuple[str, str]]) -> None:
    assert mentions(text, speaker="Alice") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I had lunch with Sam.", [("person", "Sam")]),
        ("Then Sam said it was fine.", [("person", "Sam")]),
        ("My friend Tom is visiting.", [("person", "Tom")]),
        ("Hey Max! Good to see you.", [("person", "Max")]),
        ("We had dinner at Ana's.", [("person", "Ana's")]),  # her home, not a place named Ana
        ("I left Ned a message.", [("person", "Ned")]),
        ("I left Mel alone for a bit.", [("person", "Mel")]),
        ("I joined Sam for lunch.", [("person", "Sam")]),
        ("We said goodbye to Max.", [("person", "Max")]),
        ("I talked to Ned about it.", [("person", "Ned")]),
        ("Look at Max go!", [("person", "Max")]),
        ("I'm still mad at Ned.", [("person", "Ned")]),
        ("I believe in Tom.", [("person", "Tom")]),
        ("I work with Priya.", [("person", "Priya")]),
        ("I bought a gift for Mel.", [("person", "Mel")]),
        ("I got a letter from Mel.", [("person", "Mel")]),
        ("I was hugged by Mel.", [("person", "Mel")]),
        ("The cake was made by Ned.", [("person", "Ned")]),
    ],
)
def test_people_in_other_slots_stay_people(text: str, expected: list[tuple[str, str]]) -> None:
    assert mentions(text, speaker="Alice") == expected


def test_a_known_person_stays_a_person_in_a_place_slot() -> None:
    assert mentions("I work for Dave now.", known_entities=["Dave"]) == [("person", "Dave")]
    assert mentions("I was at Alice all day.", speaker="Alice") == [("person", "Alice")]


def test_a_known_non_person_is_an_entity_wherever_it_is_said() -> None:
    # Without the space's knowledge, "Acme" opening a clause is shaped like a given name.
    assert mentions("I heard Acme is hiring.") == [("person", "Acme")]
    assert mentions("I heard Acme is hiring.", known_non_people=["Acme"]) == [("entity", "Acme")]
    assert mentions("acme's new office", known_non_people=["Acme"]) == [("entity", "acme's")]


def test_the_longest_known_name_wins_whatever_its_kind() -> None:
    found = mentions("A Harry Potter movie, and Potter herself.", known_entities=["Potter"],
                     known_non_people=["Harry Potter"])  # fmt: skip
    assert found == [("entity", "Harry Potter"), ("person", "Potter")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The first word of an unknown longer name is not the person known by that word.
        ("I just read a novel by Ana Ferrante.", [("entity", "Ana Ferrante")]),
        ("Ana Ferrante lives in Naples.", [("entity", "Ana Ferrante"), ("entity", "Naples")]),
        # The known name alone, with its possessive, or before a word that is no name.
        ("Ana's Mom called.", [("person", "Ana's")]),
        ("Thanks Ana Great news!", [("person", "Ana")]),
        ("I met Ana in Naples.", [("person", "Ana"), ("entity", "Naples")]),
    ],
)
def test_a_known_first_name_inside_a_longer_name_is_not_that_person(text: str, expected: list[tuple[str, str]]) -> None:
    assert mentions(text, known_entities=["Ana"]) == expected


def test_a_name_known_both_ways_is_a_person() -> None:
    assert mentions("I saw Jordan.", known_entities=["Jordan"], known_non_people=["jordan"]) == [("person", "Jordan")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Priya works at Globex now.", [("person", "Priya"), ("entity", "Globex")]),
        ("Hi Ana! Priya lives in Porto.", [("person", "Ana"), ("person", "Priya"), ("entity", "Porto")]),
        ("Tom and I broke up.", [("person", "Tom")]),
        ("Kelly just moved to Leeds.", [("person", "Kelly"), ("entity", "Leeds")]),
        ("Finally got married.", []),
        ("Everyone is moving.", []),
        ("Work is crazy.", []),
        ("Recently moved to Porto.", [("entity", "Porto")]),
        ("Sounds good.", []),
        # Verbs as common after a thing: no one.
        ("Plenty has been happening lately!", []),
        ("Change starts small.", []),
        ("Tennis has been a joy this year.", []),
        # The same verbs without what makes them one of a person's life: no one.
        ("Traffic moved slowly today.", []),
        ("Lunch started late.", []),
        ("Class started at nine.", []),
        ("Life is moving fast.", []),
        ("Dinner lived up to it.", []),
        ("Life teaches you.", []),
        ("Work has just been crazy.", []),
        # ... and with it: someone.
        ("Priya started at Globex.", [("person", "Priya"), ("entity", "Globex")]),
        ("Ben joined Globex last week.", [("person", "Ben"), ("entity", "Globex")]),
        ("Priya has moved to Porto.", [("person", "Priya"), ("entity", "Porto")]),
        ("Ana has started working at Globex.", [("person", "Ana"), ("entity", "Globex")]),
        # Who they are to the speaker, between commas: someone (a place so introduced: no one).
        ("Eva, my sister, works at Globex.", [("person", "Eva"), ("entity", "Globex")]),
        ("Tobias, my coworker, is great.", [("person", "Tobias")]),
        ("Paris, my favorite city, is lovely.", []),
        # Who they are to the speaker, ending the clause: someone (not a word that points).
        ("Chris is my husband.", [("person", "Chris")]),
        ("Omar is my boyfriend, he's a chef.", [("person", "Omar")]),
        ("Lena is my sister!", [("person", "Lena")]),
        ("Here is my boyfriend!", []),
        ("This is my husband.", []),
        ("Sunday is my husband's day off.", []),
    ],
)
def test_an_unknown_sentence_opener_is_a_person_when_a_life_verb_follows(text: str,
                                                                       expected: list[tuple[str, str]]) -> None:
    """An unknown capitalised word opening a sentence was never a mention, so a fact said of
    someone before they spoke ("Priya works at Globex now.") was read of no one."""
    assert mentions(text, speaker="Ben") == expected


def _known_the_old_way(text: str, people: tuple[str, ...], others: tuple[str, ...]) -> list[Signal]:
    """The known-name matcher as it was before session 41: one pattern over every name the
    caller gave, present in the text or not."""
    keys, canonical = mentions_module._known_names(people, others)
    if not keys:
        return []
    found = []
    for match in mentions_module._known_pattern(keys).finditer(text):
        if mentions_module._inside_a_longer_name(text, match):
            continue
        name, kind = canonical[" ".join(match["name"].lower().split())]
        found.append(Signal(kind=kind, text=match.group(0), start=match.start(), end=match.end(), normalized=name))
    return found


NAME_POOL = ["Odile", "Harry Potter", "Potter", "Ana", "Ana Ferrante", "Kestrel Labs", "Kestrel", "Jean-Luc",
             "Bo", "Mary  Ann", "mary ann", "O'Neil", "Lake Tahoe", "Tahoe", "Zed", "Zed's Diner", "Ines"]
TEXT_POOL = [
    "I met odile and HARRY potter at Kestrel Labs' party.", "Potter's shop is near Lake\nTahoe.",
    "A novel by Ana Ferrante, and Ana's Mom; ana Thanks.", "jean-luc? Bo! Mary   Ann's cat, O'Neil's dog.",
    "Zed's Diner and zed's car; Zedd is not Zed, nor is Bob.", "Kestrel-Labs, Kestrel's, kestrel labs and Ines.",
    "Nothing here names anyone we know.", "Ana Ana Ana Ferrante Potter Harry Potter Tahoe",
]


def test_the_known_names_found_equal_one_pattern_over_every_name() -> None:
    """The pattern is built over the names present in the turn only: a name that matches
    nowhere never wins, so every match (span, spelling, kind, the longest name first, a
    person where a name is known both ways, a possessive) is the one the pattern over every
    known name finds."""
    chance = random.Random(41)
    for _ in range(400):
        people = tuple(chance.sample(NAME_POOL, chance.randint(0, 8)))
        others = tuple(chance.sample(NAME_POOL, chance.randint(0, 6)))
        text = " ".join(chance.sample(TEXT_POOL, chance.randint(1, 3)))
        assert mentions_module._known(text, people, others) == _known_the_old_way(text, people, others)


class _CountingRe:
    """The ``re`` module, counting the patterns compiled through it."""

    def __init__(self) -> None:
        self.compiled = 0

    def compile(self, pattern: str, flags: int = 0) -> re.Pattern[str]:
        self.compiled += 1
        return re.compile(pattern, flags)

    def __getattr__(self, name: str) -> Any:
        return getattr(re, name)


def test_the_known_name_patterns_are_compiled_per_names_present_not_per_list(monkeypatch: pytest.MonkeyPatch) -> None:
    """A write's turns are matched against the names its batch can name plus the speaker, a
    list that differs from batch to batch: one pattern compiled per list cost ~0.15 ms a
    write (session 41, the service bench). Forty lists of the same absent names around one
    present name compile a pattern per name and one for the name present, not forty."""
    for value in vars(mentions_module).values():
        if hasattr(value, "cache_clear"):
            value.cache_clear()
    counting = _CountingRe()
    monkeypatch.setattr(mentions_module, "re", counting)
    absent = ["Kestrel Labs", "Harry Potter", "Zed", "Ines", "Lake Tahoe", "Bo"]
    chance = random.Random(7)
    lists: set[tuple[str, ...]] = set()
    while len(lists) < 40:
        lists.add(tuple(chance.sample(absent, chance.randint(1, len(absent)))))
    for others in sorted(lists):
        found = mentions("I saw Odile at the market.", known_entities=["Odile"], known_non_people=list(others))
        assert found == [("person", "Odile")]
    assert counting.compiled <= len(absent) + 2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm Irish.", [("entity", "Irish")]),
        ("My family is Catholic.", [("entity", "Catholic")]),
        ("I am Catholic, Ana is Jewish.", [("entity", "Catholic"), ("person", "Ana"), ("entity", "Jewish")]),
        ("We're Buddhist these days.", [("entity", "Buddhist")]),
        # a first name that is also a creed's word is left a name
        ("I had lunch with Christian yesterday.", [("person", "Christian")]),
    ],
)
def test_a_nationality_or_a_creed_is_no_person(text: str, expected: list[tuple[str, str]]) -> None:
    """"I'm Irish" made Irish a person (and a subject rules could read facts of)."""
    assert mentions(text) == expected
