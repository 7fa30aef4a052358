"""NEGATION, HEDGE, DECISION and CORRECTION cues: the words that change what a turn asserts.

The validator uses them to keep polarity and modality ("might move to Paris" is not
"moved to Paris"), and the dimension update raises its hazard when a turn carries a
correction. Cues may overlap each other ("no longer" is both a negation and a change) and
other signals, so they claim no spans.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from eywa.models import Signal, SignalKind
from eywa.signals._text import word_set

_A = r"['’]"  # straight or curly apostrophe

NEGATION: Final = re.compile(
    r"\b(?:not|never|no\s+longer|no(?!\.?\s*#?\d)|none|nobody|nothing|nowhere"
    rf"|neither|nor|without|cannot|(?:do|does|did|is|are|was|were|have|has|had|would|could|should|ca|wo)nt)\b"
    rf"|(?<=[a-z])n{_A}t\b",
    re.IGNORECASE,
)
"""The one negation finder: the NEGATION signal, the rules extractor's negated clause and
the validator's own reading (``eywa.extraction.polarity``) all use it, so they agree on
what negates ("no" before a number is a number: "no. 5", "no #3"), typed without the
apostrophe too ("i dont eat meat")."""

_NOT_A_CHANGE = (
    r"(?:just|still|not|also|so|really|too|very|right|here|there|home|back|done|ready|good|fine|ok|okay|busy"
    r"|tired|happy|excited|free|off|on|out|up|going|leaving|heading|waiting|at|in|with|near|from)"
)
"""What after "I'm" says a moment or a whereabouts, not a state changed ("I'm so tired now",
"I'm off now", "I'm at Heathrow now": where one is, not where one works or lives)."""
_SAID_OF_NOW = r"[^.!?;,]{1,40}?\s+now(?=\s*(?:[.!;,]|$))"
"""The rest of a clause that ends on "now" (a state said of now)."""

_CUES: tuple[tuple[SignalKind, re.Pattern[str]], ...] = (  # each with its _KEYWORDS
    (SignalKind.NEGATION, NEGATION),
    (
        SignalKind.HEDGE,
        re.compile(
            r"\b(?:might|maybe|perhaps|probably|possibly|likely|unlikely|could|may"
            r"|i\s+think|i\s+guess|i\s+suppose|i\s+believe|not\s+sure|unsure|not\s+certain"
            r"|kind\s+of|sort\s+of|considering|thinking\s+(?:about|of))\b",
            re.IGNORECASE,
        ),
    ),
    (
        SignalKind.DECISION,
        re.compile(
            r"\b(?:i\s+(?:have\s+|just\s+|finally\s+)?decided|we\s+(?:have\s+)?decided"
            rf"|decided\s+to|(?:i|we){_A}ve\s+(?:decided|chosen)|i\s+chose|we\s+chose"
            rf"|i{_A}m\s+going\s+to|i\s+am\s+going\s+to|we{_A}re\s+going\s+to"
            rf"|we\s+are\s+going\s+to|(?:i|we)\s+will|(?:i|we){_A}ll"
            r"|planning\s+(?:to|on)|plans?\s+to|gonna|made\s+up\s+my\s+mind"
            r"|committed\s+to|signed\s+up\s+for)\b",
            re.IGNORECASE,
        ),
    ),
    (
        SignalKind.CORRECTION,
        re.compile(
            r"\b(?:actually|no\s+longer|not\s+anymore|anymore|i\s+moved|(?:just\s+)?moved\s+"
            r"(?:to|back|out|into|in)|i\s+quit|quit\s+my|just\s+started|started\s+a\s+new"
            # "I started working for Initech", "I started a job at Hooli", "I started at Globex":
            # a new job, so the one said before has ended (not "the film started at eight"; the
            # name after "at" is looked at, not taken: a cue inside a name's span is no cue).
            r"|started\s+work(?:ing)?\s+(?:[\w-]+\s+){0,2}?(?:at|for|with)|started\s+(?:a|my)\s+job"
            r"|started\s+at(?=\s+(?-i:[A-Z]))"
            r"|switched\s+to|changed\s+my\s+mind|used\s+to|now\s+work(?:ing|s)?\s+at"
            # "I live in Leeds now", "I work at Initech now", "I'm a manager now": a state said of
            # now at the end of its clause has changed. The cue is the subject and its verb, the
            # rest only looked at (a cue overlapping a name's span is none); not a feeling or a
            # whereabouts ("I'm so happy now", "I'm home now", "I'm at Heathrow now"), nor
            # "still" or "not".
            rf"|(?<![\w'’])(?:i|we)(?:{_A}m|{_A}re|\s+(?:am|are))(?=\s+(?!{_NOT_A_CHANGE}\b){_SAID_OF_NOW})"
            rf"|(?<![\w'’])(?:i|we)\s+(?:live|work)(?=\s+(?!(?:just|still|not|also)\b){_SAID_OF_NOW})"
            # "I switched jobs, I'm at Initech now", "we relocated to Austin": the job or the home
            # said before has ended.
            r"|(?:switched|changed)\s+(?:jobs|careers|companies|employers)|relocat(?:ed|ing)\s+(?:to|back)"
            # "Nope, I left in May" (a reply to "Are you still at Globex?"): what was asked ended.
            r"|i\s+(?:just\s+|already\s+)?left(?=\s+(?:in|last|this|back|a\s+(?:while|year|month|week)|\w+\s+ago|recently)\b"
            r"|\s*[.!]|\s*$)"
            r"|new\s+job|(?:got|found|landed)\s+(?:a|the)\s+job|(?:got|get|was|been)\s+hired"
            # "I started eating fish again", "I eat meat again", "smoking again": a habit or a
            # food given up is back, so what was said of it before has ended.
            r"|(?:eat|eats|eating|ate|drink|drinks|drinking|drank|smoke|smokes|smoking|vape|vapes|vaping)\s+(?:\w+\s+){0,2}?again"
            # "I eat meat now", "I eat fish these days": a food's habit said of now, a change.
            r"|(?:eat|eats)\s+(?:\w+\s+){0,2}?(?:now|these\s+days|nowadays)(?=\s*(?:[.!;,]|$))"
            # "I got promoted to captain": the title held before has ended.
            r"|(?:got|get|gets|was|were|been|being)\s+promoted"
            # "The wedding's off", "our wedding was cancelled": the engagement said before has ended.
            rf"|wedding(?:{_A}s|\s+is|\s+was|\s+has\s+been)\s+(?:(?:officially|definitely|now|sadly)\s+)?"
            r"(?:off|cancell?ed|canceled|called\s+off)(?=\s*(?:[.!;,]|$|\s+(?:now|for\s+good|last|this|on|in|yesterday|today)\b))"
            # "I'm back on cigarettes": a habit given up is back.
            r"|back\s+(?:on|to)\s+(?:cigarettes|cigs|smoking|vaping)"
            # "I haven't smoked in six months", "… had a cigarette since May": a habit given up.
            rf"|(?:haven{_A}t|hasn{_A}t|have\s+not|has\s+not|{_A}ve\s+not)\s+(?:smoked|vaped|had\s+a\s+(?:cigarette|cig))"
            r"(?=\s+(?:in|for|since)\s+(?!(?:a\s+)?while\b))"
            # "The vegetarian thing didn't last", "I fell off the keto wagon", "I'm done with being
            # vegan": a diet or a habit kept before has ended.
            rf"|(?:thing|phase|diet|streak|experiment|kick|habit|lifestyle)\s+(?:didn{_A}t|did\s+not|never)\s+last(?:ed)?\b"
            r"|f(?:ell|allen)\s+off\s+the\s+[\w-]+\s+wagon|done\s+with\s+being"
            # "We're settling in nicely in Porto": a home just moved into.
            r"|settl(?:ing|ed)\s+in(?:to)?"
            # "Just got the keys to our new home in York!", "Loving my new flat": the speaker's
            # new home, so the one said before has ended (not "Tom's new flat", "a new house").
            r"|(?<![\w'’])(?:my|our)\s+(?:brand[\s-]+)?new\s+(?:home|house|flat|apartment|place|condo|digs)"
            r"|instead|i\s+meant|correction|turns\s+out)\b",
            re.IGNORECASE,
        ),
    ),
)
_KEYWORDS: dict[SignalKind, frozenset[str]] = {
    SignalKind.NEGATION: frozenset(
        """not never no none nobody nothing nowhere neither nor without cannot t dont doesnt didnt isnt arent wasnt
        werent havent hasnt hadnt wouldnt couldnt shouldnt cant wont""".split()
    ),
    SignalKind.HEDGE: frozenset(
        """might maybe perhaps probably possibly likely unlikely could may think guess suppose
        believe sure unsure certain kind sort considering thinking""".split()
    ),
    SignalKind.DECISION: frozenset(
        "decided chose chosen going will ll planning plan plans gonna mind committed signed".split()
    ),
    SignalKind.CORRECTION: frozenset(
        """actually longer anymore moved quit started switched changed relocated relocating left mind used work
        working works job hired again instead meant correction turns settling settled back smoked vaped cigarette
        cig last lasted wagon being now days nowadays promoted wedding new""".split()
    ),
}
"""Words one of which must occur for a cue family to be searched at all (a cheap gate)."""
_NORMALIZED = {
    SignalKind.NEGATION: "negation",
    SignalKind.HEDGE: "hedge",
    SignalKind.DECISION: "decision",
    SignalKind.CORRECTION: "correction",
}


_INTERJECTION_BEFORE = re.compile(r"(?:^|[.!?…]\s*)(?:haha+|hah|lol|oh|ah|well|um+|uh+|hmm+|nah|no)[,!]?$", re.IGNORECASE)
"""What may open a sentence before its answering "No" ("Haha no, …", "Oh, no! …", "No no, …")."""
_ANOTHER_NO = re.compile(r"no\b", re.IGNORECASE)
"""A "No" said twice ("No no, …"): the first answers as the second does."""


def answers_no(text: str, start: int, end: int) -> bool:
    """Whether the cue ``text[start:end]`` is a sentence-opening "No," ("No!", "No —"), an
    interjection before it allowed ("Haha no,", "Well, no,"): an answer to what another
    speaker asked or said ("Do you still live in Paris?" "No, I moved to Lyon."), not a
    negation of the sentence it opens."""
    before, after = text[:start].rstrip(), text[end:].lstrip()
    return (
        text[start:end].casefold() == "no"
        and (not before or before[-1] in ".!?…" or _INTERJECTION_BEFORE.search(before) is not None)
        and (after[:1] in {",", "!", "—", "–"} or _ANOTHER_NO.match(after) is not None)
    )


def negations(text: str) -> list[tuple[int, int]]:
    """The spans of ``text``'s negations (``NEGATION``), an opening "No," answering another
    speaker left out (``answers_no``)."""
    return [m.span() for m in NEGATION.finditer(text) if not answers_no(text, *m.span())]


def detect_cues(
    text: str, taken: Sequence[tuple[int, int]], words: frozenset[str] | None = None
) -> list[Signal]:
    """Negation, hedge, decision and correction cues of ``text``.

    A cue inside a claimed span is not a cue: "May" in "May 2023" is a month, not the
    modal verb. ``taken`` is read, never extended. ``words`` is ``word_set(text)`` if the
    caller already has it.
    """
    words = word_set(text) if words is None else words
    found: list[Signal] = []
    for kind, pattern in _CUES:
        if _KEYWORDS[kind].isdisjoint(words):
            continue
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(start < t_end and t_start < end for t_start, t_end in taken):
                continue
            if kind is SignalKind.NEGATION and answers_no(text, start, end):
                continue
            found.append(
                Signal(
                    kind=kind,
                    text=match.group(0),
                    start=start,
                    end=end,
                    normalized=_NORMALIZED[kind],
                )
            )
    return found
