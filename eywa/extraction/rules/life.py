"""Education and health, with their change forms.

Education values are the field of study when the turn names one ("urban planning"), else
the institution ("Halloway University"), else the degree ("master's"): "I enrolled in a
master's in urban planning at Halloway University" gives both the field and the
institution; "I graduated from Ferrow College", "I finished my nursing degree" and "I'm done
with my master's" are positive and dated; "I dropped out of X" is negative.

Health: "I'm allergic to cats" (value "cats allergy"), "I was diagnosed with asthma", "I
broke my wrist" (value "broken wrist"), "I hurt my knee" (value "knee injury"), "I have
asthma", "I'm asthmatic" (a condition by its adjective: value "asthma"); "I've recovered from
X" is X, negative.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from eywa.attributes.forms import participle, same_word
from eywa.extraction.lexicon import (
    BODY_PARTS,
    CONDITION_NAMES,
    CONDITIONS,
    DEGREES,
    INSTITUTION_HEADS,
    LANGUAGES,
    PROPER,
)
from eywa.extraction.rules.clause import (
    A,
    ADV,
    BE,
    HAVE,
    SUBJ,
    Ctx,
    Rule,
    asserts,
    lasting,
    matches,
    past_date,
    plain,
    rule,
)
from eywa.extraction.rules.lists import list_members
from eywa.extraction.rules.phrasing import clean, fact, possessive
from eywa.models import CandidateFact

_FIELD = (
    r"(?P<field>(?!(?:at|from|in|with|on|for|to|hard|late|tonight|today|all|home|abroad)\b)[a-z][a-z-]+"
    r"(?:\s+(?!at\b|from\b|in\b|and\b|with\b|this\b|next\b|last\b|on\b)[a-z][a-z-]+){0,2})"
)
"""A field of study, lower-case, up to three words; never a preposition or a word of when or how
("I'm studying at the library", "studying hard", "studying tonight" name no field)."""
_SCHOOL = rf"(?P<school>(?:the\s+)?(?:{PROPER}\s+)?{INSTITUTION_HEADS}(?:\s+of\s+{PROPER})?|{PROPER}\s+{INSTITUTION_HEADS})"
_DEGREE = rf"(?:(?:part-time|full-time|online|two-year|one-year|four-year)\s+)?(?P<degree>(?i:{DEGREES}))"
"""Any case: "PhD", "MBA" as people write them."""
_NAMED_SCHOOL = rf"(?P<school>{_SCHOOL[len('(?P<school>'):-1]}|{PROPER})"
"""An institution named alone ("Harvard", "Leeds"), where the verb says it is one."""
_SCHOOL_END = r"(?=\s*(?:[.!;,]|$|\s+(?:last|this|in|on|with|and|back|two|three|a\s+few|years?|after|before|when)\b))"
_PROGRAMME = (
    rf"(?:(?:a|an|my|the|her|his)\s+)?(?:(?P<pre>[a-z]+)\s+(?={DEGREES}))?{_DEGREE}"
    rf"(?:\s+(?:in|on)\s+{_FIELD})?(?:\s+(?:at|from)\s+(?P<school>{_SCHOOL[len('(?P<school>'):-1]}|{PROPER}{_SCHOOL_END}))?"
)
"""A degree, its field and its school: "a PhD at MIT" names the school alone, as "a degree
from MIT" does (the degree says what follows "at" is one)."""
_STARTED = rule(
    rf"{SUBJ}(?:{HAVE}|{BE})?\s+{ADV}(?P<verb>enrolled\s+in|enrolled\s+on|started|began|starting|doing|studying\s+for"
    rf"|working\s+on|signed\s+up\s+for|applied\s+for|got\s+into)\s+{_PROGRAMME}",
    DEGREES,
)
_FINISHED = rule(
    rf"{SUBJ}(?:{HAVE}|{BE})?\s+{ADV}(?P<verb>finished|completed|got|earned|received|(?:{BE}\s+)?done\s+with)\s+{_PROGRAMME}",
    DEGREES,
)
_GRADUATED = (
    rule(rf"{SUBJ}(?:{HAVE})?\s+{ADV}graduated\s+from\s+{_NAMED_SCHOOL}{_SCHOOL_END}", "graduated"),
    rule(rf"{SUBJ}(?:{HAVE})?\s+{ADV}graduated\s+with\s+{_PROGRAMME}", "graduated"),
    rule(
        rf"{SUBJ}(?:{HAVE})?\s+{ADV}graduated\s+in\s+{_FIELD}(?=\s*(?:[.,!;]|$|\s+(?:at|from|last|this|in\s+\d)))",
        "graduated",
    ),
)
_STUDIES = rule(
    rf"{SUBJ}(?:{BE}|{HAVE}\s+been)?\s+{ADV}(?:study|studies|studying|majoring\s+in|major\s+in)\s+{_FIELD}"
    rf"(?:\s+at\s+{_NAMED_SCHOOL})?(?=\s*(?:[.,!;]|$|\s+(?:at|and|now|this|next|because|so|part-time"
    r"|full-time)\b))",
    "study studies studying majoring major",
)
""""I'm studying law at Leeds": the field, and the place named alone (where "studying … at"
says it is a school, as "studied … at" does)."""
_STUDIED_AT = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}studied\s+{_FIELD}\s+at\s+{_NAMED_SCHOOL}{_SCHOOL_END}", "studied"
)
""""I studied law at Leeds": the past tense counts only with the place ("I studied all night"
is no education)."""
_STUDENT_AT = (
    rule(rf"{SUBJ}{BE}\s+{ADV}(?:a\s+)?(?:[a-z]+\s+)?student\s+at\s+{_SCHOOL}", "student"),
    # "I'm a student at Oxford": a place named alone, where "student at" says it is a school.
    rule(rf"{SUBJ}{BE}\s+{ADV}(?:a\s+)?(?:[a-z]+\s+)?student\s+at\s+{_NAMED_SCHOOL}{_SCHOOL_END}", "student"),
    # "I'm in my second year at Leeds Uni": a student there.
    rule(rf"{SUBJ}{BE}\s+{ADV}in\s+(?:my|his|her|our|their)\s+(?:first|second|third|fourth|final|last)\s+year"
         rf"\s+(?:at|of)\s+{_SCHOOL}", "year"),  # a school by its name only ("at Initech" may be a job)
    # "I'm a sophomore at Leeds University", "I'm studying at Leeds University": a student there
    # (by the school's name only: "a senior at Globex" is a job).
    rule(rf"{SUBJ}{BE}\s+{ADV}(?:a|an)\s+(?:freshman|sophomore|junior|senior|undergrad(?:uate)?|postgrad(?:uate)?"
         rf"|first-year|second-year|third-year|final-year)\s+at\s+{_SCHOOL}",
         "freshman sophomore junior senior undergrad undergraduate postgrad postgraduate year"),
    rule(rf"{SUBJ}(?:{BE}|{HAVE}\s+been)?\s+{ADV}(?:studying|study|studies)\s+at\s+{_SCHOOL}", "study studies studying"),
)
_HAS_DEGREE = rule(
    rf"{SUBJ}\s+{ADV}(?:have|has|hold|holds|{A}ve\s+got|have\s+got)\s+{_PROGRAMME}"
    r"(?=\s*(?:[.!;,]|$|\s+(?:and|but|so|too|as\s+well|now|already)\b))",
    DEGREES,
)
""""I have a degree in physics", "I hold an MBA": a degree one has."""
_DEGREE_FROM = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:got|earned|received|finished|completed)\s+(?:a|an|my|the)\s+{_DEGREE}"
    rf"(?:\s+(?:in|on)\s+{_FIELD})?\s+(?:from|at)\s+{_NAMED_SCHOOL}{_SCHOOL_END}",
    DEGREES,
)
""""I got my PhD from MIT": a school named alone, where "degree from" says it is one (a
``_PROGRAMME`` takes only a name with an institution word, "Ferrow College")."""
_LANGUAGE = rule(
    rf"{SUBJ}(?:{BE}|{HAVE}\s+been)?\s+{ADV}(?:learning|studying|learn|learns|started\s+learning|taking)\s+"
    rf"(?P<lang>(?i:{LANGUAGES}))\b(?!\s+(?:food|music|movies?|films?|friends?|people|guy|girl|man|woman)\b)",
    LANGUAGES,
)
_ATTENDS = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:(?:goes|go)\s+to|(?:study|studies)\s+at|attends|attend|enrolled\s+(?:at|in))\s+"
    rf"{_SCHOOL}{_SCHOOL_END}",
    "goes go study studies attends attend enrolled",
)
""""Leo goes to Hillview Academy", "I study at Leeds University", "my daughter attends Oak
School", "I enrolled at Oakwood College": the school, named with what it is (not "goes to
Starbucks")."""
_STARTED_SCHOOL = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:started|began|just\s+started)\s+(?P<level>college|university|uni|grad\s+school"
    rf"|law\s+school|med(?:ical)?\s+school|high\s+school|kindergarten|preschool|school)\s+(?:at|in)\s+{_NAMED_SCHOOL}"
    rf"{_SCHOOL_END}",
    "started began",
)
""""My son Leo started college at MIT", "I began grad school at Leeds": the school, named alone
where the words before say it is one (not "I'm starting college at MIT", still ahead)."""
_DROPPED = rule(rf"{SUBJ}(?:{HAVE})?\s+{ADV}dropped\s+out\s+(?:of\s+)?{_PROGRAMME}", "dropped")

_DROPPED_SCHOOL = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}dropped\s+out\s+of\s+(?P<what>(?:high|grad|law|medical|med|art|film)\s+school|college"
    r"|university|uni|school)\b",
    "dropped",
)
_IN_SCHOOL = rule(
    rf"{SUBJ}{BE}\s+{ADV}(?:still\s+)?in\s+(?:(?:my|his|her|their)\s+(?P<year>first|second|third|fourth|fifth|final|last)"
    r"\s+year\s+of\s+)?(?P<what>(?:law|med|medical|grad|graduate|nursing|dental|vet|veterinary|business|art|film|drama)"
    r"\s+school)\b(?!\s+(?:for|to|with|today|tonight)\b)",
    "school",
)
""""I'm in law school", "I'm in my second year of med school": studies under way, the school by its
kind (as "I dropped out of law school" ends them); not "I'm in law school for the open day"."""
_ALLERGIC = rule(
    rf"{SUBJ}{BE}\s+{ADV}(?:(?:very|severely|super|so|really|mildly)\s+)?allergic\s+to\s+"
    r"(?P<what>[a-z]+(?:\s+(?!and\b|but\b|so\b)[a-z]+)?)",
    "allergic",
)
_HAVING = rule(rf"{SUBJ}(?:\s+{ADV}(?:have|has)|{HAVE}\s+got|\s+have\s+got)\s+", "allergy allergies")
_ALLERGY_OF = re.compile(
    r"(?:a\s+|an\s+)?(?:(?:severe|mild|bad|slight|serious|terrible|really\s+bad)\s+)?(?P<what>[a-z]+)[\s-]+allerg(?:y|ies)\b"
)
""""I have a cat allergy", "I've got a bad peanut allergy": the allergy to what is said before it
(value "cat allergy", as "I'm allergic to cats" is "cats allergy"); not "a lot of allergies". It
may stand anywhere in the list of what the subject has ("I have a dog named Rex and a cat
allergy", ``lists``)."""
_NOT_ALLERGENS = frozenset("lot few many some any no the my his her their our seasonal food bad severe mild".split())
"""Words before "allergy" that say how much or how bad, not what of ("seasonal", "food": a kind
of allergy, no thing it is to)."""
_INTOLERANT = rule(
    rf"{SUBJ}{BE}\s+{ADV}(?:(?:very|severely|super|so|really|mildly|a\s+bit)\s+)?(?P<what>lactose|gluten)[\s-]intolerant\b",
    "intolerant",
)
""""I'm lactose intolerant", "I'm gluten intolerant": a condition (``lactose intolerance``), as an
allergy is one."""
_CONDITION_ADJECTIVE = Rule(
    rf"{SUBJ}{BE}\s+{ADV}(?P<a>(?:a|an)\s+)?(?:(?P<type>type\s+[12])\s+)?(?P<what>[a-z]+)"
    r"(?=\s*(?:[.!?,;]|$)|\s+(?:and|but|so|too|now|myself|since|as\s+well|though)\b)",
    frozenset({"am", "is", "are", "m", "s", "re"}),
)
""""I'm diabetic", "I'm asthmatic", "Eva is epileptic", "I'm a type 1 diabetic" (diabetes): the condition an
adjective of it names (``_condition_named``), where the adjective ends what is said of the
subject ("I'm a diabetic nurse" is a job). Gated on the verb (every such part has one) and, in
``health``, on a word of the part that names a condition, which is the cheap test."""
_ADJECTIVE_ENDINGS = ("ic", "iac")
"""The endings of the adjectives that name a condition ("asthmatic", "insomniac"); a mood's
adjective is another ("I'm depressed about it" is no diagnosis)."""
_DIAGNOSED = rule(
    rf"{SUBJ}\s+(?:was|got|{HAVE}\s+been|{A}ve\s+been)\s+{ADV}diagnosed\s+with\s+(?:a\s+|an\s+)?"
    r"(?P<what>(?:[a-z][a-z'’-]+|[A-Z]{2,5}\b)(?:\s+(?:[a-z][a-z'’-]+|\d)){0,3}?)"
    r"(?=\s*(?:[.,!;]|$|\s+(?:last|this|in|on|a|two|after|as|when|at|back|years?|recently|earlier)\b))",
    "diagnosed",
)
""""I was diagnosed with asthma (last year, as a kid, when I was twelve, at 30, back in 2019, years
ago, recently)": the condition, whatever says when after it."""
_INJURED = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?P<verb>broke|fractured|sprained|injured|hurt|twisted|dislocated|tore)\s+"
    rf"(?P<poss>my|his|her)\s+(?P<part>{BODY_PARTS})\b",
    "broke fractured sprained injured hurt twisted dislocated tore",
)
_HAS_CONDITION = rule(
    rf"{SUBJ}\s+{ADV}(?:have|has|suffer\s+from|suffers\s+from|{BE}\s+dealing\s+with|{HAVE}\s+been\s+dealing\s+with)\s+"
    rf"(?P<what>{CONDITIONS})\b",
    CONDITIONS,
)
_HAD_SINCE = rule(
    rf"{SUBJ}(?:{A}ve|{A}s|\s+{ADV}(?:have|has))\s+{ADV}had\s+(?P<what>{CONDITIONS})\b",
    "had",
)
""""I've had asthma since I was a kid", "… for years", "… all my life": the condition, still,
when what follows says how long (``lasting``, as a present perfect's state is read elsewhere;
not "I've had the flu twice this winter", something had and gone)."""
_RECOVERED = rule(
    rf"{SUBJ}(?:{HAVE}|{BE})?\s+{ADV}(?:fully\s+)?(?:recovered|healed)\s+from\s+(?:(?:my|the|his|her)\s+)?"
    rf"(?P<what>(?:{BODY_PARTS})\s+(?:injury|surgery)|{CONDITIONS})\b",
    "recovered healed",
)
_OVER = rule(
    rf"{SUBJ}{BE}\s+{ADV}(?:finally\s+|completely\s+|fully\s+)?(?:over|rid\s+of)\s+(?:(?:my|the|this|that)\s+)?"
    rf"(?P<what>{CONDITIONS})\b",
    "over rid",
)
""""I'm over the flu (now)", "I'm finally rid of my migraines": recovered, as "I've recovered
from the flu" is."""
_BROKEN = {verb: participle(verb) for verb in ("broke", "fractured", "sprained", "dislocated", "tore", "twisted")}
"""The verbs of an injury that name its value by their participle ("broken wrist"; the others
are "… injury"), from the table the reader knows them by too (``eywa.attributes.forms``)."""


def education(ctx: Ctx) -> Iterator[CandidateFact]:
    """Education facts of one part."""
    if not plain(ctx):
        return
    for m, s in matches(ctx, _DROPPED):
        for value in _values(m):
            yield fact(ctx, s, f"{s} dropped out of {_phrase(m, s)}", "education", value, polarity="negative",
                       valid_from=past_date(ctx, m), confidence=0.8)
    for m, s in matches(ctx, _DROPPED_SCHOOL):
        what = " ".join(m.group("what").lower().split())
        yield fact(ctx, s, f"{s} dropped out of {what}", "education", what, polarity="negative",
                   valid_from=past_date(ctx, m), confidence=0.8)
    if ctx.part.negated:
        return
    for m, s in matches(ctx, _STARTED):
        if m.group("verb").startswith("applied"):
            continue
        upcoming = m.group("verb") == "starting"
        for value in _values(m):
            verb = "is starting" if upcoming else "is doing" if m.group("verb") in {"doing", "working on"} else (
                "enrolled in" if m.group("verb").startswith("enrolled") else "started")
            yield fact(ctx, s, f"{s} {verb} {_phrase(m, s)}", "education", value,
                       valid_from=None if upcoming else past_date(ctx, m), confidence=0.8)
    for m, s in matches(ctx, _DEGREE_FROM) or matches(ctx, _FINISHED):
        for value in _values(m):
            yield fact(ctx, s, f"{s} finished {_phrase(m, s)}", "education", value, valid_from=past_date(ctx, m),
                       confidence=0.85)
    for m, s in [hit for pattern in _GRADUATED for hit in matches(ctx, pattern)]:
        for value in _values(m):
            where = f" from {clean(m.group('school'))}" if m.groupdict().get("school") else f" in {value}"
            yield fact(ctx, s, f"{s} graduated{where}", "education", value, valid_from=past_date(ctx, m),
                       confidence=0.85)
    for m, s in matches(ctx, _STUDIED_AT):
        for value in _values(m):
            yield fact(ctx, s, f"{s} studied {clean(m.group('field'))} at {clean(m.group('school'))}", "education",
                       value, valid_from=past_date(ctx, m), confidence=0.8)
    for m, s in matches(ctx, _LANGUAGE):
        language = " ".join(w.capitalize() if w not in {"asl"} else w.upper() for w in m.group("lang").lower().split())
        yield fact(ctx, s, f"{s} is learning {language}", "education", language, confidence=0.8)
    if not asserts(ctx):
        return
    for m, s in matches(ctx, _HAS_DEGREE):
        if not (m.group("field") or m.group("school")):
            continue  # "I have a degree" says little; "a gift certificate" is none
        for value in _values(m):
            yield fact(ctx, s, f"{s} has {_phrase(m, s)}", "education", value, confidence=0.8)
    for m, s in matches(ctx, _STARTED_SCHOOL):
        if school := _school(m):
            level = " ".join(m.group("level").split())
            yield fact(ctx, s, f"{s} started {level} at {school}", "education", school, valid_from=past_date(ctx, m),
                       confidence=0.8)
    for m, s in matches(ctx, _IN_SCHOOL):
        what = " ".join(m.group("what").lower().split())
        year = f"{possessive(s)} {m.group('year')} year of " if m.group("year") else ""
        yield fact(ctx, s, f"{s} is in {year}{what}", "education", what, confidence=0.8)
    for m, s in matches(ctx, _ATTENDS):
        if school := _school(m):
            yield fact(ctx, s, f"{s} is a student at {school}", "education", school, confidence=0.8)
    students = next((found for pattern in _STUDENT_AT if (found := matches(ctx, pattern))), [])
    for m, s in matches(ctx, _STUDIES) + students:
        for value in _values(m):
            yield fact(ctx, s, f"{s} studies {value}" if value != _school(m) else f"{s} is a student at {value}",
                       "education", value, confidence=0.8)


def _school(m: re.Match[str]) -> str | None:
    raw = m.groupdict().get("school")
    return clean(raw) if raw else None


def _values(m: re.Match[str]) -> list[str]:
    """Field and institution when named; the degree itself only when neither is."""
    groups = m.groupdict()
    field = clean(groups["field"]) if groups.get("field") else (groups.get("pre") or "")
    if field in {"my", "a", "the", "new", "first", "second", "online", "part-time"}:
        field = ""
    values = [v for v in (field, _school(m)) if v]
    if not values and groups.get("degree"):
        values = [groups["degree"].lower().replace("masters", "master's").replace("bachelors", "bachelor's")]
    return values


def _phrase(m: re.Match[str], s: str) -> str:
    """The programme as said, in the third person ("Ines's master's in urban planning")."""
    start = m.start("degree") if m.groupdict().get("degree") else m.start("school")
    if m.groupdict().get("pre") and m.start("pre") >= 0:
        start = m.start("pre")
    said = clean(m.string[start : m.end()])
    return f"{possessive(s)} {said}" if re.search(r"\b(?:my|her|his)\s+$", m.string[: start]) else f"a {said}"


def _condition(raw: str) -> str:
    """A condition as the health value: an acronym in lower case as the lexicon spells it ("ADHD"
    and "adhd" are one condition)."""
    what = clean(raw)
    return what.lower() if what.isupper() else what


@functools.lru_cache(maxsize=2048)
def _condition_named(adjective: str) -> str | None:
    """The condition of the lexicon an adjective names, or None: one whose name's first word is
    another form of the adjective ("diabetic" → "diabetes", "asthmatic" → "asthma", "celiac" →
    "celiac disease"; ``eywa.attributes.forms``), for an adjective of a condition's ending
    (``_ADJECTIVE_ENDINGS``). Pure."""
    if not adjective.endswith(_ADJECTIVE_ENDINGS):
        return None
    return next((n for n in CONDITION_NAMES if n != adjective and same_word(adjective, n.split()[0])), None)


def _conditions_by_adjective(ctx: Ctx) -> Iterator[CandidateFact]:
    """"I'm diabetic", "I'm a type 1 diabetic": the condition (``_CONDITION_ADJECTIVE``)."""
    if not any(_condition_named(w) for w in ctx.part.words):
        return
    for m, s in matches(ctx, _CONDITION_ADJECTIVE):
        what = m.group("what").lower()
        if (condition := _condition_named(what)) is None:
            continue
        # "a type 1 diabetic": diabetes, the kind said in the statement only (the value with
        # it, "type 1 diabetes", is not what Level 0 read the number of: "1 diabetic").
        kind = " ".join(m.group("type").lower().split()) if m.group("type") else ""
        said = " ".join(w for w in ("a" if m.group("a") else "", kind, what) if w)
        yield fact(ctx, s, f"{s} is {said}", "health", condition, confidence=0.8)


def health(ctx: Ctx) -> Iterator[CandidateFact]:
    """Health facts of one part. A diagnosis or a condition had since long ago is still had when
    the part speaks of then ("I was diagnosed with asthma as a kid", "I've had asthma since I was
    a kid"): the long-ago dates its start, not a habit now over, as it does for the rest."""
    p = ctx.part
    if p.hedged or p.hypothetical:
        return
    if not p.negated:
        for m, s in matches(ctx, _DIAGNOSED):
            what = _condition(m.group("what"))
            yield fact(ctx, s, f"{s} was diagnosed with {what}", "health", what, valid_from=past_date(ctx, m),
                       confidence=0.85)
        for m, s in matches(ctx, _HAD_SINCE):
            if not lasting(ctx, m.end(), right_after=True):
                continue
            what = _condition(m.group("what"))
            yield fact(ctx, s, f"{s} has {what}", "health", what, confidence=0.8)
    if p.past_habit:
        return
    for m, s in matches(ctx, _RECOVERED) + matches(ctx, _OVER):
        what = _condition(m.group("what"))
        yield fact(ctx, s, f"{s} recovered from {what}", "health", what, polarity="negative",
                   valid_from=past_date(ctx, m), confidence=0.8)
    if ctx.part.negated:
        return
    for m, s in matches(ctx, _ALLERGIC):
        what = clean(m.group("what"))
        if what and what not in {"it", "that", "them", "this"}:
            yield fact(ctx, s, f"{s} is allergic to {what}", "health", f"{what} allergy", confidence=0.85)
    for m, s in matches(ctx, _HAVING):
        for allergy in list_members(ctx.text, m.end(), _ALLERGY_OF):
            what = allergy.group("what").lower()
            if what not in _NOT_ALLERGENS:
                yield fact(ctx, s, f"{s} has a {what} allergy", "health", f"{what} allergy", confidence=0.85)
    for m, s in matches(ctx, _INTOLERANT):
        what = m.group("what").lower()
        yield fact(ctx, s, f"{s} is {what} intolerant", "health", f"{what} intolerance", confidence=0.85)
    yield from _conditions_by_adjective(ctx)
    for m, s in matches(ctx, _INJURED):
        verb, part = m.group("verb"), m.group("part")
        value = f"{_BROKEN[verb]} {part}" if verb in _BROKEN else f"{part} injury"
        yield fact(ctx, s, f"{s} {verb} {possessive(s)} {part}", "health", value, valid_from=past_date(ctx, m),
                   confidence=0.8)
    if asserts(ctx):
        for m, s in matches(ctx, _HAS_CONDITION):
            what = _condition(m.group("what"))
            yield fact(ctx, s, f"{s} has {what}", "health", what, confidence=0.8)
