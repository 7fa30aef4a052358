"""The offline rule-based extractor, the default when no LLM is configured.

It reads one turn at a time, clause by clause, and proposes a fact only when a clause
matches a narrow first-person pattern ("I work at Google" said by Caroline → "Caroline works
at Google.") or a third-person pattern around a person Level 0 recognised ("Melanie's kids
love painting"). Questions, quoted speech, hedged clauses, past-habit clauses ("used to",
"when I was a kid") and most negated clauses are skipped: a wrong belief is worse than a
missing one. It only ever cites the turn it read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime

from eywa.extraction.lexicon import (
    INSTRUMENTS_SPORTS,
    IRREGULAR_PAST,
    NOT_EVENT_VERBS,
    NOT_HOBBY_GERUNDS,
    NOT_JOB_MODIFIERS,
    NOT_OBJECTS,
    NUMBER_WORD,
    OCCUPATIONS,
    OUTDOOR_ACTIVITIES,
    PAST_CONTEXT,
    PET_ADJECTIVES,
    PETS,
    POSSESSIONS,
    PROPER,
)
from eywa.extraction.text import Clause, clauses, instruction_spans, mask
from eywa.models import CandidateFact, Evidence, Modality, Polarity, Signal, SignalKind

_I = r"(?<![\w'’])I"
_ADV = r"(?:(?:really|just|also|actually|absolutely|totally|now|currently|still|recently|finally|truly)\s+)*"
_NEG_WORDS = re.compile(r"\b(?:not|never|no|nobody|nothing|\w+n[’']t|cannot)\b", re.IGNORECASE)
_HEDGE_WORDS = re.compile(
    r"\b(?:might|may|maybe|perhaps|possibly|probably|if|would|could|should|wish|unless|whether|"
    r"guess|suppose|not\s+sure|i\s+think|i\s+thought|hope|hoping|wonder)\b|[’']d\b",
    re.IGNORECASE,
)
_PAST = re.compile(PAST_CONTEXT, re.IGNORECASE)
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”")
_TAIL = (
    r"(?P<rest>(?:\s+(?!(?:and|but|because|so|when|while|with|since|as|or|which|who|that|it|it's|it’s"
    r"|i|you|we|they|he|she|too|though|now|lately|sometimes|every|whenever|if)\b)[a-z0-9][\w'’&-]*){0,4})"
)
_PET_FOLLOW = (
    r"(?=\s*(?:[.,!?;:)]|$)|\s+(?:[A-Z]|is\b|was\b|has\b|had\b|and\b|who\b|named\b|called\b|loves\b|likes\b"
    r"|got\b|gets\b|just\b|always\b|never\b|really\b|does\b|did\b|will\b|can\b|too\b))"
)
_VP_STOP = re.compile(r"\s+(?:so|because|and|but|which|who|while|when|since|as|if|or|though|although)\b.*$")
_PRONOUNS = {"my": "their", "me": "them", "myself": "themselves", "mine": "theirs", "i": "they", "our": "their"}
_THIRD = {"love": "loves", "like": "likes", "enjoy": "enjoys", "adore": "adores", "hate": "hates",
          "dislike": "dislikes", "detest": "detests"}  # fmt: skip


@dataclass(frozen=True)
class _Ctx:
    """What every rule needs about the clause it reads."""

    turn: Evidence
    clause: Clause
    subject: str
    negated: bool
    hedged: bool
    past: bool
    dates: tuple[Signal, ...]


def _third_person_pronouns(text: str) -> str:
    return re.sub(
        r"\b(my|me|myself|mine|our|I)\b", lambda m: _PRONOUNS[m.group(1).lower()], text
    )


def _clean(value: str) -> str:
    value = re.sub(r"\s+", " ", value).strip(" ,;:-'’.!?")
    return re.sub(r"\s+(?:the|a|an|of|and|&|to|in|at|on|for|into|with|about|from|by|my|your)$", "", value).strip()


def _sentence(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip(" .!?,;")
    return text[:1].upper() + text[1:] + "."


class RuleExtractor:
    """Deterministic, offline pattern extractor over turns and their signals."""

    name = "rules"

    def propose(self, space: str, evidence: Sequence[Evidence]) -> Iterable[CandidateFact]:
        """Candidate facts for each turn, each citing only that turn."""
        for turn in evidence:
            if turn.space != space:
                continue
            seen: set[tuple[str, str | None, str | None]] = set()
            for fact in self._turn(turn):
                key = (fact.subject.casefold(), fact.attribute, (fact.value or "").casefold())
                if key not in seen:
                    seen.add(key)
                    yield fact

    def _turn(self, turn: Evidence) -> Iterator[CandidateFact]:
        text = mask(turn.text, [(m.start(), m.end()) for m in _QUOTED.finditer(turn.text)])
        text = mask(text, instruction_spans(text))
        for clause in clauses(text):
            if clause.is_question or len(clause.text) > 400:
                continue
            inside = [s for s in turn.signals if clause.start <= s.start < clause.end]
            has_signals = bool(turn.signals)
            negated = (
                any(s.kind is SignalKind.NEGATION for s in inside) if has_signals else False
            ) or bool(_NEG_WORDS.search(clause.text))
            hedged = (
                any(s.kind is SignalKind.HEDGE for s in inside) if has_signals else False
            ) or bool(_HEDGE_WORDS.search(clause.text))
            ctx_dates = tuple(s for s in inside if s.kind is SignalKind.DATE and s.window_start is not None)
            past = bool(_PAST.search(clause.text))
            if turn.speaker:
                ctx = _Ctx(turn, clause, turn.speaker, negated, hedged, past, ctx_dates)
                yield from _first_person(ctx)
            for person in {s.normalized or s.text: s for s in inside if s.kind is SignalKind.PERSON}.values():
                ctx = _Ctx(turn, clause, person.normalized or person.text, negated, hedged, past, ctx_dates)
                yield from _third_person(ctx, person)


def _fact(
    ctx: _Ctx,
    statement: str,
    attribute: str,
    value: str,
    *,
    polarity: Polarity = "positive",
    modality: Modality = "asserted",
    valid_from: datetime | None = None,
    confidence: float = 0.8,
) -> CandidateFact:
    return CandidateFact(
        statement=_sentence(statement),
        subject=ctx.subject,
        attribute=attribute,
        value=_clean(value),
        polarity=polarity,
        modality=modality,
        valid_from=valid_from,
        evidence_ids=(ctx.turn.id,),
        confidence=confidence,
    )


def _first_person(ctx: _Ctx) -> Iterator[CandidateFact]:
    c, s = ctx.clause.text, ctx.subject
    if ctx.hedged:
        m = re.search(rf"{_I}\s+(?:might|may)\s+(?P<vp>(?!not\b|have\b|be\b)[a-z]+(?:\s+[\w'’-]+){{0,7}})", c)
        if m and not ctx.negated:
            vp = _third_person_pronouns(_clean(_VP_STOP.sub("", m.group("vp"))))
            yield _fact(ctx, f"{s} might {vp}", "plans", vp, modality="hedged", confidence=0.6)
        return
    if ctx.negated:
        yield from _negated_first_person(ctx)
        return
    yield from _plans(ctx)
    if not ctx.past:
        yield from _states(ctx)
    yield from _events(ctx)


def _states(ctx: _Ctx) -> Iterator[CandidateFact]:
    c, s = ctx.clause.text, ctx.subject
    if m := re.search(rf"{_I}(?:[’']m|\s+am)?\s+{_ADV}(?:work|working|employed)\s+(?:as\s+an?\s+[a-z ]+?\s+)?(?:at|for|by)\s+(?P<org>{PROPER})", c):
        org = _clean(m.group("org"))
        if org not in {"I", "The"}:
            yield _fact(ctx, f"{s} works at {org}", "employer", org, confidence=0.9)
    if m := re.search(rf"{_I}\s+{_ADV}(?:got\s+a\s+(?:new\s+)?job|started\s+(?:a\s+new\s+job|working))\s+(?:at|for)\s+(?P<org>{PROPER})", c):
        org = _clean(m.group("org"))
        yield _fact(ctx, f"{s} works at {org}", "employer", org, valid_from=_first_date(ctx), confidence=0.85)
    if m := re.search(rf"{_I}(?:[’']m|\s+am)\s+{_ADV}(?:working\s+as\s+)?an?\s+(?P<mods>(?:[a-z-]+\s+){{0,2}}?)(?P<job>[a-z]+)(?:\s+(?P<worker>worker|officer|agent|assistant))?\b", c):
        mods = m.group("mods").split()
        job = m.group("job") + (f" {m.group('worker')}" if m.group("worker") else "")
        if m.group("job") in OCCUPATIONS and not NOT_JOB_MODIFIERS.intersection(mods) and (m.group("job") != "social" or m.group("worker")):
            title = " ".join([*mods, job])
            article = "an" if title[0] in "aeiou" else "a"
            yield _fact(ctx, f"{s} is {article} {title}", "occupation", title, confidence=0.8)
    if m := re.search(rf"{_I}\s+{_ADV}work\s+as\s+an?\s+(?P<title>[a-z]+(?:\s+[a-z]+){{0,2}}?)(?=\s+(?:at|for|in|and)\b|[,.!]|$)", c):
        title = m.group("title")
        article = "an" if title[0] in "aeiou" else "a"
        yield _fact(ctx, f"{s} works as {article} {title}", "occupation", title, confidence=0.85)
    if m := re.search(rf"{_I}(?:[’']m|\s+am)?\s+{_ADV}(?:live|living|based|residing|reside)\s+in\s+(?P<place>{PROPER})", c):
        place = _clean(m.group("place"))
        yield _fact(ctx, f"{s} lives in {place}", "residence", place, confidence=0.9)
    if m := re.search(rf"{_I}\s+{_ADV}(?:moved|relocated)\s+(?:back\s+)?to\s+(?P<place>{PROPER})", c):
        place = _clean(m.group("place"))
        yield _fact(ctx, f"{s} moved to {place}", "residence", place, valid_from=_first_date(ctx), confidence=0.85)
    if m := re.search(rf"{_I}(?:[’']m|\s+am)\s+{_ADV}(?:originally\s+)?from\s+(?P<place>{PROPER})", c):
        place = _clean(m.group("place"))
        yield _fact(ctx, f"{s} is from {place}", "origin", place, confidence=0.85)
    if m := re.search(rf"{_I}(?:[’']m|\s+am|[’']ve\s+been|\s+have\s+been)\s+{_ADV}(?:happily\s+)?(?P<st>married|engaged|divorced|widowed|separated|single(?!\s+(?:parent|mom|mother|dad|father)))\b", c):
        yield _fact(ctx, f"{s} is {m.group('st')}", "relationship_status", m.group("st"), confidence=0.9)
    if m := re.search(rf"{_I}\s+{_ADV}got\s+(?P<st>married|engaged|divorced)\b", c):
        st = m.group("st")
        yield _fact(ctx, f"{s} got {st}", "relationship_status", st, valid_from=_first_date(ctx), confidence=0.85)
    if m := re.search(r"\b(?i:my)\s+(?P<role>husband|wife)(?:,?\s+(?P<name>[A-Z][a-z]+))?\b", c):
        yield _fact(ctx, f"{s} has a {m.group('role')}", "relationship_status", "married", confidence=0.75)
        if m.group("name"):
            yield _fact(ctx, f"{s}'s {m.group('role')} is {m.group('name')}", "partner", m.group("name"))
    if m := re.search(rf"{_I}\s+(?:have|[’']ve\s+got|have\s+got)\s+(?P<n>{NUMBER_WORD})\s+(?P<kind>kids?|children|child|sons?|daughters?|twins)\b", c):
        yield _fact(ctx, f"{s} has {m.group('n')} {m.group('kind')}", "children", f"{m.group('n')} {m.group('kind')}", confidence=0.9)
    elif m := re.search(r"\b(?i:my)\s+(?P<kind>kids|children|son|daughter|sons|daughters|twins)\b(?:,?\s+(?P<name>[A-Z][a-z]+))?", c):
        kind, name = m.group("kind"), m.group("name")
        if name:
            yield _fact(ctx, f"{s}'s {kind} is {name}", "children", f"{name} ({kind})", confidence=0.8)
        else:
            article = "a " if kind in {"son", "daughter"} else ""
            yield _fact(ctx, f"{s} has {article}{kind}", "children", kind, confidence=0.75)
    if not re.search(r"\b(?:died|passed|put\s+down|lost|miss|missed|rip|neighbou?r|friend)", c, re.IGNORECASE):
        if m := re.search(rf"{_I}\s+{_ADV}(?:have|[’']ve\s+got|have\s+got|own|adopted|got)\s+(?P<n>{NUMBER_WORD})\s+(?:{PET_ADJECTIVES})?(?P<pet>{PETS})\b{_PET_FOLLOW}(?:\s+named\s+(?P<name>[A-Z][a-z]+))?", c):
            pet, name, n = m.group("pet"), m.group("name"), m.group("n")
            if name:
                yield _fact(ctx, f"{s} has {n} {pet} named {name}", "pets", f"{pet} {name}", confidence=0.85)
            else:
                yield _fact(ctx, f"{s} has {n} {pet}", "pets", pet, confidence=0.85)
        elif m := re.search(rf"\b(?i:my)\s+(?:{PET_ADJECTIVES})?(?P<pet>{PETS})\b{_PET_FOLLOW}(?:,?\s+(?P<name>[A-Z][a-z]+))?", c):
            pet, name = m.group("pet"), m.group("name")
            if name:
                yield _fact(ctx, f"{s}'s {pet} is {name}", "pets", f"{pet} {name}", confidence=0.75)
            else:
                yield _fact(ctx, f"{s} has a {pet}", "pets", pet, confidence=0.7)
    if m := re.search(rf"{_I}\s+{_ADV}(?:have|own|bought|got|purchased)\s+(?:a|an|my)\s+(?P<adj>(?:new|first|brand\s+new|used|old|second-hand|little)\s+)?(?P<thing>{POSSESSIONS})\b", c):
        thing = m.group("thing")
        said = re.search(r"\b(have|own|bought|got|purchased)\b", m.group(0))
        verb = "has" if said is None or said.group(1) in {"have", "own"} else said.group(1)
        yield _fact(ctx, f"{s} {verb} a {m.group('adj') or ''}{thing}", "possessions", thing, confidence=0.8)
    yield from _tastes(ctx)


def _tastes(ctx: _Ctx) -> Iterator[CandidateFact]:
    c, s = ctx.clause.text, ctx.subject
    for hit in re.finditer(rf"{_I}\s+{_ADV}(?P<verb>love|enjoy|like|adore)\s+(?P<obj>[\w'’-]+){_TAIL}", c):
        verb, obj, rest = hit.group("verb"), hit.group("obj"), hit.group("rest")
        if obj.lower() in NOT_OBJECTS or obj.lower().startswith(("it", "that", "how")) or obj[:1].isupper():
            continue
        if re.search(r"\b(?:them|it|this|that|you|him|her)\b", rest):
            continue
        if obj.endswith("ing") and obj.lower() not in NOT_HOBBY_GERUNDS:
            value = _clean(f"{obj}{rest}")
            yield _fact(ctx, f"{s} {_THIRD[verb]} {_third_person_pronouns(value)}", "hobbies", value, confidence=0.75)
        elif not obj.endswith("ing") and len(obj) > 2:
            value = _clean(f"{obj}{rest}")
            if value.split()[0].lower() not in NOT_OBJECTS:
                yield _fact(ctx, f"{s} {_THIRD[verb]} {_third_person_pronouns(value)}", "likes", value, confidence=0.7)
    for hit in re.finditer(rf"{_I}\s+{_ADV}(?P<verb>hate|dislike|detest)\s+(?P<obj>[\w'’-]+){_TAIL}", c):
        value = _clean(f"{hit.group('obj')}{hit.group('rest')}")
        if hit.group("obj").lower() not in NOT_OBJECTS:
            yield _fact(ctx, f"{s} {_THIRD[hit.group('verb')]} {value}", "dislikes", value, confidence=0.7)
    if m := re.search(rf"{_I}\s+{_ADV}(?:go|often\s+go|usually\s+go)\s+(?P<act>{OUTDOOR_ACTIVITIES})\b", c):
        yield _fact(ctx, f"{s} goes {m.group('act')}", "hobbies", m.group("act"), confidence=0.75)
    if m := re.search(rf"{_I}\s+{_ADV}play\s+(?P<the>the\s+)?(?P<x>{INSTRUMENTS_SPORTS})\b", c):
        yield _fact(ctx, f"{s} plays {m.group('the') or ''}{m.group('x')}", "hobbies", m.group("x"), confidence=0.8)
    if m := re.search(r"\b(?i:my)\s+(?:favou?rite\s+)?(?:hobby|hobbies|pastime)\s+(?:is|are)\s+(?P<act>[a-z][\w'’ -]{2,40})", c):
        act = _clean(m.group("act"))
        yield _fact(ctx, f"{s}'s hobby is {act}", "hobbies", act, confidence=0.8)
    if m := re.search(rf"{_I}(?:[’']m|\s+am)\s+{_ADV}(?:a\s+)?(?P<diet>vegetarian|vegan|pescatarian)\b", c):
        yield _fact(ctx, f"{s} is {m.group('diet')}", "diet", m.group("diet"), confidence=0.85)


def _negated_first_person(ctx: _Ctx) -> Iterator[CandidateFact]:
    c, s = ctx.clause.text, ctx.subject
    if m := re.search(rf"{_I}\s+{_ADV}(?:don[’']t|do\s+not|never)\s+eat\s+(?P<food>[a-z]+)\b", c):
        food = m.group("food")
        yield _fact(ctx, f"{s} does not eat {food}", "diet", f"no {food}", polarity="negative", confidence=0.8)
    if m := re.search(rf"{_I}\s+{_ADV}(?:don[’']t|do\s+not)\s+(?:really\s+)?(?P<verb>like|enjoy|love)\s+(?P<obj>[\w'’-]+){_TAIL}", c):
        obj = m.group("obj")
        if obj.lower() not in NOT_OBJECTS:
            value = _clean(f"{obj}{m.group('rest')}")
            yield _fact(ctx, f"{s} does not {m.group('verb')} {value}", "likes", value, polarity="negative", confidence=0.7)
    if m := re.search(rf"{_I}(?:[’']m|\s+am)\s+not\s+(?P<st>married|single)\b", c):
        yield _fact(ctx, f"{s} is not {m.group('st')}", "relationship_status", m.group("st"), polarity="negative")
    if m := re.search(rf"{_I}\s+(?:don[’']t|do\s+not)\s+have\s+(?:any\s+)?(?P<kind>kids|children|pets)\b", c):
        kind = m.group("kind")
        attribute = "pets" if kind == "pets" else "children"
        yield _fact(ctx, f"{s} does not have {kind}", attribute, kind, polarity="negative", confidence=0.8)


_PLAN_AUX = {
    "planning": "is planning to", "going": "is going to", "hoping": "is hoping to", "about": "is about to",
    "plan": "plans to", "want": "wants to", "hope": "hopes to", "intend": "intends to",
}  # fmt: skip


def _plans(ctx: _Ctx) -> Iterator[CandidateFact]:
    c, s = ctx.clause.text, ctx.subject
    m = re.search(
        rf"{_I}(?:(?:[’']m|\s+am)\s+{_ADV}(?P<prog>planning|going|hoping|about)|\s+{_ADV}(?P<simple>plan|want|hope|intend))"
        r"\s+to\s+(?P<vp>(?!the\b|a\b|an\b|my\b|be\b|get\s+back\b|say\b|tell\b|ask\b|see\s+you\b)[a-z]+(?:\s+[\w'’-]+){0,7})",
        c,
    )
    if m is None:
        return
    aux = _PLAN_AUX[m.group("prog") or m.group("simple")]
    vp = _third_person_pronouns(_clean(_VP_STOP.sub("", m.group("vp"))))
    yield _fact(ctx, f"{s} {aux} {vp}", "plans", vp, modality="planned", confidence=0.7)


def _first_date(ctx: _Ctx) -> datetime | None:
    for date in ctx.dates:
        if date.window_start is not None and date.window_start <= ctx.turn.observed_at:
            return date.window_start
    return None


_LEADS = frozenset(
    """and so then also but yeah yes oh well today yesterday night week weekend month year ago
    recently finally actually just since after before because morning afternoon evening""".split()
)


def _starts_clause(prefix: str) -> bool:
    """Whether "I" starts a main clause (not "the figurines I bought …")."""
    prefix = prefix.rstrip()
    if not prefix or prefix[-1] in ",;:-—–!?.":
        return True
    words = re.findall(r"[A-Za-z]+", prefix)
    return bool(words) and words[-1].lower() in _LEADS


def _date_phrase(signal: Signal) -> str:
    start = signal.window_start
    assert start is not None
    if signal.granularity == "year":
        return f"in {start.year}"
    if signal.granularity == "month":
        return f"in {start:%B} {start.year}"
    return f"on {start.day} {start:%B} {start.year}"


def _events(ctx: _Ctx) -> Iterator[CandidateFact]:
    date = next((d for d in ctx.dates if d.window_start is not None and d.window_start <= ctx.turn.observed_at
                 and d.granularity in ("day", "month", "year")), None)
    if date is None:
        return
    text, base = ctx.clause.text, ctx.clause.start
    m = re.search(rf"{_I}\s+(?:just\s+|finally\s+|recently\s+|also\s+|actually\s+)?(?P<verb>[a-z]+)\b", text)
    if m is None or m.start() > date.start - base and date.end - base > m.start():
        return
    verb = m.group("verb")
    if not _starts_clause(text[: m.start()]):
        return
    if verb in NOT_EVENT_VERBS or not (verb.endswith("ed") or verb in IRREGULAR_PAST):
        return
    rest = text[m.end("verb") :]
    d0, d1 = date.start - base - m.end("verb"), date.end - base - m.end("verb")
    if d0 >= 0:
        rest = rest[:d0] + " " + rest[d1:]
    rest = re.split(r",|\s+[-–—]+\s+|\s+(?:and|but|because|so|which|when)\s+", rest)[0]
    rest = re.sub(r"\b(?:on|in|at|during|this|last|over|the)\s*$", "", rest.strip(" .!?")).strip()
    rest = re.sub(r"\s+(?:about|around|roughly|nearly|almost|over)$", "", rest.strip(" .!?;:,")).strip()
    if len(rest.split()) > 12 or re.match(r"(?:that|this|those|these)\b", rest):
        return
    what = _third_person_pronouns(f"{verb} {rest}".strip())
    yield _fact(ctx, f"{ctx.subject} {what} {_date_phrase(date)}", "events", what,
                valid_from=date.window_start, confidence=0.7)


def _third_person(ctx: _Ctx, person: Signal) -> Iterator[CandidateFact]:
    if ctx.hedged or ctx.negated or ctx.past:
        return
    c, s = ctx.clause.text, ctx.subject
    name = re.escape(re.sub(r"[’']s$", "", person.text))
    if re.search(r"\b(?:I|my|me)\b", c[: max(person.start - ctx.clause.start, 0)]):
        return
    if m := re.search(rf"\b{name}\s+{_ADV}works\s+(?:at|for)\s+(?P<org>{PROPER})", c):
        org = _clean(m.group("org"))
        yield _fact(ctx, f"{s} works at {org}", "employer", org, confidence=0.8)
    if m := re.search(rf"\b{name}\s+{_ADV}lives\s+in\s+(?P<place>{PROPER})", c):
        place = _clean(m.group("place"))
        yield _fact(ctx, f"{s} lives in {place}", "residence", place, confidence=0.8)
    if m := re.search(rf"\b{name}\s+is\s+{_ADV}(?P<st>married|engaged|divorced)\b", c):
        yield _fact(ctx, f"{s} is {m.group('st')}", "relationship_status", m.group("st"), confidence=0.8)
    if m := re.search(rf"\b{name}[’']s\s+(?P<kind>kids|children|son|daughter|husband|wife|{PETS})\b(?P<rest>[^,;]{{0,60}})", c):
        kind = m.group("kind")
        rest = m.group("rest").strip()
        if re.search(r"\b(?:I|my|me|you|your)\b", rest):
            rest = ""
        statement = f"{s}'s {kind} {rest}" if rest else f"{s} has {'a ' if kind[-1] != 's' else ''}{kind}"
        attribute = ("children" if kind in {"kids", "children", "son", "daughter"}
                     else "relationship_status" if kind in {"husband", "wife"} else "pets")
        value = "married" if attribute == "relationship_status" else kind
        yield _fact(ctx, statement, attribute, value, confidence=0.7)
    if m := re.search(rf"\b{name}\s+{_ADV}(?P<verb>loves|enjoys|likes|adores)\s+(?P<obj>[a-z][\w'’-]*ing){_TAIL}", c):
        value = _clean(f"{m.group('obj')}{m.group('rest')}")
        if m.group("obj").lower() not in NOT_HOBBY_GERUNDS:
            yield _fact(ctx, f"{s} {m.group('verb')} {value}", "hobbies", value, confidence=0.7)
