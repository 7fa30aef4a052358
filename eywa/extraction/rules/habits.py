"""Habits (smoking, vaping), and drinking as the diet's ``alcohol``, with their ends.

"I smoke a pack a day", "I'm a smoker", "I still vape" are the habit, positive; "I don't
smoke", "I'm a non-smoker", "I quit smoking", "I gave up cigarettes", "I stopped vaping last
year" are its value with negative polarity (dated when the clause dates it), so that "Does X
smoke?" is answered "no" once the speaker has stopped. "I stopped drinking", "I quit
alcohol" and "I don't drink." (nothing after it) are the diet's ``alcohol``, negative, the
value "teetotal" already means. Smoking food ("I smoke brisket") is no habit: the verb counts
only at the end of its clause or before how much or how often.
"""

from __future__ import annotations

from collections.abc import Iterator

from eywa.extraction.rules.clause import (
    A, ADV, BE, HAVE, SUBJ, Ctx, asserts, matches, past_date, plain, rule, stated_start,
)
from eywa.extraction.rules.phrasing import fact
from eywa.models import CandidateFact

_HOW = (
    r"(?=\s*(?:[.!;,]|$|\s+(?:a\s+pack|a\s+lot|cigarettes|cigars|every|daily|now|again|too|occasionally|socially"
    r"|sometimes|heavily|still|anymore|any\s+more)\b))"
)
_SMOKES = rule(rf"{SUBJ}\s+{ADV}(?P<verb>smoke|smokes|vape|vapes){_HOW}", "smoke smokes vape vapes")
_BEEN_SMOKING = rule(
    rf"{SUBJ}{HAVE}\s+{ADV}been\s+(?:a\s+)?{ADV}(?P<verb>smoking|vaping)"
    r"(?=\s*(?:[.!;,]|$|\s+(?:for|since|every|daily|a\s+pack|a\s+lot|heavily|again)\b))",
    "smoking vaping",
)
""""I've been smoking for twenty years": the habit, positive, held since the start it states
(``stated_start``: twenty years before the day said); not "I've been smoking brisket"."""
_SMOKER = rule(
    rf"{SUBJ}{BE}\s+{ADV}(?:a\s+)?(?P<neg>non-?\s*|ex-?\s*|former\s+)?(?:heavy\s+|light\s+|social\s+|chain\s+|pack-a-day\s+)?"
    r"(?P<kind>smoker|vaper)\b",
    "smoker vaper",
)
_NO_SMOKE = rule(
    rf"{SUBJ}\s+{ADV}(?:do\s+not|does\s+not|don{A}t|doesn{A}t|never|no\s+longer)\s+(?:really\s+)?(?:ever\s+)?"
    rf"(?P<verb>smoke|vape){_HOW}",
    "smoke vape",
)
_QUIT = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?P<verb>quit|stopped|gave\s+up|kicked)\s+(?:the\s+)?(?P<what>smoking|vaping|cigarettes|cigs)\b",
    "smoking vaping cigarettes cigs",
)
_QUIT_DRINKING = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?P<verb>quit|stopped|gave\s+up)\s+(?P<what>drinking|booze)"
    r"(?=\s*(?:[.!;,]|$|\s+(?:alcohol|completely|entirely|altogether|for\s+good|last|this|in|on|a|two|three|after|when)\b))",
    "drinking booze",
)
_NO_DRINK = rule(
    rf"{SUBJ}\s+{ADV}(?:do\s+not|does\s+not|don{A}t|doesn{A}t|no\s+longer)\s+drink(?:\s+alcohol)?"
    r"(?=\s*(?:[.!;]|$|,\s+(?:but|so|and)\b|\s+(?:anymore|any\s+more|at\s+all)\b))",
    "drink",
)
_VALUE = {"smoke": "smoking", "smokes": "smoking", "smoker": "smoking", "smoking": "smoking", "cigarettes": "smoking",
          "cigs": "smoking", "vape": "vaping", "vapes": "vaping", "vaper": "vaping", "vaping": "vaping"}  # fmt: skip


def habits(ctx: Ctx) -> Iterator[CandidateFact]:
    """The habit facts of one part (and drinking, for the diet)."""
    if not plain(ctx):
        return
    for m, s in matches(ctx, _NO_SMOKE):
        verb = m.group("verb")
        yield fact(ctx, s, f"{s} does not {verb}", "habits", _VALUE[verb], polarity="negative", confidence=0.85)
    for m, s in matches(ctx, _NO_DRINK):
        yield fact(ctx, s, f"{s} does not drink", "diet", "alcohol", polarity="negative", confidence=0.8)
    if ctx.part.negated:
        return
    for m, s in matches(ctx, _QUIT):
        verb, what = " ".join(m.group("verb").split()), m.group("what")
        yield fact(ctx, s, f"{s} {verb} {what}", "habits", _VALUE[what], polarity="negative",
                   valid_from=past_date(ctx, m), confidence=0.85)
    for m, s in matches(ctx, _QUIT_DRINKING):
        verb, what = " ".join(m.group("verb").split()), m.group("what")
        yield fact(ctx, s, f"{s} {verb} {what}", "diet", "alcohol", polarity="negative",
                   valid_from=past_date(ctx, m), confidence=0.8)
    for m, s in matches(ctx, _SMOKER):
        kind = m.group("kind")
        if m.group("neg"):
            said = "former " if m.group("neg").strip().rstrip("-") in {"ex", "former"} else "non-"
            yield fact(ctx, s, f"{s} is a {said}{kind}", "habits", _VALUE[kind], polarity="negative", confidence=0.8)
        else:
            yield fact(ctx, s, f"{s} is a {kind}", "habits", _VALUE[kind], confidence=0.85)
    if asserts(ctx):
        for m, s in matches(ctx, _SMOKES):
            verb = m.group("verb")
            said = verb if verb.endswith("s") else f"{verb}s"
            yield fact(ctx, s, f"{s} {said}", "habits", _VALUE[verb], confidence=0.85)
        for m, s in matches(ctx, _BEEN_SMOKING):
            verb = m.group("verb")
            yield fact(ctx, s, f"{s} has been {verb}", "habits", _VALUE[verb], valid_from=stated_start(ctx, m),
                       confidence=0.85)
