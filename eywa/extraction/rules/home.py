"""Residence and origin, with moves; and possessions (a home's other contents).

"I live in X", "we're based in X" and "I moved to X" say where someone lives (residence X,
positive; a move dates it with ``valid_from``). "We moved out of X", "I moved away from X"
and the first half of "I moved from X to Y" say where they no longer live (residence X,
negative). "I'm moving to X" is a plan, not a residence. "I'm from X", "I grew up in X" and
"my hometown, X" name the origin. "We" counts as the speaker here: a household moves
together.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from eywa.extraction.lexicon import CAR_MAKES, NOT_NAMES, POSSESSIONS, PROPER
from eywa.extraction.rules.clause import (
    A,
    ADV,
    AND_THEN,
    BE,
    CALLED,
    CESSATION_TAIL,
    FOR_A_WHILE,
    HAVE,
    NAME,
    SUBJ,
    UNTIL_A_DATE,
    WHEN_LEFT,
    Ctx,
    asserts,
    future_date,
    lasting,
    matches,
    past_date,
    plain,
    openings,
    rule,
    stated_start,
    tells_an_end,
)
from eywa.extraction.rules.phrasing import article, clean, ended_at, fact, possessive
from eywa.models import CandidateFact

_PLACE = rf"(?:the\s+)?(?P<place>{PROPER})(?![\w'’])"
_OLD = rf"(?:the\s+)?(?P<old>{PROPER})(?![\w'’])"

_LIVED_UNTIL = rule(
    rf"{SUBJ}\s+{ADV}lived\s+in\s+{_PLACE}{UNTIL_A_DATE}",
    "until till",
)
""""I lived in Leeds until last year", "we lived in Leeds for ten years until 2023": the home
of then, left at that date (a past tense with its end; "until" with no date of the past, "until
I was ten", "until midnight", ends nothing here)."""
_USED_TO_LIVE = rule(rf"{SUBJ}\s+{ADV}used\s+to\s+live\s+in\s+{_PLACE}", "used")
""""I used to live in Leeds": the home of a past, left (the validator reads "used to" as its end;
when is not said)."""
_LIVED_THEN_MOVED = rule(rf"{SUBJ}\s+{ADV}lived\s+in\s+{_PLACE}{FOR_A_WHILE}{AND_THEN}(?:moved|relocated)\b", "then")
""""I lived in Leeds (for years), then moved to York": the home of then, left by the move (the
move itself is read as its own part, ``clause.second_part``)."""
_WITH = rf"(?:with\s+(?:(?:my|our)\s+[a-z]+(?:\s+[a-z]+)?(?:,?\s+{NAME},?)?|{NAME}(?:\s+and\s+{NAME})?|us|me|them)\s+)?"
""""with my partner Sam", "with my two kids", "with Tom", "with us": whom one lives with,
between "live" and where ("My mom moved in with us in Lisbon")."""
_A_KIND_OF_HOME = (
    r"(?:a|an|the)\s+(?:[a-z-]+\s+){0,2}?(?:town|village|city|suburb|neighbou?rhood|area|apartment|flat|house|condo"
    r"|cabin|farm|place|part)"
)
_KIND_OF_HOME = rf"(?:(?:in|on)\s+{_A_KIND_OF_HOME}\s+(?=(?:in|near|outside|just|close)\b))?"
"""What kind of home, before the town it is in: "I live in a small town in Ohio", "we live on a
farm outside Austin" (where one lives is the place named after it)."""
_LIVES = rule(
    rf"{SUBJ}(?:{BE}|{HAVE}\s+been|{HAVE})?\s+{ADV}(?:live|lives|living|based|residing|reside|resides"
    rf"|(?:settled|settling)(?:\s+in)?(?:\s+(?:really\s+|so\s+|pretty\s+)?(?:nicely|well|fine|okay|ok|quickly))?)\s+"
    rf"{_WITH}(?:here\s+)?{_KIND_OF_HOME}(?P<where>in|in\s+the\s+suburbs\s+of|(?:just\s+)?(?:outside(?:\s+of)?|near|close\s+to))"
    rf"\s+{CALLED}{_PLACE}",
    "live lives living based residing reside resides settled settling",
)
_CALLED_HOME = rule(rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:called|call|calls)\s+{_PLACE}\s+home\b", "call calls called")
""""I've called Lisbon home for six years", "We call Porto home": where one lives."""
_HOME_IS = rule(
    r"(?:[Hh]ome\s+is\s+(?:the\s+)?(?P<place>" + PROPER + r")|(?:the\s+)?(?P<named>" + PROPER
    + r")\s+is\s+(?:my\s+|our\s+)?(?:new\s+)?home)\s+(?:now|these\s+days)\b"
    r"|(?:the\s+)?(?P<subj>" + PROPER + r")\s+has\s+been\s+(?:my|our)\s+home(?=\s+(?:since|for)\b)",
    "home",
)
""""Home is Lisbon now", "Lisbon is home now", "Lisbon has been my home since 2019": the
speaker's residence; only with "now" or how long ("Lisbon will always be home" is a feeling,
not where one lives). In the last, the place is the subject of the present perfect whose
start ``stated_start`` reads, hence its group's name."""
_HAS_LIVED = rule(rf"{SUBJ}{HAVE}\s+{ADV}lived\s+(?:here\s+)?in\s+{_PLACE}", "lived")
""""I've lived in Leeds for ten years": one still does (not "I lived in Leeds", a past), and
since when (``stated_start``: ten years before the turn). Only with how long (``lasting``):
"I've lived in Paris" alone is once, not now."""
_BACK_FOR_GOOD = rule(rf"{SUBJ}{BE}\s+{ADV}back\s+(?:home\s+)?in\s+{_PLACE}\s+for\s+good\b", "good")
""""I'm back in Porto for good": home again (back in a place alone may be a visit). Not "I've
been in Porto for two years": "in" a capitalised name for years may be a group, a team or a
department ("in AA", "in Marketing")."""
_IN_NOW = rule(
    rf"(?:(?P<first>(?i:now|these\s+days|nowadays)),?\s+)?"
    rf"{SUBJ}{BE}\s+(?:(?P<now>now)\s+)?{ADV}(?P<back>back\s+)?in\s+{_PLACE}"
    r"(?(first)|(?(now)|\s+(?:now|these\s+days|nowadays)\b))"
    r"(?!,?\s+(?:for|until|till|visiting|to\s+visit|on\s+(?:a|the)\s+(?:trip|visit|holiday|vacation|business))\b)",
    "now days nowadays",
)
""""We're in Denver now" (or "Now we're in Denver"): home, when the turn tells of a move
("Finally moved out of Austin, we're in Denver now", ``_MOVE_TALK``: also "I used to live in
Austin but now I'm in Denver") or the place is already the speaker's residence; alone
it may be where one is today ("I'm in Denver now, the flight was fine"). Back there now ("I'm
back in Boston now") is a return, home again, unless it says a visit ("… for the weekend",
"…, visiting my parents"). "These days" and "nowadays" say a stretch of life, not a day: "I'm
in York these days" is home with no move told (``_HABITUAL``)."""
_HABITUAL = re.compile(r"\s(?:these\s+days|nowadays)$")
_MOVE_TALK = re.compile(
    r"\b(?:moved|move|moving|relocated|relocating|unpacking|unpacked|settled|used\s+to\s+live|lived\s+in"
    r"|new\s+(?:place|flat|apartment|house|home|city|town))\b",
    re.IGNORECASE,
)
_A_HOME = (
    r"(?:a|an|our|my|the|their|his|her)\s+(?:(?:new|little|first|own|tiny|lovely|rented|dream)\s+)*"
    r"(?:place|flat|apartment|house|home|condo|studio|bungalow|cottage)"
)
_NEW_HOME = rf"into\s+{_A_HOME}\s+in"
"""A home moved into before where it is ("into our new place in Leeds")."""
_MOVED = rule(
    rf"{SUBJ}(?:{HAVE}|{BE})?\s+{ADV}(?:moved|relocated|made\s+the\s+move)\s+(?:(?:away\s+)?from\s+{_OLD}\s+)?"
    rf"(?:back\s+home\s+|home\s+|back\s+|over\s+|here,?\s+|all\s+the\s+way\s+)?(?:to|into|in\s+{_WITH}(?:together\s+)?(?:in|to)|{_NEW_HOME})\s+"
    rf"(?:{_A_KIND_OF_HOME}\s+in\s+|the\s+suburbs\s+of\s+)?{CALLED}{_PLACE}",
    "moved relocated move",
)
""""I moved to Braga", "we moved back to Porto", "we made the move to Porto", whom one moved in with before where: "I
moved in with my boyfriend in Braga", "we moved in together in Leeds", and the home moved into: "we moved into our
new place in Leeds", "we moved to a small town in Vermont", "… into a house in the suburbs of Denver"."""
_MOVED_HERE = rule(rf"{SUBJ}(?:{HAVE}|{BE})?\s+{ADV}(?:moved|relocated)\s+here\b(?!,?\s+(?:to|into)\s+(?:the\s+)?[A-Z])", "moved relocated")
_GREETING_FROM = re.compile(
    rf"\b(?:[Hh]ello|[Hh]i|[Hh]ey|[Gg]reetings|[Gg]ood\s+(?:morning|evening))\s+from\s+(?:sunny\s+|rainy\s+|snowy\s+)?"
    rf"(?:the\s+)?(?P<place>{PROPER})(?![\w'’])"
)
""""Hello from Berlin! We finally moved here last week.": "here" is the place the turn greets
from, earlier in the same turn; a "here" with no such place names none."""
_SETTLING_INTO = rule(rf"{SUBJ}(?:{HAVE}|{BE})?\s+{ADV}(?:settling|settled)\s+{_NEW_HOME}\s+{CALLED}{_PLACE}", "settling settled")
""""We're settling into our new apartment in Austin": a home in the place, lived in now."""
_RENTS = rule(
    rf"{SUBJ}(?:{BE})?\s+{ADV}(?:rent|rents|renting)\s+(?:{_A_HOME}\s+)?in\s+{CALLED}{_PLACE}"
    r"(?!\s+(?:for|over|this|next|during|until|till)\b)",
    "rent rents renting",
)
""""We're renting a flat in Glasgow", "I rent an apartment in Leeds", "we're renting in Lisbon now":
a home rented is lived in,
as "I live in" says. Not a stay ("renting a house in Tuscany for the summer", "… this
weekend"), nor "rented" (a past), nor a start ahead (``future_date``, as for "live")."""
_OWN_PLACE = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:got|found|have|has|{A}ve\s+got|have\s+got)\s+(?:my|our|his|her|their)\s+own\s+"
    rf"(?:place|flat|apartment|house|home)\s+(?:now\s+)?in\s+{CALLED}{_PLACE}(?!\s+(?:for|over|this|next|during|until|till)\b)",
    "own",
)
""""I got my own place in Leeds", "we have our own flat in Porto now": a home of one's own is
lived in (not "… for the summer")."""
_OUR_NEW_HOME = rule(
    r"(?P<subj>\b[Mm]y|\b[Oo]ur)\s+(?:(?:lovely|little|tiny|beautiful|first)\s+)*new\s+(?:(?:little|tiny|rented)\s+)?"
    rf"(?:place|flat|apartment|house|home|condo|bungalow|cottage)\s+in\s+{CALLED}{_PLACE}"
    r"(?!\s+(?:for|over|this|next|during|until|till|is\s+(?:for\s+sale|rented|let))\b)",
    "new",
)
""""Greetings from our new flat in Lisbon!", "We love our new house in Leeds": a new home of
one's own in the place is where one lives now (not "our new holiday home in Spain": only a
home's own words between "new" and where; not "… for the summer")."""
_BOUGHT_AND_MOVED_IN = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:bought|purchased|closed\s+on|rented|found)\s+{_A_HOME}\s+in\s+{CALLED}{_PLACE}"
    rf"\s+and\s+{ADV}(?:moved|settled)\s+(?:in|there|into\s+it)\b",
    "bought purchased closed rented found",
)
""""We bought a house in Austin and moved in": a home in the place since the move (a house
bought alone is no move: one may let it, or keep the old home)."""
_MOVED_OUT = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:moved|relocated)\s+(?:here\s+|over\s+)?(?:out\s+of|away\s+from|from)\s+{_OLD}(?!\s+to\b)",
    "moved relocated",
)
_NOT_LIVES = rule(
    rf"{SUBJ}\s+(?:do\s+not|does\s+not|don{A}t|doesn{A}t|no\s+longer)\s+(?:really\s+)?(?:live|lives)\s+in\s+{_PLACE}",
    "live lives",
)
_LEFT_AND_MOVED = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}left\s+{_OLD}{WHEN_LEFT}"
    rf"\s+(?:and|to)\s+(?:then\s+)?(?:move|moved|relocate|relocated)\b",
    "left",
)
""""I left Paris and moved to Rome": the place left is a home left (it read as an employer)."""
_LEFT_NAMED = rule(rf"{SUBJ}(?:{HAVE})?\s+{ADV}left\s+{_OLD}", "left")
""""We left Leeds (in May)", "Tom left Leeds": a home left when the earlier beliefs of whoever
left hold the place as their residence (``Ctx.holds``); "left" a place alone may be a trip's end."""
_MOVING = rule(
    rf"{SUBJ}(?:{BE}|\s+will\s+be|{A}ll\s+be)\s+{ADV}(?:moving|relocating)\s+(?:back\s+)?to\s+{_PLACE}", "moving relocating"
)
_FROM = rule(rf"{SUBJ}{BE}\s+{ADV}(?:originally\s+)?from\s+{_PLACE}", "from")
_GREW_UP = rule(
    rf"{SUBJ}\s+{ADV}(?:grew\s+up|was\s+born(?:\s+and\s+raised)?)\s+"
    rf"(?:(?:in|on)\s+{_A_KIND_OF_HOME}\s+(?:in|near|outside(?:\s+of)?|just\s+outside)\s+|in\s+){_PLACE}",
    "grew born",
)
""""I grew up in Kerala", "I was born and raised in Lima", and the kind of place before it: "I grew
up in a small village in Kerala", "on a farm outside Austin" (the origin is the place named)."""
_FROM_OPENING = rule(
    rf"^(?:[Oo]riginally\s+from|[Bb]orn\s+(?:and\s+(?:raised|bred)\s+)?in)\s+{_PLACE},\s+(?=(?:I|[Ww]e)\b)",
    "originally born",
)
""""Originally from Leeds, I moved to York last year", "Born and raised in Leeds, we …": a
phrase put before the "I" it describes, so the speaker's origin (only with the "I" or "we"
after it: "Originally from Leeds." alone may answer a question about someone else)."""
_HOMETOWN = rule(
    rf"(?P<subj>\b[Mm]y|{NAME}(?={A}s))(?:{A}s)?\s+(?:home\s*town|home\s+country|native\s+country)(?:\s+(?:is|of))?,?\s+"
    rf"{_PLACE}",
    "hometown home native",
)


_OWNS = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?P<verb>have|has|own|owns|bought|got|purchased|{A}ve\s+got|have\s+got)\s+(?:a|an|my|our)\s+"
    r"(?P<adj>(?:new|first|brand\s+new|used|old|second-hand|little|electric|vintage)\s+)?"
    rf"(?P<thing>{POSSESSIONS})\b(?!\s+(?:for|as\s+a\s+gift)\b)",
    POSSESSIONS,
)

_MODEL = (
    r"(?!(?:January|February|March|April|May|June|July|August|September|October|November|December|Monday|Tuesday"
    r"|Wednesday|Thursday|Friday|Saturday|Sunday|I)\b)(?:Model\s+[A-Z0-9]\b|[A-Z][A-Za-z]*[a-z0-9](?:-\d+)?\b|[A-Z]+-?\d+\b)"
)
"""A car's model after its make: "Civic", "F-150", "Model 3", "RAV4" (not a month or a day)."""
_OWNS_CAR = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?P<verb>have|has|own|owns|bought|got|purchased|drive|drives|{A}ve\s+got|have\s+got)\s+"
    rf"(?:a|an|my|our)\s+(?P<adj>(?:new|brand\s+new|used|old|second-hand|electric)\s+)?(?P<make>{CAR_MAKES})(?![\w'’-])"
    rf"(?:\s+(?P<model>{_MODEL}))?",
    "have has own owns bought got purchased drive drives ve",
)
""""I bought a Tesla", "I drive an old Volvo": the car is the make (possessions ``tesla``); said
with its model, the make and the model ("I drive a Honda Civic": ``honda civic``)."""
_TRADED = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:traded|swapped|exchanged)\s+(?:in\s+)?(?:my|our|the)\s+(?:old\s+)?(?:car|{CAR_MAKES})"
    rf"(?:\s+in)?\s+for\s+(?:a|an)\s+(?P<adj>(?:new|brand\s+new|used|electric)\s+)?(?P<make>{CAR_MAKES})(?![\w'’-])",
    "traded swapped exchanged",
)
""""I traded in my Toyota for a Tesla", "we swapped the car for a Volvo": the car got, as "I
bought a Tesla" (the one traded in is no cessation the validator reads: it stays held)."""
_SOLD = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?P<verb>sold|gave\s+away|got\s+rid\s+of)\s+(?:my|our|the)\s+"
    r"(?:(?:old|first|little|electric|vintage)\s+)?"
    rf"(?P<thing>{POSSESSIONS}|(?:{CAR_MAKES})(?=\s*(?:[.!?,;]|$)|\s+[A-Z]|\s+(?:last|this|yesterday|recently|to|and|for"
    r"|because|after|so|in|on|at|two|three|a|an|the)\b))\b(?![\w'’-])",
    "sold gave got",
)
""""I sold my car", "we got rid of our boat", "I sold my Honda" (a car by its make, as
``_OWNS_CAR`` has it), "we sold the Tesla", "we sold the house": the thing, negative (dated)."""
_HAS_NO = rule(
    rf"{SUBJ}\s+(?:do\s+not|does\s+not|don{A}t|doesn{A}t|no\s+longer)\s+(?:have|has|own|owns)\s+(?:a|an|my|our|any)\s+"
    rf"(?P<thing>{POSSESSIONS})\b(?!\s+(?:with|on|here|today|tonight|yet)\b)",
    "have has own owns",
)
""""I don't have a car anymore", "we no longer own a boat": the thing had, ended (not "I don't
have a car", never had, nor "I don't have my car with me anymore", "… a car yet", "… today")."""
_SOLD_MODEL = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?P<verb>sold|gave\s+away|got\s+rid\s+of)\s+(?:my|our|the)\s+(?:old\s+)?(?P<model>{_MODEL})",
    "sold gave got",
)
""""I sold my Civic": the car held by its make and model ("honda civic", ``Ctx.named``) whose
model it is; a model no car held names is left alone."""


def place_name(raw: str | None) -> str | None:
    """The place of a match, or None for a capitalised word that names none."""
    if raw is None:
        return None
    place = clean(re.sub(rf"{A}s$", "", raw))
    return None if not place or place.split()[0] in NOT_NAMES else place


def residence(ctx: Ctx) -> Iterator[CandidateFact]:
    """Residence and origin facts of one part."""
    yield from _used_to_live(ctx)
    if not plain(ctx):
        return
    for m, s in matches(ctx, _MOVED_OUT, we=True) + matches(ctx, _MOVED, we=True):
        if ctx.part.negated:
            break
        old = place_name(m.group("old"))
        if old is not None and ctx.holds(s, old, "employer"):
            continue  # "I moved from Globex to Initech": a job's move (``work._MOVED_ON``)
        if old is not None:
            yield fact(ctx, s, f"{s} moved away from {old}", "residence", old, polarity="negative",
                       valid_from=past_date(ctx, m), confidence=0.8)
        if "place" in m.groupdict() and (place := place_name(m.group("place"))):
            yield fact(ctx, s, f"{s} moved to {place}", "residence", place,
                       valid_from=past_date(ctx, m), confidence=0.85)
    for m, s in matches(ctx, _MOVED_HERE, we=True):
        greeting = _GREETING_FROM.search(ctx.turn.text, 0, ctx.part.start + m.start())
        if not ctx.part.negated and greeting is not None and (place := place_name(greeting.group("place"))):
            yield fact(ctx, s, f"{s} moved to {place}", "residence", place, valid_from=past_date(ctx, m),
                       confidence=0.8)
    for m, s in matches(ctx, _SETTLING_INTO, we=True) + matches(ctx, _BOUGHT_AND_MOVED_IN, we=True):
        if not ctx.part.negated and future_date(ctx) is None and (place := place_name(m.group("place"))):
            verb = "is settling" if "settling" in m.group(0) else "moved"
            yield fact(ctx, s, f"{s} {verb} into a new home in {place}", "residence", place,
                       valid_from=past_date(ctx, m), confidence=0.85)
    moved_from = matches(ctx, _LEFT_AND_MOVED, we=True)
    for m, s in moved_from:
        if (old := place_name(m.group("old"))) and not ctx.part.negated:
            yield fact(ctx, s, f"{s} moved away from {old}", "residence", old, polarity="negative",
                       valid_from=past_date(ctx, m), confidence=0.8)
    for m, s in [] if moved_from else matches(ctx, _LEFT_NAMED, we=True):
        old = place_name(m.group("old"))
        if old and ctx.holds(s, old, "residence") and not ctx.part.negated:
            yield fact(ctx, s, f"{s} moved away from {old}", "residence", old, polarity="negative",
                       valid_from=past_date(ctx, m), confidence=0.8)
    for m, s in matches(ctx, _LIVED_UNTIL, we=True):
        if ctx.part.negated or (place := place_name(m.group("place"))) is None:
            continue
        if (ended := ended_at(ctx, m)) is not None:
            yield fact(ctx, s, f"{s} lived in {place} until {ended[1]}", "residence", place, polarity="negative",
                       valid_from=ended[0], confidence=0.8)
    for m, s in matches(ctx, _LIVED_THEN_MOVED, we=True):
        if not ctx.part.negated and (place := place_name(m.group("place"))) is not None:
            yield fact(ctx, s, f"{s} lived in {place}, then moved", "residence", place, polarity="negative",
                       confidence=0.8)
    for m, s in matches(ctx, _NOT_LIVES, we=True):
        if place := place_name(m.group("place")):
            yield fact(ctx, s, f"{s} does not live in {place}", "residence", place, polarity="negative",
                       confidence=0.85)
    for m, s in matches(ctx, _MOVING, we=True):
        if not ctx.part.negated and (place := place_name(m.group("place"))):
            yield fact(ctx, s, f"{s} is moving to {place}", "plans", f"move to {place}",
                       modality="planned", confidence=0.7)
    if not asserts(ctx):
        return
    lived = [(m, s) for m, s in matches(ctx, _HAS_LIVED, we=True) if lasting(ctx, m.end(), right_after=True)]
    lived += matches(ctx, _CALLED_HOME, we=True) + matches(ctx, _BACK_FOR_GOOD, we=True) + matches(ctx, _RENTS, we=True)
    lived += matches(ctx, _OWN_PLACE, we=True) + matches(ctx, _OUR_NEW_HOME, we=True, anywhere=True)
    lived += [
        (m, s) for m, s in matches(ctx, _IN_NOW, we=True)
        if m.group("back") or _MOVE_TALK.search(ctx.turn.text) or _HABITUAL.search(m.group(0))
        or ctx.holds(s, place_name(m.group("place")) or "", "residence")
    ]
    yield from _home_is(ctx)
    for m, s in matches(ctx, _LIVES, we=True) + lived:
        if future_date(ctx) is not None:
            continue  # "I'm living in Porto next year", "we're settling in Porto in May": a plan
        if place := place_name(m.group("place")):
            where = " ".join((m.groupdict().get("where") or "in").split())
            yield fact(ctx, s, f"{s} lives {where} {place}", "residence", place, valid_from=stated_start(ctx, m),
                       confidence=0.9)
    for m, s in matches(ctx, _FROM) + matches(ctx, _GREW_UP) + matches(ctx, _HOMETOWN, anywhere=True):
        if place := place_name(m.group("place")):
            yield fact(ctx, s, f"{s} is from {place}", "origin", place, confidence=0.85)
    speaker = ctx.turn.speaker
    for m in openings(ctx, _FROM_OPENING) if not ctx.part.negated else ():
        if speaker and (place := place_name(m.group("place"))):
            yield fact(ctx, speaker, f"{speaker} is from {place}", "origin", place, confidence=0.8)


def _used_to_live(ctx: Ctx) -> Iterator[CandidateFact]:
    """"I used to live in Leeds": the one part about a past habit that says something of now,
    that the home of then was left (read before ``plain`` turns such parts away)."""
    if not tells_an_end(ctx):
        return
    for m, s in matches(ctx, _USED_TO_LIVE, we=True):
        if (place := place_name(m.group("place"))) is not None:
            yield fact(ctx, s, f"{s} used to live in {place}", "residence", place, polarity="negative", confidence=0.8)


def _home_is(ctx: Ctx) -> Iterator[CandidateFact]:
    """"Home is Lisbon now": the speaker's residence (``_HOME_IS``)."""
    speaker = ctx.turn.speaker
    if not speaker or ctx.part.negated:
        return
    for m in openings(ctx, _HOME_IS):
        if place := place_name(m.group("place") or m.group("named") or m.group("subj")):
            since = stated_start(ctx, m) if m.group("subj") else None
            yield fact(ctx, speaker, f"{speaker} lives in {place}", "residence", place, valid_from=since,
                       confidence=0.85)


def possessions(ctx: Ctx) -> Iterator[CandidateFact]:
    """Notable things someone owns ("I just bought a new car"), and those let go ("I sold my car")
    or not had ("I don't have a car anymore")."""
    if not plain(ctx):
        return
    for m, s in matches(ctx, _HAS_NO, we=True):
        if CESSATION_TAIL.search(ctx.text) or "longer" in m.group(0):  # not "I don't have a car": never had
            thing = m.group("thing")
            yield fact(ctx, s, f"{s} does not have {article(thing)} {thing} anymore", "possessions", thing,
                       polarity="negative", confidence=0.8)
    if not asserts(ctx):
        return
    for m, s in matches(ctx, _SOLD, we=True):
        thing, verb = m.group("thing"), " ".join(m.group("verb").split())
        yield fact(ctx, s, f"{s} {verb} {possessive(s)} {thing}", "possessions", thing, polarity="negative",
                   valid_from=past_date(ctx, m), confidence=0.8)
    for m, s in matches(ctx, _SOLD_MODEL, we=True):
        model, verb = " ".join(m.group("model").split()), " ".join(m.group("verb").split())
        held = [value for attribute, value in ctx.named.get(s.casefold(), {}).values()
                if attribute == "possessions" and f" {value.casefold()} ".find(f" {model.casefold()} ") > 0]
        for value in held[-1:]:  # the last car said of that model
            yield fact(ctx, s, f"{s} {verb} {possessive(s)} {model}", "possessions", value, polarity="negative",
                       valid_from=past_date(ctx, m), confidence=0.8)
    for m, s in matches(ctx, _OWNS, we=True):
        thing, verb = m.group("thing"), " ".join(m.group("verb").split())
        said = verb if verb in {"got", "bought", "purchased"} else "has"
        yield fact(ctx, s, f"{s} {said} a {m.group('adj') or ''}{thing}", "possessions", thing,
                   valid_from=past_date(ctx, m) if said not in {"has"} else None, confidence=0.8)
    for m, s in matches(ctx, _TRADED, we=True):
        make = " ".join(m.group("make").split())
        car = f"{m.group('adj') or ''}{make}"
        yield fact(ctx, s, f"{s} got {article(car)} {car}", "possessions", make, valid_from=past_date(ctx, m),
                   confidence=0.8)
    for m, s in matches(ctx, _OWNS_CAR, we=True):
        make, verb = " ".join(m.group("make").split()), " ".join(m.group("verb").split())
        make = f"{make} {' '.join(m.group('model').split())}" if m.group("model") else make
        said = verb if verb in {"got", "bought", "purchased"} else "drives" if verb.startswith("drive") else "has"
        car = f"{m.group('adj') or ''}{make}"
        yield fact(ctx, s, f"{s} {said} {article(car)} {car}", "possessions", make,
                   valid_from=past_date(ctx, m) if said in {"got", "bought", "purchased"} else None, confidence=0.8)
