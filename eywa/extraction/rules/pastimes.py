"""Hobbies, likes and dislikes, with their change forms.

Hobby values come from a closed list of pastimes, so "I play volleyball", "I joined a
volleyball club" and "I stopped playing volleyball" share the value "volleyball"; taking
one up is positive (dated), quitting or "not any more" is negative. "I love <gerund
phrase>" adds an open-ended hobby when the gerund names an activity on its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from eywa.extraction.lexicon import (
    ENTHUSIASTS,
    HABITS,
    NOT_HOBBY_GERUNDS,
    NOT_NAMES,
    NOT_OBJECTS,
    PASTIMES,
    PROPER,
    alternation,
)
from eywa.extraction.rules.clause import (
    A,
    ADV,
    BE,
    HAVE,
    NAME,
    SUBJ,
    Ctx,
    matches,
    openings,
    past_date,
    plain,
    rule,
)
from eywa.extraction.rules.phrasing import (
    article,
    clean,
    fact,
    has_unresolved,
    possessive,
    predicate,
    third_person_text,
)
from eywa.models import CandidateFact, SignalKind

_ACT = rf"(?P<act>{PASTIMES})\b"
_GERUNDS = "|".join(a for a in PASTIMES.split("|") if a.endswith("ing") and " " not in a and "\\" not in a)
_GROUP = r"(?:class|classes|club|team|group|lessons|course|league|session|sessions|workshop|studio|crew)"
_DET = r"(?:(?:a|an|the|some|my|our|first|local|new|weekly|weekend|beginner|beginners|evening|community)\s+)*"

_DOES = rule(
    rf"{SUBJ}(?:{BE}|{HAVE}\s+been)?\s+{ADV}(?:often\s+|usually\s+|regularly\s+|sometimes\s+)?(?:play|plays|playing"
    rf"|practi[cs]e|practi[cs]es|practi[cs]ing|do|does|doing|go|goes|learning|learn|learns"
    rf"|learning\s+(?:how\s+)?to\s+play|learn(?:ing)?\s+(?:how\s+)?to)\s+"
    rf"(?:the\s+|some\s+|a\s+lot\s+of\s+|more\s+)?{_ACT}(?!\s+(?:{_GROUP}|match|game|tournament|event|trip)\b)",
    PASTIMES,
)
_TOOK_UP = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:started|began|took\s+up|taken\s+up|picked\s+up|got\s+into"
    rf"|{BE}\s+getting\s+into)\s+"
    rf"(?:(?:playing|learning|doing|practi[cs]ing)\s+)?{_DET}{_ACT}"
    r"(?!\s+(?:match|game|tournament|event|trip|another|a|an|the|my|(?:this|that)(?!\s+(?:year|month|week|spring|summer"
    r"|autumn|fall|winter)\b)|some|it|one|more|about|down)\b)",
    PASTIMES,
)
"""Taking an activity up: "I took up pottery (this year)", "I've taken up the cello"; not when the activity word is a
verb with its object after it ("I started painting this fence", "I started running a
marathon")."""
_JOINED = rule(
    rf"{SUBJ}(?:{HAVE}|{BE}|{HAVE}\s+been)?\s+{ADV}(?:joined|signed\s+up\s+for|enrolled\s+in|(?:(?:started|began)\s+)?taking"
    rf"|started|began|took|doing|go\s+to|goes\s+to)\s+{_DET}{_ACT}\s+{_GROUP}\b",
    PASTIMES,
)
""""I joined a volleyball club", "I started taking piano lessons", "I'm doing a pottery class on
Tuesdays", "I go to a salsa class": the activity is a pastime (not "I'm going to a pottery class
tonight", one evening's)."""
_QUIT = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:quit|stopped|gave\s+up|dropped|left)\s+(?:(?:playing|doing|going|practi[cs]ing)\s+)?"
    rf"(?:my\s+|the\s+|our\s+)?{_ACT}(?:\s+{_GROUP})?",
    PASTIMES,
)
_NOT_ANYMORE = rule(
    rf"{SUBJ}\s+(?:do\s+not|does\s+not|don{A}t|doesn{A}t|(?P<longer>no\s+longer))\s+(?:play|plays|do|does|go|goes"
    rf"|practi[cs]es?)\s+{_ACT}(?(longer)|(?=.*\b(?:anymore|any\s+more)\b))",
    PASTIMES,
)
""""I don't play tennis anymore", "I no longer play tennis" ("no longer" needs no "anymore")."""
_NO_MORE = rule(
    rf"\b[Nn]o\s+more\s+{_ACT}\s+for\s+(?:me|us)(?=\s*(?:[.!,;]|$|\s+(?:anymore|any\s+more|now|either)\b))",
    PASTIMES,
)
""""(I hurt my knee, so) no more tennis for me": the speaker's pastime, ended (not "no more
tennis for me this week", a pause, nor "… for me to watch")."""
_NOT_ANYMORE_VERB = rule(
    rf"{SUBJ}\s+(?:do\s+not|does\s+not|don{A}t|doesn{A}t|(?P<longer>no\s+longer))\s+(?:really\s+)?(?P<verb>[a-z]+)"
    r"(?(longer)(?=\s*(?:[.!,;]|$|\s+(?:anymore|any\s+more|now|these\s+days)\b))|\s+(?:anymore|any\s+more)\b)",
    "anymore more longer",
)
""""I don't climb anymore", "I no longer swim": the pastime the verb names alone (``HABITS``:
climb → climbing), with no object ("I don't run the club anymore" is not it)."""
_DOING = rule(
    rf"{SUBJ}(?:{BE}|(?P<perfect>{HAVE}\s+been))\s+{ADV}(?:really\s+|regularly\s+)?(?P<act>{_GERUNDS})\b"
    r"(?!\s+(?:to|for|through|out|on|up|this|that|these|a(?!\s+lot\b)|an|the|my)\b)",
    PASTIMES,
)
_HABITUAL = re.compile(
    r"\b(?:still|regularly|every|a\s+lot|lately|often|usually|always|daily|weekly|for\s+(?:years|months|ages|a\s+while"
    r"|(?:a\s+few|two|three|four|five|\d+)\s+(?:years|months))|since|again)\b",
    re.IGNORECASE,
)
"""Words that make "I'm volunteering" a habit rather than what someone is doing right now."""
_ENTHUSIAST = rule(
    rf"{SUBJ}{BE}\s+{ADV}(?P<desc>(?:a|an)\s+(?:(?:avid|keen|big|huge|passionate|amateur|expert|enthusiastic|serious|regular"
    rf"|dedicated|experienced|decent|proper|total|real|casual|weekend|competitive|obsessive|hardcore)\s+)+"
    rf"(?P<agent>{alternation(' '.join(k.replace(' ', '_') for k in ENTHUSIASTS))}))\b",
    " ".join(ENTHUSIASTS),
)
_HABIT = rule(
    rf"{SUBJ}\s+{ADV}(?:often\s+|usually\s+|sometimes\s+|always\s+|regularly\s+|love\s+to\s+|like\s+to\s+)?"
    rf"(?P<verb>{alternation(' '.join(HABITS))})(?:\s+(?:at|with|for|in|on)(?:\s+[\w'’-]+){{1,4}}?)?\s+"
    r"(?=(?:every|each|most|on\s+(?:the\s+)?weekends?|at\s+weekends?"
    r"|a\s+lot|daily|weekly|regularly|twice|once|several|whenever|in\s+my\s+(?:free|spare)\s+time|to\s+relax"
    r"|to\s+unwind|to\s+de-?stress|for\s+fun|for\s+a\s+living"
    r"|(?:half[-\s])?marathons|ultras|triathlons|races|laps|trails)\b)",
    " ".join(HABITS),
)
""""I run every morning", "I cook a lot", "I run marathons", "I swim laps": a pastime done
habitually, said by how often or by what one does it in (races, laps); not "I run a bakery"."""
PASTIME_ONLY = re.compile(rf"(?i:{PASTIMES})")
_LOVE_TO = rule(
    rf"{SUBJ}\s+{ADV}(?P<feel>love|loves|enjoy|enjoys|like|likes|adore|adores)\s+to\s+"
    rf"(?P<verb>{alternation(' '.join(HABITS))})\b"
    r"(?!\s+(?:it|that|this|them|you|him|her)\b)",
    " ".join(HABITS),
)
_LEARNING_TO = rule(
    rf"{SUBJ}(?:{BE}|{HAVE}\s+been)\s+{ADV}(?P<said>learning\s+(?:how\s+)?to)\s+"
    rf"(?P<verb>{alternation(' '.join(HABITS))})\b(?!\s+(?:it|that|this|them|you|him|her)\b)",
    "learning",
)
""""I'm learning to knit", "I've been learning how to paint": a pastime being taken up (as
"I'm learning guitar" is, ``_DOES``)."""
_TRAINING_FOR = rule(
    rf"{SUBJ}(?:{BE}|{HAVE}\s+been)\s+{ADV}training\s+for\s+(?:a|an|my|the|another)\s+"
    r"(?:(?:first|next|second|big|local|charity|spring|autumn|fall)\s+)?"
    r"(?P<race>(?:half\s+)?marathon|triathlon)\b",
    "training",
)
""""I'm training for a marathon", "… for my first half marathon / triathlon": the pastime is the
kind of race (the registry's "marathons", "triathlons"), trained for over months. Not
"half-marathon": one word, in which the validator finds no "marathon" to support the value."""
_HABIT_CUT = re.compile(r"[,;:.!?]|\s+(?:and|but|because|so|when|while|with|which)\s+")
_INTO = rule(
    rf"{SUBJ}{BE}\s+{ADV}(?:really\s+|so\s+|big\s+)?(?:into|passionate\s+about|obsessed\s+with|hooked\s+on"
    rf"|a\s+(?:big\s+|huge\s+)?fan\s+of)\s+{_ACT}",
    PASTIMES,
)
_IS_HOBBY = rule(
    rf"(?<![\w'’])(?i:(?P<act>{PASTIMES}))\b\s+(?:is|has\s+been|has\s+become|became)\s+(?P<subj>my|{NAME}{A}s)\s+"
    rf"(?:(?:big|biggest|true|real|"
    rf"main|new|favou?rite)\s+)?(?P<noun>hobby|passion|thing|pastime|outlet|escape)\b",
    PASTIMES,
)
_FAN = rule(
    rf"{SUBJ}{BE}\s+{ADV}(?:(?:a\s+)?(?:(?:big|huge|total|massive|great|die-hard|longtime|long-time)\s+)?fan\s+of"
    r"|passionate\s+about|(?:really\s+|so\s+|mostly\s+|totally\s+|very\s+much\s+|big\s+)?into)\s+"
    r"(?P<obj>(?:the\s+)?(?!both\b|all\b|any\b)[A-Za-z][\w'’-]*(?:\s+(?!and\b|but\b|because\b|so\b|too\b|since\b|as\b|who\b"
    r"|which\b|like\b|with\b|for\b|in\b|on\b|at\b|are\b|is\b|to\b)"
    r"[A-Za-z][\w'’-]*){0,3})"
    r"(?=\s*(?:[.,!;:)]|$|\s+(?:too|since|as|who|which|like|with|for|in|on|at)\b))",
    "fan passionate into",
)
_FAVOURITE = rule(
    rf"(?P<subj>\b[Mm]y|{NAME}(?={A}s))(?:{A}s)?\s+(?:all-time\s+|absolute\s+|very\s+)?(?:favou?rite|fave)\s+"
    r"(?P<cat>book|books|movie|movies|film|films|song|band|singer|artist|author|writer|food|dish|meal|color|colour"
    r"|game|show|series|sport|team|place|city|animal|season|flower|genre|drink|dessert|snack|restaurant|album)\s+"
    r"(?:is|was|has\s+to\s+be|are)\s+(?P<obj>[\w\"“”'’&:-]+(?:\s+(?!and\b|but\b|because\b|so\b|since\b|as\b|which\b"
    r"|who\b|too\b)[\w\"“”'’&:-]+){0,4})",
    "favorite favourite fave",
)
_HOBBY_IS = rule(
    rf"(?P<subj>\b[Mm]y|{NAME}(?={A}s))(?:{A}s)?\s+(?:favou?rite\s+|main\s+|new\s+)?(?P<noun>hobby|hobbies|pastime|passion"
    rf"|pastimes|passions)\s+(?:is|are|has\s+been|have\s+been|include)\s+"
    rf"(?P<list>(?:{PASTIMES})\b(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+)(?:{PASTIMES})\b)*)",
    PASTIMES,
)
""""My hobby is pottery", "My hobbies are pottery, swimming and chess" (each its own),
"Ana's hobbies include hiking and baking"."""
_LISTED: Final = re.compile(rf"(?i:{PASTIMES})\b")
_LOVES_NAME = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?P<verb>love|loves|loved|enjoy|enjoys|like|likes|liked|adore|adores)\s+(?P<obj>{PROPER})"
    r"(?![\w'’])(?!\s*[’']s)",
    "love loves loved enjoy enjoys like likes liked adore adores",
)
_LOVES = rule(
    rf"{SUBJ}\s+{ADV}(?P<verb>love|loves|enjoy|enjoys|like|likes|adore|adores)\s+(?P<obj>[a-z][\w'’-]*)"
    r"(?P<rest>(?:\s+(?!(?:and|but|because|so|when|while|since|as|or|which|who|that|it|with|to|for|on|in|at|about"
    r"|from|by|of|too|though|now|lately|sometimes|every|whenever|if|more|most|than|the\s+most|i|you|we|they|he|she"
    r"|into|up|out|off|down|away|back|over|through|like|around"
    r"|my|your|our|their|his|her)\b)[a-z][\w'’&-]*){0,2}"
    r"(?:\s+and\s+[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*)?(?=\s*(?:[.,!;:]|$)))?)",
    "love loves enjoy enjoys like likes adore adores",
)
_HATES = rule(
    rf"{SUBJ}\s+{ADV}(?P<verb>hate|hates|dislike|dislikes|detest|detests|can{A}t\s+stand)\s+(?P<obj>[a-z][\w'’-]*)"
    r"(?P<rest>(?:\s+(?!(?:and|but|because|so|when|while|it|that|with|to|for|on|in|at|about|i|you|my)\b)[a-z][\w'’-]*)"
    r"{0,2})",
    "hate hates dislike dislikes detest detests stand",
)
_NOT_LIKE = rule(
    rf"{SUBJ}\s+(?:do\s+not|does\s+not|don{A}t|doesn{A}t)\s+(?:really\s+)?(?P<verb>like|enjoy|love)\s+(?P<obj>[a-z][\w'’-]*)"
    r"(?P<rest>(?:\s+(?!(?:and|but|because|so|when|it|that|with|to|for|on|in|at|i|you|my)\b)[a-z][\w'’-]*){0,2})",
    "like enjoy love",
)
def activity(raw: str) -> str:
    """The canonical pastime: lower case, single spaces."""
    return " ".join(raw.lower().split())


def hobbies(ctx: Ctx) -> Iterator[CandidateFact]:
    """Hobby facts of one part."""
    if not plain(ctx):
        return
    for m, s in matches(ctx, _QUIT):
        act = activity(m.group("act"))
        yield fact(ctx, s, f"{s} {predicate(m, s) or f'quit {act}'}", "hobbies", act, polarity="negative",
                   valid_from=past_date(ctx, m), confidence=0.85)
    for m, s in matches(ctx, _NOT_ANYMORE):
        act = activity(m.group("act"))
        verb = m.group(0)[: m.start("act") - m.start()].split()[-1].lower()
        yield fact(ctx, s, f"{s} does not {verb} {act} anymore", "hobbies", act, polarity="negative",
                   confidence=0.8)
    for m in openings(ctx, _NO_MORE, anywhere=True) if ctx.turn.speaker else ():
        act, who = activity(m.group("act")), ctx.turn.speaker or ""
        yield fact(ctx, who, f"no more {act} for {who}", "hobbies", act, polarity="negative",
                   valid_from=past_date(ctx, m), confidence=0.75)
    for m, s in matches(ctx, _NOT_ANYMORE_VERB):
        if (gerund := HABITS.get(m.group("verb"))) is not None:
            yield fact(ctx, s, f"{s} does not {m.group('verb')} anymore", "hobbies", gerund, polarity="negative",
                       confidence=0.8)
    if ctx.part.negated:
        return
    for m, s in matches(ctx, _TOOK_UP, we=True) + matches(ctx, _JOINED):
        act = activity(m.group("act"))
        how = re.search(r"\b(started|began|took up|taken up|picked up|got into|getting into|joined|signed up for|enrolled in"
                        r"|taking|took)\b", m.group(0))
        said = how.group(1) if how else "took up"
        said = {"began": "took up", "picked up": "took up", "taken up": "has taken up", "getting into": "is getting into",
                "taking": "is taking",
                "took": "took"}.get(said, said)
        grouped = said in {"joined", "signed up for", "enrolled in", "is taking", "took"}
        what = f"a {act} {_group_word(m.group(0))}" if grouped else act
        yield fact(ctx, s, f"{s} {said} {what}", "hobbies", act, valid_from=past_date(ctx, m), confidence=0.85)
    if ctx.part.past_habit:
        return
    doing = [(m, s) for m, s in matches(ctx, _DOING) if m.group("perfect") or _HABITUAL.search(ctx.text)]
    found = matches(ctx, _DOES, we=True) + doing + matches(ctx, _INTO)
    for m, s in matches(ctx, _HOBBY_IS, anywhere=True):
        noun = m.group("noun")
        for act in dict.fromkeys(activity(a.group(0)) for a in _LISTED.finditer(m.group("list"))):
            said = f"one of {possessive(s)} {noun}" if noun.endswith("s") else f"{possessive(s)} {noun}"
            yield fact(ctx, s, f"{act.capitalize()} is {said}", "hobbies", act, confidence=0.8)
    for m, s in found + matches(ctx, _IS_HOBBY, anywhere=True):
        act = activity(m.group("act"))
        said = predicate(m, s) if m.re is not _IS_HOBBY.pattern else None
        noun = m.groupdict().get("noun") or "hobby"
        statement = f"{s} {said}" if said else f"{act.capitalize()} is {possessive(s)} {noun}"
        yield fact(ctx, s, statement, "hobbies", act, confidence=0.8)
    for m, s in matches(ctx, _ENTHUSIAST):
        act = ENTHUSIASTS[" ".join(m.group("agent").lower().split())]
        yield fact(ctx, s, f"{s} is {m.group('desc')}", "hobbies", act, confidence=0.8)
    for m, s in matches(ctx, _HABIT):
        habit = m.group("verb").lower()
        third = f"{habit}es" if habit.endswith(("s", "sh", "ch", "x")) else f"{habit}s"
        tail = third_person_text(clean(_HABIT_CUT.split(m.string[m.end("verb") :])[0]), s)
        yield fact(ctx, s, f"{s} {third} {tail or ''}", "hobbies", HABITS[habit], confidence=0.75)
    for m, s in matches(ctx, _LOVE_TO):
        feel = m.group("feel") if m.group("feel").endswith("s") else f"{m.group('feel')}s"
        habit = m.group("verb").lower()
        yield fact(ctx, s, f"{s} {feel} to {habit}", "hobbies", HABITS[habit], confidence=0.75)
    for m, s in matches(ctx, _LEARNING_TO):
        habit = m.group("verb").lower()
        yield fact(ctx, s, f"{s} is {' '.join(m.group('said').split())} {habit}", "hobbies", HABITS[habit],
                   confidence=0.75)
    for m, s in matches(ctx, _TRAINING_FOR):
        race = " ".join(m.group("race").lower().replace("-", " ").split())
        pastime = "triathlons" if race == "triathlon" else "marathons"
        yield fact(ctx, s, f"{s} is training for {article(race)} {m.group('race')}", "hobbies", pastime,
                   confidence=0.75)
    for m, s in matches(ctx, _LOVES):
        yield from _loves(ctx, m, s)


_RACE = r"(?:marathons?|races?|5k|10k|half|miles?|laps?|trails?|track|course|lot|bit|few)\b"
_RUNNING_SOMETHING = re.compile(
    rf"running\s+(?:my|our|his|her|their|a|an|the|this)\s+(?!{_RACE})(?!\w+\s+{_RACE})", re.IGNORECASE
)
"""Running with an object that is no race ("running my own café", "running a business")."""
_SHOWN: Final = re.compile(
    rf"(?i:{PASTIMES})\s+(?:shows?|movies?|films?|videos?|documentar(?:y|ies)|series|programs?|programmes?|books?"
    r"|magazines?|podcasts?|channels?|matches|tournaments?|competitions?)\b",
)
"""A pastime followed by what shows it: "cooking shows", "boxing matches on TV" are watched
or read, which says a taste, not that one does the pastime."""


def _group_word(text: str) -> str:
    found = re.search(r"\b(class|classes|club|team|group|lessons|course|league|session|sessions|workshop|studio|crew)\b",
                      text)
    return found.group(1) if found else "class"


def _loves(ctx: Ctx, m: re.Match[str], s: str) -> Iterator[CandidateFact]:
    verb, obj, rest = m.group("verb"), m.group("obj"), m.group("rest")
    third = verb if verb.endswith("s") else {"love": "loves", "enjoy": "enjoys", "like": "likes", "adore": "adores"}[verb]
    phrase = clean(f"{obj}{rest}")
    if obj.lower() in NOT_OBJECTS or has_unresolved(phrase) or not phrase:
        return
    listed = re.fullmatch(rf"(?:playing\s+|doing\s+)?{_ACT}.*", phrase)
    if listed is not None and _RUNNING_SOMETHING.match(m.string, m.start("obj")):
        return  # "I enjoy running my own café": a business run, not the sport
    if listed is not None and _SHOWN.match(phrase):
        # "I love cooking shows", "… kung fu movies": a taste for what shows the pastime
        if (said := third_person_text(phrase, s)) is not None:
            yield fact(ctx, s, f"{s} {third} {said}", "likes", phrase, confidence=0.7)
        return
    if listed is not None:
        also = re.search(rf"\s+and\s+(?:playing\s+|doing\s+)?{_ACT}\s*$", phrase)
        for act in dict.fromkeys([activity(listed.group("act"))] + ([activity(also.group("act"))] if also else [])):
            yield fact(ctx, s, f"{s} {third} {phrase}", "hobbies", act, confidence=0.8)
    elif obj.endswith("ing") and obj.lower() not in NOT_HOBBY_GERUNDS and len(phrase.split()) >= 2:
        if (said := third_person_text(phrase, s)) is not None:
            yield fact(ctx, s, f"{s} {third} {said}", "hobbies", phrase, confidence=0.7)
    elif not obj.endswith(("ing", "ed")) and len(obj) > 2 and obj.lower() not in _NOT_NOUNS:
        if (said := third_person_text(phrase, s)) is not None:
            yield fact(ctx, s, f"{s} {third} {said}", "likes", phrase, confidence=0.7)


_NOT_NOUNS = frozenset(
    """makes gets has goes does says feels looks seems keeps helps gives takes brings comes being
    reading watching seeing hearing knowing spending working learning going doing making having
    hanging getting sharing creating exploring chatting playing hearing""".split()
)


_DANGLING = frozenset(
    """safe good great better best positive new big real true strong happy healthy inclusive welcoming loving
    supportive more most other same whole own sure""".split()
)
"""Adjectives that end a phrase only when the noun after them was cut off ("creating a safe, …")."""


_NOW_TAIL = re.compile(
    r"\s+(?:lately|recently|these\s+days|nowadays|at\s+the\s+moment|right\s+now)[\s,.!?;:]*$", re.IGNORECASE
)
"""When, after what one is into ("I'm into birdwatching lately"): not part of it."""


def tastes(ctx: Ctx) -> Iterator[CandidateFact]:
    """Dislikes, and likes said in the negative ("I don't like crowds")."""
    if not plain(ctx):
        return
    for m, s in matches(ctx, _NOT_LIKE):
        phrase = clean(f"{m.group('obj')}{m.group('rest')}")
        if m.group("obj").lower() not in NOT_OBJECTS and phrase and not has_unresolved(phrase):
            if not m.group("obj").endswith("ing") and (said := third_person_text(phrase, s)) is not None:
                yield fact(ctx, s, f"{s} does not {m.group('verb')} {said}", "likes", phrase, polarity="negative",
                           confidence=0.7)
    if ctx.part.negated:
        return
    for m, s in matches(ctx, _FAN):
        obj = clean(_NOW_TAIL.sub("", m.group("obj")))
        if obj and obj.split()[-1].lower() in _DANGLING:
            continue
        if obj and not has_unresolved(obj) and obj.lower() not in NOT_OBJECTS:
            told = re.sub(r"\s+", " ", m.group(0)[m.end("subj") - m.start() :]).strip()
            told = re.sub(rf"^(?:{A}m|{A}s|{A}re|am|is|are)\s+", "is ", told)
            if (stated := third_person_text(told, s)) is not None and not PASTIME_ONLY.fullmatch(obj):
                yield fact(ctx, s, f"{s} {stated}", "likes", obj, confidence=0.75)
    for m, s in matches(ctx, _FAVOURITE, anywhere=True):
        obj = clean(m.group("obj"))
        if obj and not has_unresolved(obj) and (said := third_person_text(obj, s)) is not None:
            yield fact(ctx, s, f"{possessive(s)} favourite {m.group('cat')} is {said}", "likes", said, confidence=0.75)
    for m, s in matches(ctx, _LOVES_NAME):
        obj, verb = clean(m.group("obj")), m.group("verb")
        if obj and obj.split()[0] not in NOT_NAMES and obj not in ctx.persons and not _is_person(ctx, m):
            third = verb if verb.endswith(("s", "ed")) else f"{verb}s"
            yield fact(ctx, s, f"{s} {third} {obj}", "likes", obj, confidence=0.7)
    for m, s in matches(ctx, _HATES):
        phrase = clean(f"{m.group('obj')}{m.group('rest')}")
        verb = m.group("verb")
        third = verb if verb.endswith("s") else "cannot stand" if "stand" in verb else f"{verb}s"
        if m.group("obj").lower() not in NOT_OBJECTS and phrase and not has_unresolved(phrase):
            if (said := third_person_text(phrase, s)) is not None:
                yield fact(ctx, s, f"{s} {third} {said}", "dislikes", phrase, confidence=0.7)


def _is_person(ctx: Ctx, m: re.Match[str]) -> bool:
    start = ctx.part.start + m.start("obj")
    return any(
        sig.kind is SignalKind.PERSON and sig.start <= start < sig.end for sig in ctx.turn.signals
    )
