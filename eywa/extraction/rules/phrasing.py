"""How a rule phrases what it found: canonical values and third-person statements.

A statement names its subject and reads as plain English ("Priya works at Fernbrook
Health."); a first-person possessive becomes the subject's name ("visit Priya's parents"),
never "their", and a phrase that needs the speaker as an object ("give me a call") is not
made. A value is cleaned of punctuation and dangling function words, and one that points
outside its clause ("it", "that", "her") is not made at all.
"""

from __future__ import annotations

import re
from datetime import datetime

from eywa.attributes.kin import PLURAL_KIN
from eywa.extraction.lexicon import IRREGULAR_PAST
from eywa.extraction.rules.clause import A, Ctx, date_from, first_person
from eywa.models import CandidateFact, Modality, Polarity

UNRESOLVED = re.compile(
    r"\b(?:it|its|it's|it’s|that|this|these|those|them|they|their|theirs|there|here|he|she|him|her|his|you|your|yours"
    r"|one|ones|something|stuff|thing|things|someone|somebody)\b",
    re.IGNORECASE,
)
"""Words that point outside the clause: a value holding one of them is not made."""


def clean(value: str, *, article: bool = True) -> str:
    """Collapse spaces and drop punctuation and dangling function words at the ends.

    A leading article is dropped too ("the Bank of X" → "Bank of X") unless ``article`` is
    false, as for verb phrases ("a road trip").
    """
    value = re.sub(r"\s+", " ", value).strip(" ,;:-'’.!?\"“”()")
    trailing = r"\s+(?:the|a|an|of|and|&|to|in|at|on|for|into|with|about|from|by|my|our|your|so|too|as|or|now|again)$"
    while (shorter := re.sub(trailing, "", value, flags=re.IGNORECASE)) != value:
        value = shorter
    return re.sub(r"^(?:the|a|an)\s+", "", value, flags=re.IGNORECASE).strip() if article else value


def possessive(name: str) -> str:
    """"Priya's", "James'"."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def third_person_text(text: str, subject: str) -> str | None:
    """``text`` with first-person possessives turned into the subject's name.

    Returns None when the text still needs the speaker as an object ("me", "I", "us"):
    such a phrase does not read in the third person without guessing.
    """
    if re.search(r"(?<![\w'’])I\b|\b(?:me|myself|us|ourselves|mine|ours)\b", text, re.IGNORECASE):
        return None
    return re.sub(r"\b(?:my|our)\b", possessive(subject), text, flags=re.IGNORECASE)


_TIME_DEICTIC = re.compile(
    r"\b(?:this|that|next|last)\s+(?:morning|afternoon|evening|week|weekend|month|year|summer|fall|autumn|winter|spring"
    r"|season|semester|term)\b",
    re.IGNORECASE,
)


def has_unresolved(value: str) -> bool:
    """Whether ``value`` points outside its clause ("it", "that", "her", …); "this week" does not."""
    return bool(UNRESOLVED.search(_TIME_DEICTIC.sub(" ", value)))


def sentence(text: str) -> str:
    """One sentence: single spaces, a capital first letter and a full stop."""
    text = re.sub(r"\s+", " ", text).strip(" .!?,;")
    return text[:1].upper() + text[1:] + "."


def article(noun: str) -> str:
    """"a" or "an" before ``noun``."""
    return "an" if noun[:1].lower() in "aeiou" else "a"


def fact(
    ctx: Ctx,
    subject: str,
    statement: str,
    attribute: str,
    value: str,
    *,
    polarity: Polarity = "positive",
    modality: Modality = "asserted",
    valid_from: datetime | None = None,
    confidence: float = 0.8,
) -> CandidateFact:
    """A candidate citing only the turn it was read from."""
    return CandidateFact(
        statement=sentence(_agreeing(subject, statement)), subject=subject, attribute=attribute, value=value, polarity=polarity,
        modality=modality, valid_from=valid_from, evidence_ids=(ctx.turn.id,), confidence=confidence,
    )


_PLURAL_VERBS = {"is": "are", "was": "were", "has": "have", "does": "do", "goes": "go"}


def _agreeing(subject: str, statement: str) -> str:
    """``statement`` with the verb after a plural subject in the plural ("Ana's parents lives in
    Lisbon" → "… live in Lisbon"): the rules phrase every subject as one person."""
    if subject.rsplit(" ", 1)[-1] not in PLURAL_KIN or not statement.startswith(f"{subject} "):
        return statement
    verb, _, rest = statement[len(subject) + 1 :].partition(" ")
    if verb in _PLURAL_VERBS:
        verb = _PLURAL_VERBS[verb]
    elif verb.endswith("ies") and len(verb) > 4:
        verb = verb[:-3] + "y"  # "studies"
    elif verb.endswith(("ches", "shes", "sses", "xes", "oes")):
        verb = verb[:-2]  # "teaches"
    elif verb.endswith("s") and not verb.endswith("ss"):
        verb = verb[:-1]  # "lives"; "moved" stays
    return f"{subject} {verb} {rest}".rstrip()


def ended_at(ctx: Ctx, m: re.Match[str]) -> tuple[datetime, str] | None:
    """Where a past tense ends at a date (``clause.UNTIL_A_DATE``): the start of the date Level
    0 resolved after the match's start, and how it reads after "until" ("2023", "March
    2024"); None when none resolved ("until then")."""
    ended = date_from(ctx, m)
    if ended is None or ended.window_start is None:
        return None
    return ended.window_start, date_phrase(ended.window_start, ended.granularity).split(" ", 1)[1]


def date_phrase(moment: datetime, granularity: str | None, end: datetime | None = None) -> str:
    """"in 2023", "in May 2023", "in the week of 15 May 2023", "on the weekend of 20 May 2023"
    or "on 20 May 2023"; ``end`` (exclusive) tells a weekend from a week."""
    if granularity == "week":
        span = "on the weekend" if end is not None and (end - moment).days <= 3 else "in the week"
        return f"{span} of {moment.day} {moment:%B} {moment.year}"
    if granularity == "year":
        return f"in {moment.year}"
    if granularity == "month":
        return f"in {moment:%B} {moment.year}"
    return f"on {moment.day} {moment:%B} {moment.year}"


_LEAD_BE = re.compile(rf"^(?:{A}m|{A}re|{A}s|am|are|is)\s+")
_LEAD_HAVE = re.compile(rf"^(?:{A}ve|{A}s|have|has)\s+")
_PAST_OR_MODAL = re.compile(r"^(?:\w+ed|was|were|did|had|got|went|took|made|can|will|would|should|must)\b")


def predicate(m: re.Match[str], subject: str, end: int | None = None) -> str | None:
    """What ``m`` says about its subject, from after the subject slot, in the third person.

    "I'm really into pottery" → "is really into pottery"; "I've been volunteering" → "has
    been volunteering"; "I play the cello" → "plays the cello". None when the phrase needs
    the speaker as an object (see ``third_person_text``).
    """
    said = " ".join(m.string[m.end("subj") : m.end() if end is None else end].split())
    if m.group("subj") in ("my", "My", "our", "Our") or not first_person(m):
        return third_person_text(said, subject)
    if _LEAD_BE.match(said):
        said = _LEAD_BE.sub("is ", said)
    elif _LEAD_HAVE.match(said):
        said = _LEAD_HAVE.sub("has ", said)
    else:
        words = said.split(" ", 1)
        adverbs = []
        while words and words[0] in _ADVERBS and len(words) > 1:
            adverbs.append(words[0])
            words = words[1].split(" ", 1)
        if words and not _PAST_OR_MODAL.match(words[0]) and words[0] not in IRREGULAR_PAST | _SAME_IN_PAST:
            words[0] = _third_singular(words[0])
        said = " ".join([*adverbs, *words])
    return third_person_text(said, subject)


_SAME_IN_PAST = frozenset("quit put set cut let hit read spread shut cast cost hurt".split())
"""Verbs whose past is their base form: "I quit climbing" is read as the past."""
_ADVERBS = frozenset(
    """really just also absolutely totally now currently still recently finally truly officially happily proudly
    only already even both all seriously definitely always usually often sometimes honestly genuinely personally
    regularly""".split()
)


def _third_singular(verb: str) -> str:
    if verb in {"do", "go"}:
        return f"{verb}es"
    if verb == "have":
        return "has"
    if verb.endswith(("s", "sh", "ch", "x", "z")):
        return f"{verb}es"
    if len(verb) > 2 and verb.endswith("y") and verb[-2] not in "aeiou":
        return f"{verb[:-1]}ies"
    return f"{verb}s"
