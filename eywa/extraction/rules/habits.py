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

import re
from collections.abc import Iterator
from datetime import datetime

from eywa.extraction.anchors import duration_back
from eywa.extraction.rules.clause import (
    A, ADV, BE, HAVE, SUBJ, Ctx, asserts, experiential_state, matches, past_date, plain, rule, stated_start,
)
from eywa.extraction.rules.phrasing import fact
from eywa.models import CandidateFact, SignalKind

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
_AGAIN = rule(
    rf"{SUBJ}(?:(?:{HAVE})?\s+{ADV}(?:started|began|took\s+up|picked\s+up)\s+|{BE}\s+{ADV})"
    r"(?P<what>smoking|vaping)\s+again\b",
    "smoking vaping",
)
_BACK_ON = rule(
    rf"{SUBJ}{BE}\s+{ADV}back\s+(?:to|on)\s+(?P<what>smoking|vaping|cigarettes|cigs)(?:\s+again)?(?=\s*(?:[.!;,]|$))",
    "smoking vaping cigarettes cigs",
)
""""I started smoking again", "I'm smoking again", "I'm back on cigarettes": the habit taken up
again after an end, positive from when it is said (a later word than "I quit smoking", so the
dimension changes back)."""
_SMOKER = rule(
    rf"{SUBJ}{BE}\s+{ADV}(?:a\s+|an\s+(?=ex))?(?P<neg>non-?\s*|ex-?\s*|former\s+)?(?:heavy\s+|light\s+|social\s+|chain\s+|pack-a-day\s+)?"
    r"(?P<kind>smoker|vaper)\b",
    "smoker vaper nonsmoker nonvaper",
)
_NO_SMOKE = rule(
    rf"{SUBJ}\s+{ADV}(?:do\s+not|does\s+not|don{A}t|doesn{A}t|never|no\s+longer)\s+(?:really\s+)?(?:ever\s+)?"
    rf"(?P<verb>smoke|vape){_HOW}",
    "smoke vape",
)
_NOT_SINCE = rule(
    rf"{SUBJ}(?:\s+(?:have|has)\s+not|{A}ve\s+not|\s+haven{A}t|\s+hasn{A}t|{A}s\s+not)\s+{ADV}(?:(?P<verb>smoked|vaped)"
    rf"|(?:had|touched)\s+(?:a\s+)?(?P<what>cigarettes?|cigs?|vape))\s+(?P<when>in|for|since)\s+(?!(?:a\s+)?while\b)",
    "smoked vaped cigarette cigarettes cig cigs vape",
)
""""I haven't smoked in six months", "I haven't had a cigarette since May": no longer smoking
(not "I haven't smoked in a while", which says nothing of now)."""
_QUIT = rule(
    rf"{SUBJ}(?:{HAVE})?\s+{ADV}(?P<verb>quit|stopped|gave\s+up|kicked)\s+(?:the\s+)?(?P<what>smoking|vaping|cigarettes|cigs)\b",
    "smoking vaping cigarettes cigs",
)
_USED_TO = rule(
    rf"{SUBJ}\s+{ADV}used\s+to\s+(?:(?P<verb>smoke|vape)(?:\s+cigarettes)?|be\s+(?:a\s+)?"
    r"(?:heavy\s+|light\s+|social\s+|chain\s+)?(?P<kind>smoker|vaper))"
    r"(?=\s*(?:[.!;,]|$|\s+(?:but|and|a\s+lot|heavily|for|until|when|before|back|in|as)\b))",
    "used",
)
""""I used to smoke", "I used to be a heavy smoker": a habit given up (the validator reads
"used to" as its end), as "I'm an ex-smoker" is."""
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
_SOBER = rule(
    rf"{SUBJ}(?:{BE}|{HAVE}\s+{ADV}been)\s+{ADV}(?:completely\s+|totally\s+|fully\s+)?(?P<word>sober|teetotal)\b"
    r"(?!\s+(?:enough|now\s+that|that|when|at|for\s+the\s+(?:night|evening|day|drive)|tonight)\b)",
    "sober teetotal",
)
""""I'm sober", "I've been sober for two years": no alcohol (since then; not "sober enough to
drive", a moment)."""
_SMOKE_FREE = rule(
    rf"{SUBJ}(?:{BE}|{HAVE}\s+{ADV}been)\s+{ADV}(?:completely\s+|totally\s+)?(?P<what>smoke|vape)[-\s]free\b"
    r"(?!\s+(?:zone|area|environment|building|home|house|restaurant|venue)\b)",
    "smoke vape",
)
""""I've been smoke-free for three months", "I'm vape-free": no longer smoking or vaping (since
then; not "a smoke-free zone")."""
_VALUE = {"smoke": "smoking", "smokes": "smoking", "smoker": "smoking", "smoking": "smoking", "cigarettes": "smoking",
          "cigs": "smoking", "vape": "vaping", "vapes": "vaping", "vaper": "vaping", "vaping": "vaping"}  # fmt: skip


def _not_since(ctx: Ctx, m: re.Match[str]) -> datetime | None:
    """When a habit not kept "in six months" / "for a year" / "since May" stopped: the turn's
    time less the length, or the date (none for a vague one, "in years")."""
    at = ctx.part.start + m.end()
    for signal in ctx.turn.signals:
        if signal.start == at and signal.kind is SignalKind.DURATION and m.group("when") != "since":
            return duration_back(ctx.turn.observed_at, signal.normalized or "")
        if signal.start == at and signal.kind is SignalKind.DATE and m.group("when") == "since":
            start = signal.window_start
            return start if start is not None and start <= ctx.turn.observed_at else None
    return None


def habits(ctx: Ctx) -> Iterator[CandidateFact]:
    """The habit facts of one part (and drinking, for the diet)."""
    if ctx.part.hedged or ctx.part.hypothetical:
        return
    if not ctx.part.negated:
        for m, s in matches(ctx, _USED_TO):  # a past habit: the one reading that wants it
            said = f"used to {m.group('verb')}" if m.group("verb") else f"used to be a {m.group('kind')}"
            yield fact(ctx, s, f"{s} {said}", "habits", _VALUE[m.group("verb") or m.group("kind")],
                       polarity="negative", confidence=0.8)
    if not plain(ctx):
        return
    for m, s in matches(ctx, _NO_SMOKE):
        verb = m.group("verb")
        yield fact(ctx, s, f"{s} does not {verb}", "habits", _VALUE[verb], polarity="negative", confidence=0.85)
    for m, s in matches(ctx, _NOT_SINCE):
        what = "vaping" if "vap" in m.group(0) else "smoking"
        done = m.group("verb") or f"had a {m.group('what')}"
        when = ctx.text[m.start("when") :].split(",")[0].strip(" .!?")  # "in six months"
        yield fact(ctx, s, f"{s} has not {done} {when}", "habits", what, polarity="negative",
                   valid_from=_not_since(ctx, m), confidence=0.8)
    for m, s in matches(ctx, _NO_DRINK):
        yield fact(ctx, s, f"{s} does not drink", "diet", "alcohol", polarity="negative", confidence=0.8)
    if ctx.part.negated:
        return
    for m, s in matches(ctx, _QUIT):
        verb, what = " ".join(m.group("verb").split()), m.group("what")
        yield fact(ctx, s, f"{s} {verb} {what}", "habits", _VALUE[what], polarity="negative",
                   valid_from=past_date(ctx, m), confidence=0.85)
    for m, s in matches(ctx, _SMOKE_FREE):
        if not experiential_state(ctx, m):  # "I've been smoke-free" alone: once, not now
            what = m.group("what").lower()
            yield fact(ctx, s, f"{s} is {what}-free", "habits", _VALUE[what], polarity="negative",
                       valid_from=stated_start(ctx, m), confidence=0.8)
    for m, s in matches(ctx, _SOBER):
        if not experiential_state(ctx, m):  # "I've been sober" alone: once, not now
            yield fact(ctx, s, f"{s} is {m.group('word')}", "diet", "alcohol", polarity="negative",
                       valid_from=stated_start(ctx, m), confidence=0.8)
    for m, s in matches(ctx, _QUIT_DRINKING):
        verb, what = " ".join(m.group("verb").split()), m.group("what")
        yield fact(ctx, s, f"{s} {verb} {what}", "diet", "alcohol", polarity="negative",
                   valid_from=past_date(ctx, m), confidence=0.8)
    for m, s in matches(ctx, _SMOKER):
        kind = m.group("kind")
        if m.group("neg"):
            neg = m.group("neg").strip().rstrip("-")
            # As the turn says it: "an ex smoker" is read as one surface (the registry's
            # synonym), which a hyphen in the statement alone would read as an end.
            joint = "-" if "-" in m.group("neg") or not m.group("neg")[-1:].isspace() else " "
            said = {"ex": f"an ex{joint}", "former": "a former "}.get(neg, f"a non{joint}")
            yield fact(ctx, s, f"{s} is {said}{kind}", "habits", _VALUE[kind], polarity="negative", confidence=0.8)
        else:
            yield fact(ctx, s, f"{s} is a {kind}", "habits", _VALUE[kind], confidence=0.85)
    if asserts(ctx):
        for m, s in matches(ctx, _SMOKES):
            verb = m.group("verb")
            said = verb if verb.endswith("s") else f"{verb}s"
            yield fact(ctx, s, f"{s} {said}", "habits", _VALUE[verb], confidence=0.85)
        for m, s in matches(ctx, _AGAIN) + matches(ctx, _BACK_ON):
            what = m.group("what")
            said = " ".join(ctx.text[m.end("subj") : m.end()].split())
            yield fact(ctx, s, f"{s} {said}", "habits", _VALUE[what], valid_from=past_date(ctx, m), confidence=0.85)
        for m, s in matches(ctx, _BEEN_SMOKING):
            verb = m.group("verb")
            yield fact(ctx, s, f"{s} has been {verb}", "habits", _VALUE[verb], valid_from=stated_start(ctx, m),
                       confidence=0.85)
