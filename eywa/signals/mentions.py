"""PERSON and ENTITY mentions: known names, and capitalised words that look like names.

Level 0 cannot know who is a person, so the rule is shallow and documented: any of the
caller's ``known_entities`` (and the speaker) is a PERSON and any of its
``known_non_people`` an ENTITY, matched case-insensitively as a whole word and also in the
possessive ("Mel's"); otherwise a single capitalised word shaped like a given name
("Melinda") is a PERSON unless the turn puts it in a place's or an organisation's slot ("I
work at Acme", "we moved to Lyon": ``eywa.signals.name_cues``), and a multi-word proper
noun or an acronym ("New York", "NASA") is an ENTITY (up to ``_MAX_NAME_CHARS``). A word in such a slot is an ENTITY
everywhere in that turn ("I quit Acme. Acme was awful."). A capitalised word at the start
of a sentence is only a mention when it is known, appears mid-sentence elsewhere in the
turn, starts a multi-word name, or is the subject of a verb that says something of a person's
life ("Priya works at Globex now.", "Tom and I broke up.": ``_PERSON_PREDICATE``): "Thanks"
and "Great" open sentences far more often than names do, but a word a life verb follows
("works", "moved", "got married", "left Globex") is someone, whether or not that someone has spoken yet, so
turns sent before the person spoke, or out of order, give the same mentions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from eywa.models import Signal, SignalKind
from eywa.signals._text import overlaps
from eywa.signals.name_cues import names_place_or_organisation
from eywa.signals.temporal import MONTHS, WEEKDAYS

_TOKEN = re.compile(r"\b[A-Z](?:[a-z]+(?:[A-Z][a-z]+)*|[A-Z]+)\b")
_POSSESSIVE = re.compile(r"['’]s\b")
_SENTENCE_END = '.!?…:;\n"“(*-'
_MAX_NAME_CHARS = 200
"""The longest capitalised run taken as a name. Longer runs ("Zorblax Zorblax …" over a
whole turn) name nothing a caller could ask about (``EYWA_MAX_LABEL_CHARS`` bounds the entity
of every question), and a name becomes an ``:Entity`` whose name Neo4j keeps in a range
index, which refuses a value over its key size (about 8 kB): one such run in a turn within
``EYWA_MAX_CHARS_PER_TURN`` failed the whole batch on the server backend."""

_STOPWORDS = frozenset(
    """
    hey hi hello thanks thank thx wow yes yeah yep yup no nope nah oh ooh ah aw aww awesome
    great cool nice sure okay ok haha hahaha lol lmao omg congrats congratulations bye
    goodbye cheers sorry please welcome good morning night evening afternoon love dear
    dude man guys girl bro sis babe honey sir madam mr mrs ms dr prof st mt god gosh
    jesus lord mom mum dad mother father grandma grandpa granny mommy daddy auntie aunt
    uncle the a an this that these those it he she we they you my your his her our their
    its me him us them what who whom whose which when where why how if and but or so then
    also just well now here there today tomorrow yesterday tonight anyway btw fyi asap am
    pm tv diy ok ps pps re fw faq usa's lgbt lgbtq lgbtq+ anyways absolutely definitely
    totally really maybe perhaps probably actually honestly seriously exactly amazing
    wonderful beautiful fantastic incredible happy merry best bless blessed cute fun hmm
    hmmm um uh wait look listen remember speaking talking agreed true right indeed
    alright all any some every each both either neither none not never always let lets
    tues weds thurs fri sat sun mon tue wed thu xoxo sweet wishing
    """.split()
    + list(MONTHS)
    + list(WEEKDAYS)
)
"""Capitalised words that are almost never a mention in a conversation turn."""

_OPENERS = frozenset(
    """is are was were do does did have has had can could would should will during after
    before since until for from with about into over under while though although because
    as at by in on of to""".split()
)
"""Words that open a sentence but are part of a name mid-sentence ("Under Armour")."""

_NOT_PEOPLE = frozenset(
    """
    christmas easter thanksgiving halloween hanukkah diwali ramadan eid pride valentine
    valentines english spanish french german italian chinese japanese korean russian
    arabic hindi portuguese dutch swedish american british canadian mexican european
    african asian google apple amazon facebook instagram twitter youtube netflix spotify
    microsoft uber tesla reddit tiktok linkedin whatsapp zoom pinterest etsy walmart
    target starbucks disney marvel pokemon lego nintendo playstation xbox iphone android
    internet earth paris london rome tokyo berlin canada mexico france germany italy spain
    japan china india brazil sweden europe africa asia america australia california texas
    florida yoga
    irish scottish welsh polish greek turkish indian brazilian australian nigerian kenyan ghanaian
    filipino vietnamese thai ukrainian israeli egyptian iranian pakistani colombian argentinian peruvian
    cuban jamaican swiss austrian belgian danish norwegian finnish czech hungarian romanian latino latina
    hispanic jewish muslim catholic protestant buddhist hindu sikh mormon baptist methodist lutheran
    anglican evangelical atheist agnostic
    """.split()
)
"""Single capitalised words that name places, products, holidays or organisations, and
nationalities and creeds ("I'm Irish", "my family is Catholic"): no one's name ("Christian"
is one, and is left out)."""

_KIN_WORDS = r"sister|brother|mom|mum|mother|dad|father|husband|wife|partner|boyfriend|girlfriend|fianc[ée]e?|son|daughter"
"""Who someone is to the speaker, in the family or as a partner (``_PERSON_PREDICATE``, ``_PERSON_APPOSITION``)."""

_PERSON_PREDICATE = re.compile(
    r"[ \t]+(?:(?:just|still|now|recently|finally|also|already|officially)[ \t]+)*(?:has[ \t]+)?"
    r"(?:(?:works|worked|is[ \t]+working)[ \t]+(?:at|for|as)\b"
    r"|(?:lives|lived|is[ \t]+living)[ \t]+(?:in|with|at|near|abroad|alone|nearby)\b"
    r"|(?:moved|is[ \t]+moving)[ \t]+(?:to|in|into|out|back|away|abroad|house|home)\b"
    r"|(?:started|joined)[ \t]+(?:at[ \t]+)?[A-Z]\w*"
    r"|left[ \t]+[A-Z][a-z]\w*"
    r"|started[ \t]+(?:working|a[ \t]+(?:new[ \t]+)?job|school|college|university)\b"
    r"|(?:is[ \t]+)?studying[ \t]+(?:at|for|in)\b|studies|studied|graduated|teaches[ \t]+at\b"
    r"|quit|retired|adopted|died|passed[ \t]+away"
    r"|got[ \t]+(?:a[ \t]+job|hired|married|engaged|divorced|separated|fired|laid[ \t]+off|promoted)"
    r"|is[ \t]+(?:(?:now|still)[ \t]+)?(?:married|engaged|divorced|single|pregnant|retired|unemployed|vegan|vegetarian)"
    r"|is[ \t]+(?:(?:now|officially)[ \t]+)?(?:my|our)[ \t]+(?:(?:older|younger|big|little|baby|twin|best)[ \t]+)?"
    rf"(?:{_KIN_WORDS})"
    r"(?=[ \t]*(?:[.!,;]|$))"
    r"|and[ \t]+I)\b"
)
"""What follows a sentence's first word when that word is a person: a verb of work, home,
family or study in the third person with what makes it one of a person's life ("Priya works
at …", "Ana moved to …", "Ben started at Globex", "Ben got married", "Biscuit died"), who it
is to the speaker, ending the clause ("Chris is my husband.", "Eva is my sister"; not "Sunday
is my husband's day off"), or "and I" ("Tom and I broke up"). Openers that are no one
("Finally got a job", "Everyone is moving", "Here is my boyfriend") are ``_NOT_SUBJECTS`` and
adverbs in -ly. A verb as common after a thing as after a
person counts only with such a complement: "Traffic moved slowly", "Lunch started late",
"Life is moving fast", "Dinner lived up to it", "Life teaches you" name no one; "has been"
("Plenty has been happening lately", "Tennis has been a joy this year") and "starts" / "moves"
("Change starts small") never count."""

_PERSON_APPOSITION = re.compile(
    r",[ \t]+(?:my|our)[ \t]+(?:(?:older|younger|big|little|best|old|new|dear)[ \t]+)?"
    rf"(?:{_KIN_WORDS}"
    r"|cousin|aunt|uncle|niece|nephew|grandma|grandmother|grandpa|grandfather|friend|coworker|co-worker|colleague"
    r"|boss|neighbou?r|roommate|flatmate|classmate|teacher|doctor|mentor)[ \t]*,"
)
"""A sentence's first word followed by who it is to the speaker, between commas ("Eva, my
sister, works at Globex"): a person."""

_NOT_SUBJECTS = frozenset(
    """everyone everybody someone somebody nobody anyone anybody one mine yours ours theirs
    then later soon still last next also again once here there this that these those what who which it""".split()
)
"""Sentence openers a life verb may follow that name no one."""


def _opens_with_a_person(text: str, start: int, end: int) -> bool:
    """Whether the sentence-initial word at ``start:end`` is the subject of a life verb."""
    word = text[start:end].lower()
    if word in _NOT_SUBJECTS or (word.endswith("ly") and len(word) >= 7):
        return False
    return _PERSON_PREDICATE.match(text, end) is not None or _PERSON_APPOSITION.match(text, end) is not None


@lru_cache(maxsize=256)
def _known_names(
    people: tuple[str, ...], others: tuple[str, ...]
) -> tuple[tuple[str, ...], dict[str, tuple[str, SignalKind]]]:
    """Every known name's key (whitespace collapsed, lower-cased), longest first, so "Harry
    Potter" (an entity) wins over "Potter" (a person) inside it; each key's spelling and
    kind, a person's where a name is known both ways."""
    canonical: dict[str, tuple[str, SignalKind]] = {}
    for names, kind in ((people, SignalKind.PERSON), (others, SignalKind.ENTITY)):
        for name in names:
            cleaned = " ".join(name.split())
            if cleaned:
                canonical.setdefault(cleaned.lower(), (cleaned, kind))
    return tuple(sorted(canonical, key=len, reverse=True)), canonical


def _alternative(key: str) -> str:
    return r"\s+".join(re.escape(part) for part in key.split())


@lru_cache(maxsize=4096)
def _name_probe(key: str) -> re.Pattern[str]:
    """The known name ``key`` alone, as the matcher's alternative for it reads it."""
    return re.compile(_alternative(key), re.I)


@lru_cache(maxsize=1024)
def _known_pattern(keys: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern over ``keys``, in their order (the first alternative that matches at a
    position wins)."""
    alternatives = "|".join(_alternative(key) for key in keys)
    return re.compile(rf"(?<![\w'’-])(?P<name>{alternatives})(?:['’]s)?(?![\w'’-])", re.I)


_NEXT_NAME = re.compile(r" (?P<word>[A-Z][a-z]+)\b")


def _inside_a_longer_name(text: str, match: re.Match[str]) -> bool:
    """Whether a known name is only the first word of a longer capitalised name the caller
    does not know ("a novel by Ana Ferrante" where Ana is someone else): that name is not
    the known person, so the capitalisation rule reads the whole of it instead. A known
    name's possessive ("Ana's Mom") and a stopword after it ("Ana Thanks") leave it alone."""
    if match.group(0)[-2:].lower() in {"'s", "’s"}:
        return False
    after = _NEXT_NAME.match(text, match.end())
    return after is not None and after["word"].lower() not in _STOPWORDS


def _known(text: str, people: tuple[str, ...], others: tuple[str, ...]) -> list[Signal]:
    """The known names in ``text``. The pattern is built over the names found somewhere in
    the text (``_name_probe``) only: a name that matches nowhere is an alternative that never
    wins, so leaving it out changes no match, and the patterns, compiled once per set of
    names present (a write compiled one per list of names it was given, ~0.15 ms each),
    repeat from turn to turn."""
    keys, canonical = _known_names(people, others)
    present = tuple(key for key in keys if _name_probe(key).search(text) is not None)
    if not present:
        return []
    pattern = _known_pattern(present)
    found: list[Signal] = []
    for match in pattern.finditer(text):
        if _inside_a_longer_name(text, match):
            continue
        name, kind = canonical[" ".join(match["name"].lower().split())]
        found.append(Signal(kind=kind, text=match.group(0), start=match.start(), end=match.end(), normalized=name))
    return found


def _sentence_initial(text: str, start: int) -> bool:
    index = start - 1
    while index >= 0 and text[index] in " \t'‘\"“":
        index -= 1
    return index < 0 or text[index] in _SENTENCE_END


def _groups(text: str) -> list[list[re.Match[str]]]:
    """Runs of capitalised non-stopword tokens separated by single spaces.

    A sentence-initial opener or "-ing" word ("During Thanksgiving", "Learning German") is
    not part of the name that follows it.
    """
    groups: list[list[re.Match[str]]] = []
    for match in _TOKEN.finditer(text):
        word = match.group(0).lower()
        if word in _STOPWORDS:
            continue
        if (word in _OPENERS or word.endswith("ing")) and _sentence_initial(text, match.start()):
            continue
        if groups and text[groups[-1][-1].end() : match.start()] == " ":
            groups[-1].append(match)
        else:
            groups.append([match])
    return groups


def _capitalised(text: str) -> list[Signal]:
    groups = _groups(text)
    inside = {
        group[0].group(0)
        for group in groups
        if len(group) == 1 and not _sentence_initial(text, group[0].start())
    }
    placed = {
        group[0].group(0)
        for group in groups
        if len(group) == 1 and names_place_or_organisation(text, group[0].start(), group[0].end())
    }
    found: list[Signal] = []
    for group in groups:
        start, end = group[0].start(), group[-1].end()
        name = text[start:end]
        if len(name) > _MAX_NAME_CHARS:
            continue
        single = len(group) == 1
        if single and _sentence_initial(text, start) and name not in inside and not _opens_with_a_person(text, start, end):
            continue
        possessive = _POSSESSIVE.match(text, end)
        span_end = possessive.end() if possessive else end
        person = single and name.lower() not in _NOT_PEOPLE and name[1:].islower() and name not in placed
        found.append(
            Signal(
                kind=SignalKind.PERSON if person else SignalKind.ENTITY,
                text=text[start:span_end],
                start=start,
                end=span_end,
                normalized=name,
            )
        )
    return found


def learn_name(name: str, person: bool, people: list[str], others: list[str]) -> None:
    """Add a name a turn just mentioned to the known names the next turns are matched with
    (``detect_mentions``' ``known_entities`` and ``known_non_people``), as the kind it was
    found; a name already known either way keeps its kind."""
    if name and name not in people and name not in others:
        (people if person else others).append(name)


def detect_mentions(
    text: str,
    taken: Sequence[tuple[int, int]],
    known_entities: Sequence[str] = (),
    speaker: str | None = None,
    known_non_people: Sequence[str] = (),
) -> list[Signal]:
    """PERSON and ENTITY mentions that overlap no ``taken`` span (dates, ids, urls).

    Known names win over the capitalisation rule where both match (the longest known name
    where two overlap, a person where one is known both ways) and are normalised to the
    spelling the caller gave; other mentions are normalised without the possessive.
    """
    people = tuple(known_entities) + ((speaker,) if speaker else ())
    others = tuple(known_non_people)
    if not people and not others and not any(c.isupper() for c in text):
        return []
    claimed = list(taken)
    found: list[Signal] = []
    for signal in _known(text, people, others) + _capitalised(text):
        if not overlaps(signal.start, signal.end, claimed):
            found.append(signal)
            claimed.append((signal.start, signal.end))
    return found
