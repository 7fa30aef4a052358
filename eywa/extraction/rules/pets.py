"""Pets: who has which animal, when it came and when it was lost.

The canonical value of a pet is its name when the turn gives one ("Pickle"), else its
species ("dog" for "puppy", "greyhound" or "pup"), so "my dog Pickle", "our pup Pickle" and
"Pickle the greyhound" are one value. "I adopted a rescue greyhound called Pickle last
Saturday" and "we got a kitten" add a pet (dated); "my cat Biscuit died" and "we had to put
our dog down" remove one (negative), and so does "Biscuit died" alone when the speaker's
earlier beliefs hold Biscuit as a pet (``Ctx.named``, see ``eywa.extraction.context``); "I don't have
the dog anymore" ends a pet of that kind. A pet that is only a photo, a toy or a friend's ("my
friend's dog", "I got this pup for you") is not the speaker's, nor a kind that says what an
allergy is of ("I have a cat allergy"). A pet is read wherever it stands in the list of what
the speaker has ("I have two kids, a dog allergy and a cat named Miso": Miso, ``lists``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from eywa.cessation import GONE_FOR_GOOD
from eywa.extraction.lexicon import NOT_NAMES, NUMBER_WORD, PET_ADJECTIVES, PETS, SPECIES
from eywa.extraction.rules.clause import (
    A,
    ADV,
    HAVE,
    NAME,
    SUBJ,
    Ctx,
    asserts,
    matches,
    past_date,
    plain,
    rule,
)
from eywa.extraction.rules.lists import list_members
from eywa.extraction.rules.phrasing import fact, possessive
from eywa.models import CandidateFact

_NAMES = rf"{NAME}(?:(?:\s*,\s*{NAME})*,?\s+and\s+{NAME}(?=\s*(?:[.!?,;]|$)))?"
"""One name, or a list of them closing its clause ("Luna and Sol", "Luna, Sol and Pip"): not
"Rex and Tom has a cat", where the second name begins another clause."""
_NAMED = (
    rf"(?:(?:,?\s+(?:named|called)\s+|,\s+(?:a|an)\s+{PET_ADJECTIVES}(?:{PETS})\s+(?:named|called)\s+"
    rf"|,\s+(?={_NAMES}(?:\s*(?:[.!?]|$)|\s*,\s*(?:and\s+)?{NUMBER_WORD}\s)))(?P<name>{_NAMES})\b)?"
)
"""The pet's name after it: "named Rex", "called Rex", or "a cat, Miso." ending the sentence;
several pets' names after their kind: "two cats, Luna and Sol.", "kittens named Luna and Sol";
between commas before the next member of a list ("two cats, Luna and Sol, and a dog", ``lists``);
after its breed said between commas: "a puppy, a golden retriever named Sunny"."""
_NAME_WORD = re.compile(NAME)
_NOT_A_CONDITION = r"(?![\s-]+(?:allerg|intoleran)[a-z]*\b)"
"""A kind said before a condition names what the condition is of, not a pet: "I have a cat
allergy" (``eywa.extraction.rules.life``)."""
_HAVING = rule(rf"{SUBJ}(?:\s+{ADV}(?:have|has|own|owns)|{HAVE}\s+got|\s+have\s+got)\s+", PETS)
""""I have", "we own", "I've got": a list of what the subject has follows (``lists``)."""
_PET_FOLLOW = (
    r"(?=\s*(?:[.,!?;:)\-–—]|$)|\s+[A-Z]|\s+(?:is|are|was|were|has|have|had|and|who|named|called|loves?|likes?|got|gets"
    r"|just|always|never|really|does|do|did|will|can|too|still|sleeps?|keeps?|makes?|brings?|cheer|bring|love|died"
    r"|passed|ran|went)\b)"
)
"""What may follow a pet word that names an animal ("my horse painting" names a painting)."""
_LISTED_PET = rule(
    rf"(?P<n>{NUMBER_WORD})\s+{PET_ADJECTIVES}(?P<pet>{PETS})\b{_NOT_A_CONDITION}"
    rf"(?:{_PET_FOLLOW}|(?=\s+(?:at|in|of|with|from|since|for|but|so|or|as|back|here|there|that|which|whose|now)\b))"
    rf"{_NAMED}",
    PETS,
)
"""A pet in the list of what the subject has: "a dog", "two cats, Luna and Sol", "a dog named
Rex" in "I have two kids, a dog named Rex and a cat allergy"; not a kind that names something
else ("a dog walker", "a cat allergy")."""
_NAME_IS = re.compile(
    rf"^\s*(?:[.!]\s*|(?P<clause>,\s*|\s+and\s+|,\s+and\s+))?(?:(?:Her|His|Its|Their)\s+name(?:{A}s|\s+is)"
    rf"|(?:She|He|It)(?:{A}s|\s+is)\s+called|(?:(?:{NAME}|I|We)\s+)?(?:[Nn]amed|[Cc]alled)\s+(?:her|him|it)"
    rf"|(?(clause)(?:(?:her|his|its|their)\s+name(?:{A}s|\s+is)|(?:she|he|it)(?:{A}s|\s+is)\s+called"
    rf"|(?:we\s+)?(?:named|called)\s+(?:her|him|it))|(?!)))\s+(?P<name>{NAME})\b"
)
"""The next sentence, or the next clause of this one, naming the pet just mentioned ("I got
a puppy! Her name's Coco.", "We adopted a kitten. Lucia named her Sardine.", "we got a
puppy, we named him Max", "we got a puppy and named him Max")."""
_GOT = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:adopted|got|rescued|bought|brought\s+home|took\s+in|welcomed)\s+"
    rf"(?P<n>{NUMBER_WORD}|another|our|my)\s+{PET_ADJECTIVES}(?P<pet>{PETS})\b(?!\s+(?:for|toy|plushie|figurine)\b)"
    rf"(?:\s+(?:from|at)\s+(?:a|an|the)\s+[\w\s]{{1,20}}?(?=\s+(?:named|called)\b))?{_NAMED}",
    PETS,
)
_MY_PET = rule(
    rf"(?P<subj>\b[Mm]y|\b[Oo]ur|{NAME}(?={A}s))(?:{A}s)?\s+{PET_ADJECTIVES}(?P<pet>{PETS})\b"
    rf"(?:(?={A}s\s+name\s+is\b)|(?!{A}s){_PET_FOLLOW})"
    rf"(?:(?:,?\s+|\s+is\s+(?:named|called)\s+|{A}s\s+name\s+is\s+)(?P<name>{NAME})\b(?!{A}s))?",
    PETS,
)
""""my dog Rex", "my dog, Rex", "my dog is called Rex", "my cat's name is Miso"."""
_NAME_MY_PET = rule(
    rf"(?P<name>{NAME}),?\s+(?P<subj>[Mm]y|[Oo]ur)\s+{PET_ADJECTIVES}(?P<pet>{PETS})\b{_PET_FOLLOW}",
    PETS,
)
_LOSS = re.compile(
    r"\b(?:miss|missed|misses|lost|rip|memory|memories|passed|died|death|grave|late|rehomed?|put\s+(?:\w+\s+){0,3}down"
    r"|to\s+sleep)\b",
    re.I,
)
_PUT_DOWN_PASSIVE = r"(?:was|been|had\s+to\s+be)\s+put\s+(?:down|to\s+sleep)"
""""was put down", "has been put to sleep", "had to be put down": a pet's death."""
_DIED = re.compile(
    rf",?\s+(?:has\s+|had\s+)?(?:just\s+)?(?:died|passed\s+away|passed|{_PUT_DOWN_PASSIVE}"
    r"|ran\s+away|went\s+missing|got\s+lost)\b"
)
_PUT_DOWN = rule(
    rf"{SUBJ}\s+{ADV}(?P<had>had\s+to\s+)?(?P<verb>put|rehome|rehomed|give\s+up|gave\s+up|lost)\s+(?:my|our)\s+"
    rf"{PET_ADJECTIVES}(?P<pet>{PETS})\b(?:,?\s+(?P<name>{NAME})\b)?(?P<down>\s+down|\s+to\s+sleep)?",
    PETS,
)
_PUT_NAME_DOWN = rule(
    rf"{SUBJ}\s+{ADV}(?P<had>had\s+to\s+)?(?P<verb>put|rehomed|rehome|gave|give)\s+(?P<name>{NAME})\b"
    rf"(?P<down>\s+down|\s+to\s+sleep|\s+away|\s+to\s+(?:my|our|a|an|the|his|her|their|{NAME})\b)?",
    "put rehomed rehome gave give",
)
""""We had to put Rex down", "we rehomed Miso", "we gave Miso to my aunt" (or "away"): a pet
named alone, read only when the
speaker's earlier beliefs hold the name as a pet (``Ctx.named``)."""
_LOST_NAME = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:sadly\s+)?lost\s+(?P<name>{NAME})\b(?!{A}s)"
    r"(?=\s*(?:[.!;,]|$)|\s+(?:last|this|yesterday|recently|earlier|in\s+(?:[A-Z]|\d)|on\s+[A-Z]|(?:a|an|one|two|three|\w+)"
    r"\s+(?:days?|weeks?|months?|years?)\s+ago|to\s+(?:cancer|old\s+age|illness|a\s+\w+))\b)",
    "lost",
)
""""We lost Rex last month", "I lost Biscuit to cancer": a pet the speaker named before, gone
(``Ctx.named``; not "we lost Rex at the park for an hour", a pet found again)."""
_NO_PETS = rule(
    rf"{SUBJ}\s+(?:do\s+not|does\s+not|don{A}t|doesn{A}t)\s+(?:have|own)\s+(?:any\s+)?(?:pets|animals)\b",
    "pets animals",
)
_NOT_HAVING = rule(
    rf"{SUBJ}\s+(?:(?:do\s+not|does\s+not|don{A}t|doesn{A}t)\s+{ADV}(?P<verb>have|own)|no\s+longer\s+(?P<verb2>have|has|own|owns))"
    rf"\s+(?:a|an|the|my|our)\s+{PET_ADJECTIVES}(?P<pet>{PETS})\b"
    r"(?:\s+(?P<ended>anymore|any\s+more|any\s+longer)\b)?(?=\s*(?:[.!?,;]|$)|\s+(?:now|either|though|at\s+home)\b)",
    PETS,
)
""""I don't have the dog anymore", "we no longer have our cat" (also how a bare no to "Do you
still have the dog?" is read, ``eywa.extraction.rules.ellipsis``): a pet of that kind the
speaker had is no longer theirs, as "our cat died" says. Its value is the kind as the part
says it ("dog" for "puppy"): a pet the speaker named before ("my dog Rex") is not named here,
and a value the turn does not say would be no value it supports. Only an end ("anymore", "no
longer"): "I don't have a dog" may deny what never was. Not "I don't have the dog walker
anymore" (the kind ends its phrase)."""
_NOT_HAVING_NAME = rule(
    rf"{SUBJ}\s+(?:(?:do\s+not|does\s+not|don{A}t|doesn{A}t)\s+{ADV}(?P<verb>have|own)|no\s+longer\s+(?P<verb2>have|has|own|owns))"
    rf"\s+(?P<name>{NAME})\b(?!{A}s)(?:\s+(?P<ended>anymore|any\s+more|any\s+longer)\b)?(?=\s*(?:[.!?,;]|$)|\s+(?:now|either)\b)",
    "have has own owns",
)
""""I don't have Rex anymore", "we no longer have Miso" (also how a bare no to "Do you still have
Rex?" is read, ``eywa.extraction.rules.ellipsis``): a pet the speaker's earlier beliefs hold by
that name (``Ctx.named``) is theirs no longer, as ``_NOT_HAVING`` reads one said by its kind.
Only an end ("anymore", "no longer"), and only a name held as a pet: "I don't have Tom anymore"
names no pet."""
NAME_GONE = re.compile(
    rf"(?<![\w'’])(?P<name>{NAME})\s+(?:has\s+|had\s+)?(?:just\s+|sadly\s+|finally\s+)?(?P<gone>died|passed\s+away"
    rf"|passed|{_PUT_DOWN_PASSIVE}|ran\s+away|went\s+missing|(?P<euphemism>(?:is|was)\s+no\s+longer\s+with\s+us(?=\s*(?:[.!;,]|$))))\b"
)
"""A pet named alone as the one who died ("Biscuit died on Tuesday", "Biscuit is no longer with
us"): only a name the speaker's earlier beliefs hold as a pet (``Ctx.named``) is read, never
any capitalised word (and a partner so held, ``endings``)."""
_THE_PET_GONE = re.compile(
    rf"(?<![\w'’])[Tt]he\s+(?:old\s+)?(?P<pet>{PETS})\s+(?:has\s+|had\s+)?(?:just\s+|sadly\s+|finally\s+)?"
    rf"(?P<gone>died|passed\s+away|passed\s+on|passed(?={GONE_FOR_GOOD})|{_PUT_DOWN_PASSIVE}|ran\s+away|went\s+missing)\b"
)
""""The cat passed", "the dog died last week": a pet said by its kind, the speaker's when their
earlier beliefs hold a pet of that kind by no name (``Ctx.named``: "I have a cat"); not "the
cat passed the test" (a bare "passed" ends its clause or says when)."""
_NOT_MINE = re.compile(r"\b(?:friend|neighbou?r|sister|brother|mom|mum|dad|parents|cousin|aunt|uncle)[’']s\s*$", re.I)


_NEEDS_WHERE = frozenset({"put", "gave", "give"})
"""Verbs that say a pet left only with where to ("put Rex down", "gave Miso to my aunt")."""


def pet_names(named: str | None) -> list[str]:
    """The names of a name slot (``_NAMES``), without the words that are no names."""
    return [n for n in _NAME_WORD.findall(named or "") if n not in NOT_NAMES]


def pet_value(pet: str, name: str | None) -> str:
    """The canonical value: the pet's name, or its species."""
    if name and name not in NOT_NAMES:
        return name
    return SPECIES.get(pet.lower(), pet.lower())


_NAME_ALONE = re.compile(rf",\s+(?P<name>{NAME})(?=\s*(?:[.!]|$))")
_WHENCE = re.compile(r"\s+(?:from|at)\s+(?:a|an|the|my|our)\s+(?:[\w-]+\s+){0,2}?[\w-]+(?=\s*[,.!;]|\s+and\b)")
"""Where a pet came from, said between it and its name ("… a puppy from the local shelter, her name is Coco")."""
_WHEN = re.compile(
    r"\s+(?:on\s+(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day|(?:last|this)\s+(?:week|weekend|month|morning|night)|yesterday"
    r"|today|(?:a|one|two|three|a\s+few|a\s+couple\s+of)\s+(?:days?|weeks?|months?)\s+ago)(?![\w'’])"
)
"""When, as the turn says it where Level 0 placed no date ("on Monday" said on a Tuesday)."""


def named_after(ctx: Ctx, end: int) -> str | None:
    """The name the rest of the part (from ``end``), or else the text after it, gives the pet
    (or the baby) just mentioned (``_NAME_IS``); read only for one the match left unnamed. A
    date or where the pet came from may stand between ("we got a parrot last week, his name is
    Kiwi"), and then the name alone may close the sentence ("we got a second cat last week,
    Miso.")."""
    start = end
    for _ in range(2):
        at = [d.end - ctx.part.start for d in ctx.dates if d.start - ctx.part.start >= end
              and not ctx.text[end : d.start - ctx.part.start].strip()]  # fmt: skip
        if at:
            end = at[0]
        elif (whence := _WHENCE.match(ctx.text, end) or _WHEN.match(ctx.text, end)) is not None:
            end = whence.end()
    if end > start and (alone := _NAME_ALONE.match(ctx.text, end)) is not None:
        return alone.group("name")
    later = _NAME_IS.match(ctx.text[end:]) or _NAME_IS.match(ctx.turn.text[ctx.part.start + len(ctx.text) :])
    return None if later is None else later.group("name")


def _named_gone(ctx: Ctx) -> Iterator[CandidateFact]:
    """"<Name> died", "we had to put <Name> down", "we rehomed <Name>" where the name is one of
    the speaker's pets, and "the cat passed" where a cat is (``_THE_PET_GONE``)."""
    speaker = ctx.turn.speaker
    mine = ctx.named.get((speaker or "").casefold())
    if not speaker or not mine:
        return
    for m in NAME_GONE.finditer(ctx.text):
        known = mine.get(m.group("name").casefold())
        if known is None or known[0] != "pets" or _MY_PET.pattern.search(ctx.text[: m.end("name")]):
            continue  # "my cat Biscuit died" is read below, with the kind
        if ctx.part.negated and not m.group("euphemism"):
            continue  # "Biscuit never died" ("no longer with us" negates nothing of its own)
        gone = " ".join(m.group("gone").split())
        yield fact(ctx, speaker, f"{possessive(speaker)} pet {known[1]} {gone}", "pets", known[1], polarity="negative",
                   valid_from=past_date(ctx), confidence=0.8)
    if ctx.part.negated:
        return
    for m in _THE_PET_GONE.finditer(ctx.text) if "the" in ctx.part.words else ():
        known = mine.get(pet_value(m.group("pet"), None))
        if known is not None and known[0] == "pets":
            gone = " ".join(m.group("gone").split())
            yield fact(ctx, speaker, f"{possessive(speaker)} {m.group('pet')} {gone}", "pets", known[1],
                       polarity="negative", valid_from=past_date(ctx, m), confidence=0.75)
    for m, s in matches(ctx, _LOST_NAME, we=True):
        known = mine.get(m.group("name").casefold())
        if s == speaker and known is not None and known[0] == "pets":
            yield fact(ctx, s, f"{s} lost {known[1]}", "pets", known[1], polarity="negative",
                       valid_from=past_date(ctx, m), confidence=0.8)
    for m, s in matches(ctx, _PUT_NAME_DOWN, we=True):
        known = mine.get(m.group("name").casefold())
        verb, down = m.group("verb"), m.group("down") or ""
        if s != speaker or known is None or known[0] != "pets" or (verb in _NEEDS_WHERE and not down):
            continue
        if verb in {"gave", "give"}:  # as a give-away says it: the cessation cue
            done = f"gave {known[1]} away"
        else:
            done = f"put {known[1]}{down}" if verb == "put" else f"{verb} {known[1]}"
        yield fact(ctx, s, f"{s} {m.group('had') or ''}{done}", "pets", known[1], polarity="negative",
                   valid_from=past_date(ctx, m), confidence=0.8)


def pets(ctx: Ctx) -> Iterator[CandidateFact]:
    """Pet facts of one part."""
    if not plain(ctx):
        return
    text = ctx.text
    yield from _named_gone(ctx)
    for m, s in matches(ctx, _MY_PET, we=True, anywhere=True):
        if _NOT_MINE.search(text[: m.start()]):
            continue
        pet, name = m.group("pet"), m.group("name")
        gone = _DIED.match(text, m.end())
        if gone is not None:
            yield fact(ctx, s, f"{possessive(s)} {pet}{' ' + name if name else ''} {gone.group(0).strip(' ,')}", "pets",
                       pet_value(pet, name), polarity="negative", valid_from=past_date(ctx), confidence=0.85)
        elif _LOSS.search(text):
            continue
        elif not ctx.part.negated and name and name not in NOT_NAMES:
            yield fact(ctx, s, f"{s} has a {pet} named {name}", "pets", name, confidence=0.8)
        elif asserts(ctx) and not re.search(rf"{NAME},?\s+$", text[: m.start()]):
            plural = pet.endswith("s") and not pet.endswith("ss")
            yield fact(ctx, s, f"{s} has {pet}" if plural else f"{s} has a {pet}", "pets",
                       pet_value(pet, None), confidence=0.7)
    for m, s in matches(ctx, _NAME_MY_PET, we=True, anywhere=True):
        name = m.group("name")
        if asserts(ctx) and name not in NOT_NAMES and not _LOSS.search(text):
            yield fact(ctx, s, f"{s} has a {m.group('pet')} named {name}", "pets", name, confidence=0.75)
    for m, s in matches(ctx, _PUT_DOWN, we=True):
        pet, name, verb = m.group("pet"), m.group("name"), " ".join(m.group("verb").split())
        if verb == "put" and not m.group("down"):
            continue
        said = f"{possessive(s)} {pet}{' ' + name if name else ''}"
        done = f"put {said}{m.group('down')}" if verb == "put" else f"{verb} {said}"
        yield fact(ctx, s, f"{s} {m.group('had') or ''}{done}", "pets", pet_value(pet, name), polarity="negative",
                   valid_from=past_date(ctx, m), confidence=0.8)
    for m, s in matches(ctx, _NO_PETS, we=True):
        yield fact(ctx, s, f"{s} does not have pets", "pets", "pets", polarity="negative", confidence=0.8)
    for m, s in matches(ctx, _NOT_HAVING, we=True):
        if m.group("ended") is None and m.group("verb2") is None:
            continue
        kind = pet_value(m.group("pet"), None)
        yield fact(ctx, s, f"{s} no longer has a {kind}", "pets", kind, polarity="negative", confidence=0.8)
    mine = ctx.named.get((ctx.turn.speaker or "").casefold(), {})
    for m, s in matches(ctx, _NOT_HAVING_NAME, we=True) if mine else ():
        known = mine.get(m.group("name").casefold())
        if (m.group("ended") is not None or m.group("verb2") is not None) and known is not None and known[0] == "pets":
            yield fact(ctx, s, f"{s} no longer has {known[1]}", "pets", known[1], polarity="negative", confidence=0.8)
    if ctx.part.negated:
        return
    for m, s in matches(ctx, _GOT, we=True):
        pet, names = m.group("pet"), pet_names(m.group("name"))
        if not names and (later := named_after(ctx, m.end())) is not None:
            names = [later]
        how = re.search(r"\b(adopted|got|rescued|bought|brought home|took in|welcomed)\b", m.group(0))
        kind = pet if len(names) < 2 else pet_value(pet, None)
        possessed = re.search(rf"{A}ve\s+got|have\s+got|has\s+got", m.group(0)) is not None
        each: list[str | None] = [*names] if names else [None]
        for name in each:
            named = f" named {name}" if name else ""
            if possessed:  # possession, not an acquisition
                yield fact(ctx, s, f"{s} has a {kind}{named}", "pets", pet_value(pet, name), confidence=0.85)
                continue
            yield fact(ctx, s, f"{s} {how.group(1) if how else 'got'} a {kind}{named}", "pets", pet_value(pet, name),
                       valid_from=past_date(ctx, m), confidence=0.85)
    if not asserts(ctx) or _LOSS.search(text):
        return
    for m, s in matches(ctx, _HAVING, we=True):
        # Each pet of the list, wherever it stands ("I have a cat allergy and a dog named Rex"):
        # the first as sure as one said alone, the others a little less.
        for at, listed in enumerate(list_members(text, m.end(), _LISTED_PET.pattern)):
            pet, names, n = listed.group("pet"), pet_names(listed.group("name")), listed.group("n")
            sure = 0.85 if at == 0 else 0.8
            if names:
                kind = pet if len(names) == 1 else pet_value(pet, None)
                for name in names:
                    yield fact(ctx, s, f"{s} has a {kind} named {name}", "pets", pet_value(pet, name), confidence=sure)
            else:
                yield fact(ctx, s, f"{s} has {n} {pet}", "pets", pet_value(pet, None), confidence=sure)
