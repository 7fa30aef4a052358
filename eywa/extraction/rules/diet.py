"""Diet, with its change forms.

"I'm vegetarian" and "I went vegan" are positive (and say what the registry's
``AttributeSpec.implied`` has the label imply: no fish, and for a vegan no meat; "I'm
pescatarian" says fish, positive); "I don't eat meat" is diet "meat" with
negative polarity, never the value "no meat", and so are "I stopped eating meat" and "I
haven't eaten meat in weeks"; "I'm not vegan anymore" is "vegan", negative; "I eat fish
again" is "fish", positive. A dish ("a vegan cake") says nothing about the speaker's diet.
"""

from __future__ import annotations

from collections.abc import Iterator

from eywa.attributes import get_attribute
from eywa.extraction.lexicon import DIETS, FOODS
from eywa.extraction.rules.clause import (
    A,
    ADV,
    BE,
    CESSATION_TAIL,
    HAVE,
    SUBJ,
    Ctx,
    experiential_state,
    matches,
    past_date,
    plain,
    rule,
    stated_start,
)
from eywa.extraction.rules.phrasing import fact, predicate
from eywa.models import CandidateFact, Polarity

_DIET_IS = rule(
    rf"{SUBJ}(?:{BE}|{HAVE}\s+{ADV}been)\s+{ADV}(?P<neg>not\s+|no\s+longer\s+)?(?:a\s+|an\s+)?(?:strict\s+)?(?P<diet>{DIETS})\b"
    r"(?!\s+(?:recipe|recipes|food|ice|dessert|desserts|restaurant|option|options|dish|dishes|meal|meals|cook|cooking"
    r"|baking|chef|cake|place|cafe|version|treats?|snacks?|cookbook|blog|friendly)\b)",
    DIETS,
)
_ON_DIET = rule(
    rf"{SUBJ}(?:{BE}|{HAVE}\s+{ADV}been)\s+{ADV}on\s+(?:a|an|the)\s+(?:strict\s+)?(?P<diet>{DIETS})\s+diet\b"
    r"(?!\s+(?:for\s+(?:the|this|a|one|two)\s+(?:week|weekend|month|day)|this\s+week|until)\b)",
    "diet",
)
""""I'm on a keto diet (now)", "I've been on a vegan diet since May": the diet, as "I'm keto"
(not "… for a week", a trial)."""
_WENT = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:went|gone|became|become|turned|switched\s+to\s+being)\s+(?:a\s+|an\s+|fully\s+)?"
    rf"(?P<diet>{DIETS})\b",
    DIETS,
)
_GAVE_UP_DIET = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:stopped|quit|gave\s+up)\s+being\s+(?:a\s+|an\s+)?(?P<diet>{DIETS})\b",
    "stopped quit gave",
)
""""I gave up being vegetarian", "I quit being vegan last month": the label no longer holds, as
"I'm not vegan anymore" says."""
_NO_FOOD = rule(
    rf"{SUBJ}\s+{ADV}(?:do\s+not|does\s+not|don{A}t|doesn{A}t|never|no\s+longer|can{A}t|cannot|won{A}t)\s+"
    rf"(?:really\s+|even\s+|ever\s+)?(?:eat|eats|touch)\s+(?:any\s+)?(?P<food>{FOODS})\b",
    "eat eats touch",
)
_HAVENT_EATEN = rule(
    rf"{SUBJ}\s+(?:haven{A}t|have\s+not|hasn{A}t|has\s+not)\s+(?:eaten|had|touched)\s+(?:any\s+)?(?P<food>{FOODS})\b",
    "eaten had touched",
)
_STOPPED_EATING = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:stopped|quit|gave\s+up|cut\s+out)\s+(?:eating\s+|drinking\s+(?=coffee|caffeine|soda))?"
    rf"(?P<food>{FOODS})\b",
    FOODS,
)
_EATS_AGAIN = rule(
    rf"{SUBJ}(?:{BE}|{HAVE})?\s+{ADV}(?:eat|eats|eating|(?:started|began|begun|start)\s+(?:eating|to\s+eat))\s+"
    rf"(?P<food>{FOODS})\s+again\b",
    "again",
)
""""I eat fish again", "I started eating fish again", "I'm eating meat again": the food is back
in the diet (the validator reads "again" as the change it is)."""
_DRINKS_AGAIN = rule(
    rf"{SUBJ}(?:{BE}|{HAVE})?\s+{ADV}(?:drink|drinks|drinking|(?:started|began|begun|start)\s+(?:drinking|to\s+drink))\s+"
    r"(?:(?:alcohol|wine|beer|booze)\s+)?again\b",
    "again",
)
""""I've started drinking again", "I'm drinking wine again": alcohol is back in the diet (after
"I don't drink", "I'm sober"), as a food eaten again is."""


def activity(raw: str) -> str:
    """Lower case, single spaces."""
    return " ".join(raw.lower().split())


def diet(ctx: Ctx) -> Iterator[CandidateFact]:
    """Diet facts of one part: a label, or a food the subject does not eat."""
    if not plain(ctx):
        return
    for m, s in matches(ctx, _NO_FOOD) + matches(ctx, _HAVENT_EATEN):
        food = activity(m.group("food"))
        yield fact(ctx, s, f"{s} does not eat {food}", "diet", food, polarity="negative", confidence=0.85)
    for m, s in matches(ctx, _STOPPED_EATING):
        food = activity(m.group("food"))
        verb = "drinking" if " drinking " in m.group(0) else "eating"  # "stopped drinking coffee"
        yield fact(ctx, s, f"{s} stopped {verb} {food}", "diet", food, polarity="negative",
                   valid_from=past_date(ctx, m), confidence=0.85)
    for m, s in matches(ctx, _DIET_IS) + matches(ctx, _ON_DIET):
        label = _label(m.group("diet"))
        if m.groupdict().get("neg"):
            still = " anymore" if CESSATION_TAIL.search(ctx.text) or "longer" in m.group("neg") else ""
            yield fact(ctx, s, f"{s} is not {label}{still}", "diet", label, polarity="negative", confidence=0.8)
        elif not ctx.part.negated and not experiential_state(ctx, m):
            # "I've been vegan since 2020": the start it states (not "I've been vegan": once).
            began = stated_start(ctx, m)
            yield fact(ctx, s, f"{s} is {label}", "diet", label, valid_from=began, confidence=0.85)
            # Besides the label's own value (no meat; no animal products): what it implies
            # (fish, which a pescatarian eats and a vegetarian or a vegan does not).
            for value, polarity in _implied(label):
                yield fact(ctx, s, f"{s} is {label}", "diet", value, polarity=polarity, valid_from=began,
                           confidence=0.85)
    if ctx.part.negated:
        return
    for m, s in matches(ctx, _GAVE_UP_DIET):
        label = _label(m.group("diet"))
        verb = " ".join(m.group(0)[m.end("subj") - m.start() : m.start("diet") - m.start()].split())
        yield fact(ctx, s, f"{s} {verb} {label}", "diet", label, polarity="negative", valid_from=past_date(ctx, m),
                   confidence=0.8)
    for m, s in matches(ctx, _WENT):
        label = _label(m.group("diet"))
        yield fact(ctx, s, f"{s} went {label}", "diet", label, valid_from=past_date(ctx, m), confidence=0.85)
        for value, polarity in _implied(label):
            yield fact(ctx, s, f"{s} went {label}", "diet", value, polarity=polarity, valid_from=past_date(ctx, m),
                       confidence=0.85)
    for m, s in matches(ctx, _EATS_AGAIN):
        food = activity(m.group("food"))
        yield fact(ctx, s, f"{s} eats {food} again", "diet", food, confidence=0.8)
    for m, s in matches(ctx, _DRINKS_AGAIN):
        said = predicate(m, s) or "drinks again"
        yield fact(ctx, s, f"{s} {said}", "diet", "alcohol", valid_from=past_date(ctx, m), confidence=0.8)


def _implied(label: str) -> list[tuple[str, Polarity]]:
    """The values a diet label implies besides its own (the registry's ``implied``):
    pescatarian → fish; vegetarian → no fish; vegan → no fish, no meat."""
    return [(i.value, i.polarity) for i in get_attribute("diet").implied if i.surface == label]


def _label(raw: str) -> str:
    label = raw.lower()
    return "pescatarian" if label == "pescetarian" else label
