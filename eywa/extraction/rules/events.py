"""Events: what the speaker did, dated as precisely as the turn allows.

An event is a first-person past action that opens a main clause ("I …", "we …", "I've
…"). Its date comes from a date signal of the same part ("I went to a street festival last
Saturday", said on 2023-08-14 → "… on 12 August 2023", ``valid_from`` 2023-08-12); "just"
or "recently" put it shortly before the turn, and so does the present perfect of a change
("I've adopted a cat", news); otherwise the turn only bounds it ("before 14 August 2023"),
which is still what a "when did…" question needs. The experiential perfect ("I've lived in
Paris", "I've visited Rome twice": ``clause.experiential``) is such an undated past: it
happened at some time before the turn, not shortly before it.

The phrase is the verb and its object, cut at the first conjunction or comma, in the third
person. Verbs of thought and speech ("thought", "told") are not events; a phrase that leans
on "it", "that", "there" or another pronoun is not made, since the rules cannot say what it
points at; "had a great time" says nothing that happened.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from eywa.extraction.lexicon import IRREGULAR_PAST, NOT_EVENT_VERBS
from eywa.extraction.rules.clause import A, I, NAME, Ctx, experiential, lasting, starts_clause
from eywa.extraction.rules.phrasing import date_phrase, fact, has_unresolved, possessive, third_person_text
from eywa.models import CandidateFact

PASSIVE = (
    "drafted hired promoted accepted invited selected chosen awarded nominated featured elected admitted born "
    "married engaged fired mentored interviewed offered recognized recognised honored honoured signed scouted "
    "published named crowned"
).split()
"""Participles that, after "I was", report something that happened to the speaker."""
_EVENT = re.compile(
    rf"(?P<subj>(?:(?:{NAME}|(?i:my|our)\s+[a-z]+)\s+and\s+)?{I}|(?<![\w'’])[Ww]e)(?P<perfect>{A}ve|\s+have)?\s+"
    r"(?:(?P<just>just|recently)\s+|finally\s+|also\s+|actually\s+|even\s+|already\s+)*"
    r"(?:(?P<passive>was|were|got)\s+(?=(?:" + "|".join(PASSIVE) + r")\b))?(?P<verb>[a-z]+)\b"
)
_ELIDED = re.compile(
    r"^(?:(?P<just>Just|Recently)\s+|(?:Also|Finally|Then|And|So)\s+)?(?P<verb>[A-Z][a-z]+)\b(?=\s+[a-z])"
)
"""A clause that drops its "I" ("Took a quick trip to Rome last week")."""
_PARTICIPLES = {
    "gone": "went", "taken": "took", "done": "did", "begun": "began", "written": "wrote", "given": "gave",
    "seen": "saw", "eaten": "ate", "driven": "drove", "flown": "flew", "ridden": "rode", "sung": "sang",
    "swum": "swam", "grown": "grew", "drawn": "drew", "chosen": "chose", "spoken": "spoke", "fallen": "fell",
    "won": "won", "made": "made", "bought": "bought", "found": "found", "built": "built", "sold": "sold",
    "spent": "spent", "met": "met", "run": "ran", "become": "became", "started": "started",
}  # fmt: skip
_BEEN_TO = re.compile(r"\s+to\s+(?!(?:be|do|get|go|see|say|try|make|have)\b)")
""""been to" a place or an occasion ("I've been to Japan", "… to a concert"), not a verb's
infinitive ("I've been to see the doctor" is left to the purpose cut)."""
_INTRANSITIVE = frozenset("graduated retired eloped resigned proposed emigrated".split())
_VAGUE = re.compile(
    r"^(?:had|got|made|did|took)\s+(?:a|an|such\s+a|some)\s+(?:\w+\s+)?(?:great|good|blast|amazing|wonderful|fun|nice"
    r"|awesome|wicked|crazy|lovely|fantastic|tough|hard|rough|busy|long|day|time|chance|lot|break|rest|nap)"
    r"(?:\s+(?:time|day|week|one|out))?$|^(?:got|made|did|had)\s+(?:it|this|that|one)\b|^(?:got|had)\s+(?:to|so)\b"
    r"|^(?:got|had)\s+(?:the|a|an)\s+(?:chance|opportunity|idea|feeling)\b|^(?:had|got)\s+(?:a|an)\s+(?:\w+\s+)?experience$"
    r"|^made\s+sure\b|^had\s+(?:a\s+lot|much|nothing|something|lots)\b"
    r"|^got\s+(?:some\s+)?(?:great|good|big|exciting|amazing|awesome|bad|sad)?\s*news\b"
    r"|^had\s+(?:a\s+ton\s+of|lots\s+of|so\s+much|tons\s+of)\s+fun$"
    r"|^took\s+(?:some|a\s+lot\s+of|a|so\s+much|lots\s+of|a\s+bit\s+of)?\s*(?:time|trial|effort|while|work|courage"
    r"|patience|guts|practice|getting\s+used)\b"
)
_CUT = re.compile(
    r"[,;:(!?]|\s+[-–—]+\s+|-\s|\s+(?:and|but|because|so|which|when|while|where|since|as|to\s+see|who|that|until"
    r"|after|before|if|though|although)\s+"
    r"|\s+to\s+(?=(?:help|make|show|stay|keep|get|give|raise|see|feel|teach|celebrate|support|learn|find|cover|try|be"
    r"|do|clear|bring|spread|explore|build|create|share|relax|unwind|take|have|meet|connect|improve|practice|practise"
    r"|prepare|honor|honour|remember|reach|collect|pick|check|visit|fix|finish|start|win|earn|save|buy|sell|test"
    r"|gain|boost|promote|inspire|encourage|welcome|thank|say|tell|ask|talk|chat|hear|watch|enjoy|escape|deal)\b)"
)
_BINOMIAL = re.compile(
    r"\b(?:trial[ -]and[ -]error|pros[ -]and[ -]cons|ups[ -]and[ -]downs|rock[ -]and[ -]roll|bread[ -]and[ -]butter"
    r"|arts[ -]and[ -]crafts|mac[ -]and[ -]cheese|fish[ -]and[ -]chips|salt[ -]and[ -]pepper|black[ -]and[ -]white)\b",
    re.I,
)
"""Fixed pairs that a cut at "and" must not split ("trial and error")."""
_TAIL = re.compile(
    r"\b(?:on|in|at|during|this|last|over|the|from|for|about|around|roughly|nearly|almost|a|an|my|recently|too|also"
    r"|afterwards?|the\s+other\s+day|at\s+first|a\s+while\s+back|lately|like|just\s+for\s+fun|together|as\s+well"
    r"|with|to|of|by|into|through|middle|high)\s*$"
)
_UNDATED_TIME = re.compile(
    r"\s*\b(?:this|last|that)\s+(?:past\s+)?(?:spring|summer|autumn|fall|winter|season|weekend|morning|afternoon|evening)\b"
)
"""A time Level 0 does not place ("this spring", "last summer"): said in the statement, not part
of what was done (the value read "moved to Lisbon a summer")."""
_BEFORE = re.compile(r"\s+before\s*[.!?]*\s*$")
"""A closing "before" of the experiential perfect ("… visited Rome before")."""
_FILLER = frozenset(
    """up through together off hard alright well out some back around along on in over down away a an the too fine
    great good better best lot bit ton little really so very much more all with for to into get got at of""".split()
)
"""Words that do not say what happened: an event needs at least one word outside them."""


_ELIDED_VERBS = frozenset(
    """went took got made had saw met bought lost found spent tried watched baked cooked picked booked played won
    finished completed launched opened published released built created painted wrote ran hosted organized organised
    attended visited joined adopted started graduated retired signed submitted received celebrated competed performed
    volunteered donated raised taught travelled traveled moved quit broke hurt injured passed earned landed pitched
    recorded designed sold planted climbed hiked""".split()
)
"""Verbs that may open a clause without their "I" ("Took a trip to Rome"); others read as imperatives."""


def _event_verb(m: re.Match[str]) -> str | None:
    """The simple past of the match's verb when it names an action, else None."""
    verb = m.group("verb").lower()
    if m.re is _ELIDED and verb not in _ELIDED_VERBS:
        return None
    if m.groupdict().get("passive"):
        return f"{m.group('passive')} {verb}"
    if m.groupdict().get("perfect"):
        if verb == "been" and _BEEN_TO.match(m.string, m.end("verb")):
            return "went"  # "I've been to Japan": went there, at some time before the turn
        if verb not in _PARTICIPLES and not verb.endswith("ed"):
            return None
        verb = _PARTICIPLES.get(verb, verb)
    if verb in NOT_EVENT_VERBS or verb.endswith("eed") or not (verb.endswith("ed") or verb in IRREGULAR_PAST):
        return None
    return verb


def events(ctx: Ctx) -> Iterator[CandidateFact]:
    """A first-person past action of one part, dated by the part, by "just" or by the turn."""
    p = ctx.part
    if p.negated or p.hedged or p.hypothetical or p.past_habit or not ctx.turn.speaker:
        return
    text, base = ctx.text, p.start
    for m in [*_EVENT.finditer(text), _ELIDED.match(text)]:
        if m is None:
            continue
        verb = _event_verb(m)
        if verb is not None and starts_clause(text[: m.start()]):
            break
    else:
        return
    start = m.end("verb")
    if m.groupdict().get("perfect") and lasting(ctx, start):
        return  # "I have worked at Google since 2015", "I've lived in Leeds for ten years": a state that holds

    tail = _BINOMIAL.sub(lambda b: b.group(0).replace(" ", "-"), text[start:])
    cut = _CUT.search(tail)
    end = start + (cut.start() if cut is not None else len(tail))
    date = next(
        (d for d in ctx.dates if d.window_start is not None and d.window_start <= ctx.turn.observed_at
         and d.granularity in ("day", "week", "month", "year")
         and (d.end - base <= m.start() or start <= d.start - base < end)),
        None,
    )
    if any(d.window_start is not None and d.window_start > ctx.turn.observed_at and start <= d.start - base < end
           for d in ctx.dates):
        return
    if verb == "got" and re.match(r"(?:\s+[\w'’-]+){1,6}?\s+going\b", tail):  # "got new offers going": started
        return
    rest = tail[: end - start]
    if m.groupdict().get("perfect"):
        rest = _BEFORE.sub("", rest)  # "I've visited Rome before": an experience, the turn bounds it
    if date is not None and start <= date.start - base < end:
        rest = rest[: date.start - base - start] + " " + rest[date.end - base - start :]
    rest = _BINOMIAL.sub(lambda b: b.group(0).replace("-", " "), rest)
    season = _UNDATED_TIME.search(rest)
    rest = _UNDATED_TIME.sub("", rest)
    rest = re.sub(r"\bthis\s+(?=[a-z]{3})", "a ", re.sub(r"\bthese\s+(?=[a-z]{3})", "some ", rest))
    rest = re.sub(r"\ba\s+(?=[aeiou])", "an ", rest)
    rest = " ".join(rest.replace('"', " ").replace("“", " ").replace("”", " ").split()).strip(" .!?-–—")
    while (shorter := _TAIL.sub("", rest).strip()) != rest:
        rest = shorter
    words = rest.split()
    if (not words and verb not in _INTRANSITIVE) or len(words) > 12 or has_unresolved(rest):
        return
    if words and all(w.lower() in _FILLER or len(w) < 3 for w in words):
        return
    if re.search(r"\b(?:how|what|why|who|whom|whose|which|whatever)\b", rest, re.IGNORECASE):
        return
    if re.search(r"\b(?:another|one|ones)(?:\s+(?:at|in|on|from|of|for|with|to|by)\b|$)", rest):
        return
    if re.search(r"\b(?:ago|back|then|before|now|yet|again|earlier|lately|today|yesterday|tonight)$", rest):
        return
    what = third_person_text(f"{verb} {rest}".strip(), ctx.turn.speaker)
    if what is None or _VAGUE.match(what):
        return
    said_when = f"{what} {' '.join(season.group(0).split())}" if season is not None else what
    s = ctx.turn.speaker
    who = _who(ctx, m, s)
    if date is not None and date.window_start is not None:
        yield fact(ctx, s, f"{who} {said_when} {date_phrase(date.window_start, date.granularity, date.window_end)}", "events", what,
                   valid_from=date.window_start, confidence=0.7)
        return
    said = ctx.turn.observed_at
    # "Just", "recently", or the news of a change in the perfect ("I've adopted a cat"):
    # lately. The experiential perfect ("I've lived in Paris", "I've visited Rome twice")
    # happened at some time before the turn, which is all the turn bounds.
    recent = m.groupdict().get("perfect") and not experiential(ctx, m.group("verb"), start)
    when = "shortly before" if m.group("just") or recent else "before"
    yield fact(ctx, s, f"{who} {said_when} {when} {said.day} {said:%B} {said.year}", "events", what, confidence=0.65)


def _who(ctx: Ctx, m: re.Match[str], speaker: str) -> str:
    """The statement's subject: the speaker, "<speaker> and <Name>" or "<speaker> and others"."""
    subj = m.groupdict().get("subj") or "I"
    if subj in ("we", "We"):
        return f"{speaker} and others"
    if (subj.endswith(" I") or subj.startswith("I and ")) and subj != "I":
        name = subj[len("I and ") :].strip() if subj.startswith("I and ") else subj[: -len(" and I")].strip()
        if name.split()[0].lower() in ("my", "our"):
            return f"{speaker} and {possessive(speaker)} {' '.join(name.split()[1:])}"
        return f"{speaker} and {ctx.persons.get(name, name)}"
    return speaker
