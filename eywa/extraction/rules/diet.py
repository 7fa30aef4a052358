"""Diet, with its change forms.

"I'm vegetarian" and "I went vegan" are positive (and say what the registry's
``AttributeSpec.implied`` has the label imply: no fish, and for a vegan no meat; "I'm
pescatarian" says fish, positive); "I don't eat meat" is diet "meat" with
negative polarity, never the value "no meat", and so are "I stopped eating meat" and "I
haven't eaten meat in weeks"; "I'm not vegan anymore" is "vegan", negative; "I eat fish
again" is "fish", positive. A dish ("a vegan cake") says nothing about the speaker's diet.

The label said with its noun is the same label: "I'm on a keto diet", "I switched to a vegan
diet", "I started a keto diet last week"; and so is its end: "I'm not on keto anymore", "I
quit keto", "I gave up on the vegan diet", "the vegetarian thing didn't last".
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime

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
    openings,
    past_date,
    plain,
    rule,
    stated_start,
)
from eywa.extraction.rules.phrasing import article, fact, possessive, predicate
from eywa.models import CandidateFact, Polarity
from eywa.signals.cues import negations

_NOT_A_DISH = (
    r"(?!\s+(?:recipe|recipes|food|ice|dessert|desserts|restaurant|option|options|dish|dishes|meal|meals|cook|cooking"
    r"|baking|chef|cake|place|cafe|version|treats?|snacks?|cookbook|blog|friendly|class|classes|course|group|club"
    r"|friends?|burgers?|sausages?|cheese|milk|pizza|brownies?|cookies?|bakery|market|festival|shop|store)\b)"
)
"""After a diet's label said alone: not a dish, a shop or a class ("the vegan cooking class")."""
_DIET_NOUN = r"(?:diet|lifestyle|thing|experiment|phase|kick|streak|journey|challenge|life|wagon|plan)"
"""What a diet is called after its label ("a vegan diet", "the keto thing", "the keto wagon")."""
_DIET_IS = rule(
    rf"{SUBJ}(?:{BE}|{HAVE}\s+{ADV}been)\s+{ADV}(?P<neg>not\s+|no\s+longer\s+)?(?:a\s+|an\s+)?(?:strict\s+)?(?P<diet>{DIETS})\b"
    + _NOT_A_DISH,
    DIETS,
)
_WENT = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?:went|gone|became|become|turned|switched\s+to\s+being)\s+(?:a\s+|an\s+|fully\s+)?"
    rf"(?P<diet>{DIETS})\b",
    DIETS,
)
_GAVE_UP_DIET = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?P<verb>stopped|quit|gave\s+up(?:\s+on)?|given\s+up(?:\s+on)?)\s+"
    rf"(?:being\s+(?:a\s+|an\s+)?(?P<diet>{DIETS})\b|(?:(?:the|my)\s+)?(?P<named>{DIETS})(?:\s+{_DIET_NOUN}\b|\b{_NOT_A_DISH}))",
    "stopped quit gave given",
)
""""I gave up being vegetarian", "I quit being vegan last month", "I gave up on being vegan", "I
quit keto", "I gave up on the vegan diet": the label no longer holds, as "I'm not vegan
anymore" says (not "I quit the vegan cooking class")."""
_ON_DIET = rule(
    rf"{SUBJ}(?:{BE}|{HAVE}\s+{ADV}been)\s+{ADV}(?P<neg>not\s+|no\s+longer\s+)?{ADV}on\s+"
    rf"(?:(?:a|an|the|my)\s+(?:strict\s+|new\s+|whole\s+)*(?P<diet>{DIETS})\s+(?:diet|plan)\b|(?P<bare>{DIETS})\b{_NOT_A_DISH})"
    r"(?!\s+(?:for\s+(?:the|this|a|one|two)\s+(?:week|weekend|month|day)|this\s+week|until)\b)",
    "on",
)
""""I'm on a keto diet (now)", "I've been on a vegan diet since January", "I'm on keto": the
label, as "I'm keto" says it; "I'm not on keto anymore", "I'm no longer on a vegan diet": no
longer ("I've been on a vegan diet", with no how long, is once; "… for a week" is a trial)."""
_TOOK_UP_DIET = rule(
    rf"{SUBJ}(?:{HAVE}(?:\s+{ADV}been)?)?\s+{ADV}(?P<verb>switched|changed|moved|converted|started|began|begun|adopted"
    rf"|went\s+on|gone\s+on|follow|follows|following|eat|eats|eating|stick\s+to|stuck\s+to|sticking\s+to)\s+"
    rf"(?:to\s+)?(?:a|an|the)\s+(?:strict\s+|new\s+|fully\s+|whole\s+)*(?P<diet>{DIETS})\s+(?:diet|lifestyle)\b",
    "switched changed moved converted started began begun adopted went gone follow follows following eat eats eating "
    "stick stuck sticking",
)
""""I switched to a vegan diet", "I started a keto diet last week", "I follow a vegan diet",
"I've been eating a vegetarian diet since 2020": the label from then (a start, or the
start said after "since"); not one said to have ended in the same sentence ("I started a keto
diet but gave up after a week", ``_ENDED_AFTER``)."""
_TOOK_UP = frozenset("switched changed moved converted started began begun adopted went gone".split())
"""The verbs of ``_TOOK_UP_DIET`` that say a change, dated from the date said after them (not
"I follow a vegan diet", a state)."""
_ENDED_AFTER = re.compile(
    r"\b(?:quit|stopped|gave\s+(?:it\s+)?up|didn['’]t\s+last|did\s+not\s+last|failed|only\s+lasted|lasted\s+(?:a|one|two|three"
    r"|a\s+few|\d+)|caved|fell\s+off|dropped\s+it|ditched\s+it|for\s+(?:a|one|two|three|a\s+few|\d+)\s+(?:days?|weeks?|months?)"
    r"|back\s+then|once|at\s+one\s+point)\b",
    re.IGNORECASE,
)
_DIET_OVER = rule(
    rf"(?<![\w'’])(?P<det>[Mm]y|[Tt]he|[Tt]his|[Tt]hat)\s+(?:whole\s+|little\s+)?(?P<diet>{DIETS})\s+{_DIET_NOUN}\s+"
    r"(?:didn['’]t|did\s+not|never)\s+last(?:ed)?\b",
    "last lasted",
)
""""My vegan phase didn't last", "the vegetarian thing didn't last" (said of no one else in the
sentence): the speaker's label no longer holds."""
_SOMEONE_ELSE = re.compile(
    r"\b(?:[Hh]e|[Ss]he|[Tt]hey|[Hh]is|[Hh]er|[Tt]heir|[A-Z][a-z]+['’]s|[Mm]y\s+[a-z]+['’]s|for\s+(?:my|our|him|her|them))\b"
)
"""Who else a diet said not to have lasted may be of ("her keto thing", "he said the vegan
phase didn't last", "… didn't last a week for my sister")."""
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
    rf"{SUBJ}(?:{BE}|{HAVE})?\s+{ADV}(?:(?P<simple>eat|eats)|eating|(?:started|began|begun|start)\s+(?:eating|to\s+eat))\s+"
    rf"(?P<food>{FOODS})\s+(?:(?P<again>again)\b|(?:now|these\s+days|nowadays)(?=\s*(?:[.!;,]|$)))",
    "again now days nowadays",
)
""""I eat fish again", "I started eating fish again", "I'm eating meat again": the food is back
in the diet (the validator reads "again" as the change it is); so is "I eat meat now", "I eat
fish these days" (the simple present, a habit, said of now: not "I'm eating fish now", which may
be this meal)."""
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
    for m, s in matches(ctx, _DIET_IS):
        label = _label(m.group("diet"))
        if m.groupdict().get("neg"):
            still = " anymore" if CESSATION_TAIL.search(ctx.text) or "longer" in m.group("neg") else ""
            yield fact(ctx, s, f"{s} is not {label}{still}", "diet", label, polarity="negative", confidence=0.8)
        elif not ctx.part.negated and not experiential_state(ctx, m):
            # "I've been vegan since 2020": the start it states (not "I've been vegan": once).
            yield from _keeps(ctx, s, f"{s} is {label}", label, stated_start(ctx, m))
    yield from _diet_said_by_name(ctx)
    if ctx.part.negated:
        return
    for m, s in matches(ctx, _TOOK_UP_DIET):
        if experiential_state(ctx, m) or _ENDED_AFTER.search(ctx.sentence_after(m.end())):
            continue
        label = _label(m.group("diet"))
        took_up = m.group("verb").split()[0] in _TOOK_UP
        began = stated_start(ctx, m) or (past_date(ctx, m) if took_up else None)
        yield from _keeps(ctx, s, f"{s} {' '.join(m.group('verb').split())} a {label} diet", label, began)
    for m, s in matches(ctx, _GAVE_UP_DIET):
        label = _label(m.group("diet") or m.group("named"))
        # "I quit being vegan", "I quit (the) keto (diet)": said as "quit keto"
        verb = " ".join((m.group(0)[m.end("subj") - m.start() : m.start("diet") - m.start()] if m.group("diet")
                         else m.group("verb")).split())
        yield fact(ctx, s, f"{s} {verb} {label}", "diet", label, polarity="negative", valid_from=past_date(ctx, m),
                   confidence=0.8)
    for m, s in matches(ctx, _WENT):
        label = _label(m.group("diet"))
        yield from _keeps(ctx, s, f"{s} went {label}", label, past_date(ctx, m))
    for m, s in matches(ctx, _EATS_AGAIN):
        if not (m.group("again") or m.group("simple")):
            continue  # "I'm eating fish now": this meal, maybe
        food = activity(m.group("food"))
        when = "again" if m.group("again") else " ".join(m.group(0)[m.end("food") - m.start() :].split())
        yield fact(ctx, s, f"{s} eats {food} {when}", "diet", food, confidence=0.8)
    for m, s in matches(ctx, _DRINKS_AGAIN):
        said = predicate(m, s) or "drinks again"
        yield fact(ctx, s, f"{s} {said}", "diet", "alcohol", valid_from=past_date(ctx, m), confidence=0.8)


def _diet_said_by_name(ctx: Ctx) -> Iterator[CandidateFact]:
    """A diet said with its noun: "I'm on a keto diet" (``_ON_DIET``), or said not to have
    lasted ("my vegan phase didn't last", ``_DIET_OVER``), whose own negation is the only one
    of the part."""
    for m, s in matches(ctx, _ON_DIET):
        label = _label(m.group("diet") or m.group("bare"))
        if m.group("neg"):
            still = CESSATION_TAIL.search(ctx.text) or "longer" in m.group("neg")
            if still or re.match(r"\W*$", ctx.text[m.end() :]):  # not "I'm not on a keto diet today"
                yield fact(ctx, s, f"{s} is not on {article(label)} {label} diet{' anymore' if still else ''}", "diet",
                           label, polarity="negative", confidence=0.8)
        elif not ctx.part.negated and not experiential_state(ctx, m):
            yield from _keeps(ctx, s, f"{s} is on {article(label)} {label} diet", label, stated_start(ctx, m))
    speaker = ctx.turn.speaker
    for m in openings(ctx, _DIET_OVER, anywhere=True):
        elsewhere = f"{ctx.text[: m.start()]} {ctx.text[m.end():]}"
        sentence = f"{ctx.sentence_before(m.start())} {ctx.sentence_after(m.end())}"
        # "The vegetarian thing didn't last", said of no one else: the speaker's own.
        mine = m.group("det").lower() == "my" or not (ctx.persons or _SOMEONE_ELSE.search(sentence))
        if not speaker or not mine or negations(elsewhere):
            continue
        label = _label(m.group("diet"))
        said = " ".join(m.group(0)[m.start("diet") - m.start():].split())
        yield fact(ctx, speaker, f"{possessive(speaker)} {said}", "diet", label, polarity="negative",
                   valid_from=past_date(ctx), confidence=0.8)


def _keeps(ctx: Ctx, s: str, said: str, label: str, began: datetime | None) -> Iterator[CandidateFact]:
    """The diet ``label`` from ``began`` and, besides the label's own value (no meat; no animal
    products), what it implies (``_implied``: fish, which a pescatarian eats and a vegetarian or
    a vegan does not)."""
    yield fact(ctx, s, said, "diet", label, valid_from=began, confidence=0.85)
    for value, polarity in _implied(label):
        yield fact(ctx, s, said, "diet", value, polarity=polarity, valid_from=began, confidence=0.85)


def _implied(label: str) -> list[tuple[str, Polarity]]:
    """The values a diet label implies besides its own (the registry's ``implied``):
    pescatarian → fish; vegetarian → no fish; vegan → no fish, no meat."""
    return [(i.value, i.polarity) for i in get_attribute("diet").implied if i.surface == label]


def _label(raw: str) -> str:
    label = raw.lower()
    return "pescatarian" if label == "pescetarian" else label
