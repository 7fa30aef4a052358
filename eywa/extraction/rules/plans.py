"""Plans: planned or hedged intentions, never asserted facts.

"I'm planning to adopt a cat" is a plan with modality "planned"; "I might move to Berlin"
and "I'm thinking about moving to Lisbury" are plans with modality "hedged": neither is
ever an asserted fact, so a plan that never happens cannot become where someone lives.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from eywa.extraction.rules.clause import A, ADV, BE, HAVE, SUBJ, Ctx, matches, rule
from eywa.extraction.rules.phrasing import clean, fact, has_unresolved, third_person_text
from eywa.models import CandidateFact, Modality

_VP = (
    r"(?P<vp>(?!the\b|a\b|an\b|my\b|be\b|get\s+back\b|say\b|tell\b|ask\b|see\s+you\b|thank\b|let\b)"
    r"[a-z]+(?:\s+[\w'’-]+){0,7})"
)
_PLANNED = rule(
    rf"{SUBJ}(?:{BE}\s+{ADV}(?P<prog>planning|going|hoping|about|aiming)|\s+{ADV}(?P<simple>plan|plans|want|wants"
    rf"|hope|hopes|intend|intends|aim|aims|would\s+love|would\s+like)|{A}d\s+(?P<would>love|like)"
    rf"|{HAVE}\s+{ADV}(?P<decided>decided))\s+to\s+{_VP}",
    "planning going hoping about aiming trying plan plans want wants hope hopes intend intends aim aims love like "
    "decided",
)
"""Intentions: "I'm planning to …", "I want to …", "I'd love to …", "I've decided to …" (a
decision that stands; "I decided to bake" is often a story of what was done)."""
_MIGHT = rule(rf"{SUBJ}\s+(?:might|may)\s+(?:maybe\s+|possibly\s+|also\s+)?(?!not\b|have\b|be\b){_VP}", "might may")
_THINKING = rule(
    rf"{SUBJ}{BE}\s+{ADV}(?:thinking\s+(?:about|of)|considering)\s+(?P<vp>[a-z]+ing(?:\s+[\w'’-]+){{0,6}})",
    "thinking considering",
)
_GOING = rule(
    rf"{SUBJ}{BE}\s+{ADV}(?:going|heading|off)\s+(?P<prep>to|on)\s+"
    rf"(?P<vp>(?:a|an|the|my|our)\s+[\w'’-]+(?:\s+[\w'’+-]+){{0,7}})",
    "going heading off",
)
_ARRANGED = rule(
    rf"{SUBJ}{BE}\s+{ADV}(?P<verb>(?!going|thinking|feeling|trying|hoping|planning|looking|getting|doing|having|being"
    rf"|loving|enjoying|liking|missing|wondering|struggling|waiting)[a-z]{{3,}}ing)\s+"
    rf"(?P<vp>(?:a|an|the|my|our|some)\s+[\w'’-]+(?:\s+[\w'’+-]+){{0,7}})",
    "tomorrow tonight soon next this later upcoming in on",
)
_SOON = re.compile(r"\b(?:tomorrow|tonight|soon|next|this\s+(?:weekend|week|month|summer|fall|autumn|winter|spring|year)"
                   r"|later|upcoming|in\s+a\s+(?:few|couple)"
                   r"|on\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b",
                   re.IGNORECASE)
_VP_STOP = re.compile(
    r"[,;:]|\s+(?:so|because|and|but|which|who|while|when|since|as|if|or|though|although|before|after|once|until"
    r"|to\s+see\s+if)\b.*$"
)
_VAGUE = frozenset("keep do make go get try check help start stop continue have need take put give".split())
_AUX = {
    "planning": "is planning to", "going": "is going to", "hoping": "is hoping to", "about": "is about to",
    "aiming": "is aiming to", "plan": "plans to", "plans": "plans to", "want": "wants to", "wants": "wants to",
    "hope": "hopes to", "hopes": "hopes to", "intend": "intends to", "intends": "intends to", "aim": "aims to",
    "aims": "aims to", "would love": "would love to", "would like": "would like to", "decided": "has decided to",
}  # fmt: skip


def _phrase(raw: str, subject: str) -> str | None:
    vp = clean(_VP_STOP.sub("", raw), article=False)
    words = vp.split()
    if len(words) < 2 or has_unresolved(vp) or (words[0] in _VAGUE and len(words) < 3) or words[0] in {"need", "have"}:
        return None
    return third_person_text(vp, subject)


def plans(ctx: Ctx) -> Iterator[CandidateFact]:
    """Planned and hedged intentions of one part; never asserted."""
    if ctx.part.negated or ctx.part.past_habit:
        return
    for m, s in matches(ctx, _PLANNED, we=True):
        key = m.group("prog") or m.group("decided") or re.sub(
            r"\s+", " ", m.group("simple") or f"would {m.group('would')}"
        )
        if (vp := _phrase(m.group("vp"), s)) is not None:
            modality: Modality = "hedged" if ctx.part.hedged or ctx.part.hypothetical else "planned"
            yield fact(ctx, s, f"{s} {_AUX[key]} {vp}", "plans", vp, modality=modality, confidence=0.7)
    for m, s in matches(ctx, _GOING, we=True):
        if _SOON.search(m.group("vp")) and (vp := _phrase(m.group("vp"), s)) is not None:
            going = f"go {m.group('prep')} {vp}"
            yield fact(ctx, s, f"{s} is going {m.group('prep')} {vp}", "plans", going, modality="planned",
                       confidence=0.7)
    for m, s in matches(ctx, _ARRANGED, we=True):
        vp = m.group("vp")
        if _SOON.search(vp) and (said := _phrase(f"{m.group('verb')} {vp}", s)) is not None:
            yield fact(ctx, s, f"{s} is {said}", "plans", said, modality="planned", confidence=0.65)
    for m, s in matches(ctx, _MIGHT, we=True):
        if (vp := _phrase(m.group("vp"), s)) is not None:
            yield fact(ctx, s, f"{s} might {vp}", "plans", vp, modality="hedged", confidence=0.6)
    for m, s in matches(ctx, _THINKING, we=True):
        if (vp := _phrase(m.group("vp"), s)) is not None:
            yield fact(ctx, s, f"{s} is thinking about {vp}", "plans", vp, modality="hedged", confidence=0.6)
