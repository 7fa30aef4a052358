"""Endings said the way people say them, beyond the verbs of quitting and leaving.

A partner who left the speaker ("Tobias left me", "my boyfriend Tobias dumped me last week",
"Tobias broke up with me"): no longer the partner, when the partner is named. A relationship
said to be over ("things with Tobias are over", "it's over between Tobias and me", "Tobias and
I are over"), a marriage or an engagement said to be over ("my marriage is over", "our
engagement ended") or a wedding called off ("our wedding is off"), a spouse one is divorced
from said beside "I" ("Lucia and I are divorced"). A diet one is done with ("I'm done with
keto", "no more keto for me", "I fell off the keto wagon"). Each is a cessation
``eywa.cessation`` reads (a wedding called off, a registry surface of the engagement ended),
so the validator finds the end the statement claims and the Nous takes it for the change it is.

A spouse who left with no name said ("my husband left me", "my wife walked out on me") ends no
one the turn names, but leaves the speaker separated (and says no marriage of now, ``family``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from eywa.cessation import GONE_FOR_GOOD
from eywa.extraction.lexicon import DIETS, PARTNER_ROLE
from eywa.extraction.rules.clause import ADV, BE, HAVE, NAME, SUBJ, Ctx, companion, matches, openings, past_date, plain, rule
from eywa.extraction.rules.pets import NAME_GONE
from eywa.extraction.rules.phrasing import fact, possessive
from eywa.models import CandidateFact

LEFT_ME = rule(
    rf"(?:(?<![\w'’])(?P<my>[Mm]y)\s+(?P<role>{PARTNER_ROLE})(?:,?\s+(?P<role_name>{NAME}),?)?|(?P<name>{NAME}))\s+{ADV}"
    r"(?P<verb>left|dumped|ditched|walked\s+out\s+on|broke\s+up\s+with|split\s+up\s+with)\s+me"
    rf"(?:{GONE_FOR_GOOD}|(?=\s+for\s+(?:another|someone|somebody|a\s+(?:younger|new|different))\b)"
    r"|(?<=with\sme)\b|(?<=on\sme)\b)",
    "left dumped ditched walked broke split",
)
""""Tobias left me", "my husband left me last year", "my girlfriend, Lucia, dumped me", "Tobias
broke up with me", "my wife walked out on me", "he left me for someone else": the one who left
is no longer the partner (not "Tobias left me a note", "my boss left me in charge", "my dad
left me when I was five")."""
_SPOUSES = frozenset({"husband", "wife", "spouse"})
_GONE_WORDS = frozenset({"died", "passed", "put", "ran", "went", "longer"})
"""One of which a part holds for ``pets.NAME_GONE`` to be tried (a cheap gate)."""
_PARTNER_OVER = re.compile(
    rf"(?:(?<![\w'’])[Tt]hings\s+(?:with|between)\s+(?P<things>{NAME})(?:\s+and\s+(?:me|I))?\s+(?:are|were)"
    rf"|(?<![\w'’])[Ii]t(?:['’]s|\s+is)\s+(?:all\s+|really\s+|officially\s+|definitely\s+)?over\s+(?:between|with)\s+"
    rf"(?P<between>{NAME})\b)"
)
""""Things with Tobias are over", "it's over between Tobias and me", "it's over with Tobias"."""
_OVER = re.compile(r"\s+(?:all\s+|really\s+|officially\s+|definitely\s+|so\s+)?over\b(?!\s+(?:the\s+)?(?:moon|top)\b)")
_WE_ARE_OVER = rule(rf"{SUBJ}(?:{BE}|\s+were)\s+{ADV}over(?=\s*(?:[.!,;]|$|\s+(?:now|for\s+good)\b))", "over")
""""Tobias and I are over (now)": the one said beside "I" is no longer the partner."""
_UNION_OVER = rule(
    rf"(?<![\w'’])(?P<subj>[Mm]y|[Oo]ur)\s+(?P<union>marriage|engagement|relationship)(?:\s+(?:to|with)\s+(?P<name>{NAME}))?"
    r"\s+(?:(?:is|was|['’]s)\s+(?:all\s+|really\s+|officially\s+|definitely\s+)?over\b(?!\s+(?:the\s+)?(?:moon|top)\b)"
    r"|(?:has\s+|had\s+)?(?:ended|came\s+to\s+an\s+end))",
    "over ended end",
)
""""My marriage is over", "our engagement ended", "my relationship with Tobias is over": the
status it was is no longer (and the partner named, no longer the partner)."""
_CALLED_OFF = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}call(?:ed)?\s+off\s+(?:the|my|our)\s+engagement\b"
    r"(?!\s+(?:party|parties|dinner|ring|photos?|shoot|announcement)\b)",
    "called call",
)
""""We called off the engagement", "I called off my engagement to Tobias": engaged no longer
(not "the engagement party"; the cessation's scope stops before "to Tobias", who is not read
as ended)."""
_WEDDING_OFF = rule(
    r"(?<![\w'’])(?P<det>[Mm]y|[Oo]ur|[Tt]he)\s+wedding(?P<be>['’]s|\s+is|\s+was|\s+has\s+been)\s+"
    r"(?:(?:officially|definitely|now|sadly|totally|completely)\s+)?(?P<off>off|cancell?ed|canceled|called\s+off)"
    r"(?=\s*(?:[.!;,]|$|\s+(?:now|for\s+good|last|this|on|in|yesterday|today|after)\b))",
    "wedding",
)
""""Our wedding is off", "my wedding was cancelled", "the wedding's been called off" (the
wedding the speaker's own only when said "my" or "our", or "the" by one whose partner is known:
a friend's wedding is not their engagement): engaged no longer. Not "the wedding is off the
coast", "the wedding is off to a good start"."""
_UNION_STATUS = {"marriage": "married", "engagement": "engaged", "relationship": "in a relationship"}
_DIET_NOUN = r"(?:\s+(?:diet|thing|lifestyle|phase|plan))?"
_DONE_WITH_DIET = rule(
    rf"{SUBJ}{BE}\s+{ADV}(?:so\s+|totally\s+|completely\s+|officially\s+)?done\s+with\s+(?:the\s+|my\s+)?(?:being\s+)?"
    rf"(?P<diet>{DIETS}){_DIET_NOUN}\b(?!\s+(?:for\s+(?:the|this|a|one|two|now)|this\s+week|until)\b)",
    "done",
)
""""I'm done with keto", "I'm so done with being vegan": the diet no longer (not "I'm done
with keto for the week", a pause)."""
_NO_MORE_DIET = rule(
    rf"(?<![\w'’])[Nn]o\s+more\s+(?P<diet>{DIETS}){_DIET_NOUN}\s+for\s+me(?=\s*(?:[.!,;]|$|\s+(?:anymore|now|either)\b))",
    "more",
)
""""No more keto for me": the speaker's diet, ended (not "no more keto for me this week")."""
_OFF_THE_WAGON = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:fell|fallen)\s+off\s+(?:the|my)\s+(?P<diet>{DIETS})\s+wagon\b",
    "fell fallen",
)
""""I fell off the keto wagon": the diet kept no longer ("I fell off the wagon", drinking
again, names no diet)."""


def endings(ctx: Ctx) -> Iterator[CandidateFact]:
    """Partners, unions and diets said to have ended in the ways of this module's docstring."""
    if not plain(ctx):
        return
    if ctx.turn.speaker:
        yield from _said_of_the_speaker(ctx, ctx.turn.speaker)
    if ctx.part.negated:
        return
    for m, s in matches(ctx, _UNION_OVER, we=True, anywhere=True):
        union = m.group("union")
        said = " ".join(m.group(0)[m.start("union") - m.start() :].split())
        yield fact(ctx, s, f"{possessive(s)} {said}", "relationship_status", _UNION_STATUS[union], polarity="negative",
                   valid_from=past_date(ctx, m), confidence=0.8)
        if (partner := ctx.persons.get(m.group("name") or "")) is not None and partner != s:
            yield fact(ctx, s, f"{s} is no longer with {partner}: {possessive(s)} {said}", "partner", partner,
                       polarity="negative", valid_from=past_date(ctx, m), confidence=0.8)
    yield from _wedding_off(ctx)
    for m, s in matches(ctx, _CALLED_OFF, we=True):
        yield fact(ctx, s, f"{s} called off the engagement", "relationship_status", "engaged", polarity="negative",
                   valid_from=past_date(ctx, m), confidence=0.8)
    yield from _diets_ended(ctx)


def _wedding_off(ctx: Ctx) -> Iterator[CandidateFact]:
    """``_WEDDING_OFF``: the speaker's engagement, ended (a part that names no one else)."""
    speaker = ctx.turn.speaker
    if not speaker or ctx.persons:
        return
    for m in openings(ctx, _WEDDING_OFF, anywhere=True):
        own = m.group("det").lower() != "the" or any(
            attribute == "partner" for attribute, _ in ctx.named.get(speaker.casefold(), {}).values())
        if own:
            said = " ".join(m.group(0)[m.end("det") - m.start() :].split())  # "wedding is off"
            yield fact(ctx, speaker, f"{possessive(speaker)} {said}", "relationship_status", "engaged",
                       polarity="negative", valid_from=past_date(ctx, m), confidence=0.75)


def _said_of_the_speaker(ctx: Ctx, speaker: str) -> Iterator[CandidateFact]:
    """What ends for the speaker with no subject of its own: "no more keto for me", a partner
    gone by name, a partner who left "me", a relationship said to be over."""
    for m in openings(ctx, _NO_MORE_DIET, anywhere=True):
        label = _label(m.group("diet"))
        yield fact(ctx, speaker, f"no more {label} for {speaker}", "diet", label, polarity="negative",
                   valid_from=past_date(ctx, m), confidence=0.75)
    mine = ctx.named.get(speaker.casefold(), {})
    for m in NAME_GONE.finditer(ctx.text) if mine and not _GONE_WORDS.isdisjoint(ctx.part.words) else ():
        # "Tobias passed away", "Tobias is no longer with us" (``pets.NAME_GONE``), Tobias the
        # partner the speaker's earlier beliefs hold (``Ctx.named``): no longer the partner.
        known = mine.get(m.group("name").casefold())
        if known is not None and known[0] == "partner" and (m.group("euphemism") or not ctx.part.negated):
            gone = " ".join(m.group("gone").split())
            yield fact(ctx, speaker, f"{possessive(speaker)} partner {known[1]} {gone}", "partner", known[1],
                       polarity="negative", valid_from=past_date(ctx), confidence=0.8)
    if ctx.part.negated:
        return
    for m in openings(ctx, LEFT_ME, anywhere=True):
        partner = ctx.persons.get(m.group("role_name") or m.group("name") or "")
        verb = " ".join(m.group("verb").split())
        if m.group("role") in _SPOUSES and verb in {"left", "walked out on"}:
            # A spouse who left: separated (the registry's surfaces of it), from then.
            yield fact(ctx, speaker, f"{possessive(speaker)} {m.group('role')} {verb} {speaker}", "relationship_status",
                       "separated", valid_from=past_date(ctx, m), confidence=0.75)
        if partner is not None and partner != speaker:
            yield fact(ctx, speaker, f"{speaker} is no longer with {partner}: {partner} {verb} {speaker}", "partner",
                       partner, polarity="negative", valid_from=past_date(ctx, m), confidence=0.8)
    yield from _partners_over(ctx, speaker)


def _partners_over(ctx: Ctx, speaker: str) -> Iterator[CandidateFact]:
    """``_PARTNER_OVER`` and ``_WE_ARE_OVER``: the partner named, ended."""
    for m in _PARTNER_OVER.finditer(ctx.text) if "over" in ctx.part.words else ():
        if m.group("things") and not _OVER.match(ctx.text, m.end()):
            continue
        partner = ctx.persons.get(m.group("things") or m.group("between"))
        if partner is not None and partner != speaker:
            yield fact(ctx, speaker, f"{speaker} is no longer with {partner}: it is over", "partner", partner,
                       polarity="negative", valid_from=past_date(ctx, m), confidence=0.75)
    for m, s in matches(ctx, _WE_ARE_OVER):
        if (partner := companion(ctx, m)) is not None and partner != s:
            yield fact(ctx, s, f"{s} is no longer with {partner}: {s} and {partner} are over", "partner", partner,
                       polarity="negative", valid_from=past_date(ctx, m), confidence=0.75)


def _diets_ended(ctx: Ctx) -> Iterator[CandidateFact]:
    """A diet one is done with or fell off the wagon of: the label, negative."""
    for m, s in matches(ctx, _DONE_WITH_DIET) + matches(ctx, _OFF_THE_WAGON):
        label = _label(m.group("diet"))
        said = f"fell off the {label} wagon" if m.re is _OFF_THE_WAGON.pattern else f"is done with {label}"
        yield fact(ctx, s, f"{s} {said}", "diet", label, polarity="negative", valid_from=past_date(ctx, m),
                   confidence=0.8)


def _label(raw: str) -> str:
    label = raw.lower()
    return "pescatarian" if label == "pescetarian" else label
