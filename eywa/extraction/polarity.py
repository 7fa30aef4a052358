"""The polarity and modality checks of the validator: negation, cessation and hedges kept.

A clause reads *negative* for some words when it is negated ("I don't eat meat", "I no
longer live in Paris") or when a cessation cue ends those words ("I quit pottery", "I left
Google and joined Fernbrook" ends Google only; see ``eywa.cessation``). A negation right
before a cessation cancels both ("I never quit pottery" is positive).

A candidate must read the same way as its supporting clause, twice over when it has a value:

* its **statement**, read the same way (negation anywhere in it, or a cessation of the
  value's words), must agree with the clause;
* its **structured claim** (value, polarity) must agree too: the value is looked for in the
  evidence under each of its surface forms (``eywa.attributes.value_surfaces``: (meat,
  negative) may be said "I don't eat meat" or "I'm vegetarian"), and the polarity that
  surface must carry is compared with how the clause reads for that surface's words.

Cessation counts for attributes whose values are states that end (``cessation_ends`` in the
registry: employer, residence, hobbies, pets, diet, ...), not for events, plans or lasting
facts ("Ana quit her job" is a positive life event) nor for attributes the registry does not
know. So "Ana quit pottery" as (hobbies, pottery, negative) is accepted on "I quit pottery, it
was too messy", (hobbies, pottery, positive) is a ``polarity_flip``, and the double negative
(diet, "no meat", negative), canonicalised to (meat, positive), is a ``polarity_flip`` on "I
don't eat meat". Modality: a hedged, planned or questioned clause ("I might quit pottery")
must not be claimed as asserted (``modality_lost``); its polarity is judged as above.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from eywa.cessation import cessations, ends_any
from eywa.extraction.text import Clause, holds_word, splice_segment, trailing_contrast
from eywa.models import CandidateFact, CheckScore, Polarity, Signal, SignalKind
from eywa.signals.cues import negations

HEDGE = re.compile(
    r"\b(?:might|may|maybe|perhaps|possibly|probably|likely|unsure|not\s+sure|i\s+guess|i\s+think"
    r"|could|would|should|wonder(?:ing)?|if|unless|whether|suppose|supposedly|hopefully)\b",
    re.IGNORECASE,
)
PLAN = re.compile(
    r"\b(?:plan(?:s|ning|ned)?\s+to|going\s+to|gonna|want(?:s|ed)?\s+to|hop(?:e|es|ing)\s+to"
    r"|intend(?:s|ing)?\s+to|thinking\s+(?:about|of)|consider(?:s|ing)?|about\s+to|aim(?:s|ing)?\s+to"
    r"|would\s+(?:like|love)\s+to|someday|one\s+day|dream(?:s|ing)?\s+(?:of|about))\b",
    re.IGNORECASE,
)

# "meat-free", "gluten free": the word before "free" is negated (as in canonical values).
_FREE_OF = re.compile(r"\b([A-Za-z][\w'’]*)(?:-|\s+)free\b", re.IGNORECASE)


@dataclass(frozen=True)
class Reading:
    """How a span of text reads for some words: negated, ended, or neither."""

    negated: bool
    ended: bool

    @property
    def negative(self) -> bool:
        """Negated or ended: a negative observation of those words."""
        return self.negated or self.ended

    def describe(self) -> str:
        """"negated", "ended", "negated and ended" or "positive"."""
        parts = [name for name, on in (("negated", self.negated), ("ended", self.ended)) if on]
        return " and ".join(parts) or "positive"


def read(
    text: str,
    words: Sequence[str],
    signals: Sequence[Signal],
    start: int = 0,
    end: int | None = None,
    *,
    pattern_too: bool = False,
    cessation: bool = True,
) -> Reading:
    """How ``text[start:end]`` reads for ``words``.

    Negation comes from the text's NEGATION signals; from the validator's own pattern when
    there are no signals at all (a turn stored without them) or ``pattern_too`` (a
    candidate's statement, where either source counts). ``cessation=False`` reads negation
    only (for attributes whose values do not end, see ``AttributeSpec.cessation_ends``).
    """
    stop = len(text) if end is None else end
    cues = cessations(text) if cessation else []
    cancelled = [c.cancelled_by for c in cues if start <= c.start < stop and c.cancelled_by]
    spans = [(s.start, s.end) for s in signals if s.kind is SignalKind.NEGATION and start <= s.start < stop]
    if pattern_too or not signals:
        spans += [span for span in negations(text) if start <= span[0] < stop]
    negated = any(not any(a < e and s < b for a, b in cancelled) for s, e in spans)
    wanted = {w.casefold() for w in words}
    negated = negated or any(
        m.group(1).casefold() in wanted for m in _FREE_OF.finditer(text) if start <= m.start() < stop
    )
    return Reading(negated=negated, ended=cessation and ends_any(text, words, start=start, end=stop))


def value_segment(
    evidence_text: str, clause: Clause, claim_words: Sequence[str], surface: tuple[Sequence[str], Polarity] | None
) -> tuple[int, int]:
    """The span of ``clause`` a claim is read in: "I don't live in Leeds anymore, I moved to
    York", "I don't eat meat and I love hiking": York's and hiking's polarity (and hedges) are
    read in their own first-person clause, as the rule extractor reads its parts."""
    value_words = list(surface[0]) if surface is not None and surface[0] else []
    return splice_segment(evidence_text, clause.start, clause.end, value_words or list(claim_words))


def polarity_check(
    fact: CandidateFact,
    evidence_text: str,
    evidence_signals: Sequence[Signal],
    clause: Clause,
    statement_signals: Sequence[Signal],
    claim_words: Sequence[str],
    surface: tuple[Sequence[str], Polarity] | None,
    cessation: bool = True,
) -> CheckScore:
    """Whether the candidate keeps the polarity of its supporting clause (module docstring).

    ``surface`` is the value as found in the evidence (its words and the polarity it must be
    said with); None for a candidate without a value. ``cessation`` is whether cessation
    cues count (both sides are read alike either way).
    """
    value_words = list(surface[0]) if surface is not None and surface[0] else []
    targets = value_words or list(claim_words)
    start, end = value_segment(evidence_text, clause, claim_words, surface)
    # "I work at Initech, not Globex": the trailing contrast's negation is not Initech's.
    if (contrast := trailing_contrast(evidence_text, start, end)) is not None and not holds_word(
        evidence_text[contrast:end], targets
    ):
        end = contrast
    evidence = read(evidence_text, targets, evidence_signals, start, end, cessation=cessation)
    statement = read(fact.statement, targets, statement_signals, pattern_too=True, cessation=cessation)
    failures: list[str] = []
    if surface is None or not value_words:
        claimed_negative = fact.polarity == "negative" or statement.negative
        if claimed_negative != evidence.negative:
            failures.append(f"candidate {'negative' if claimed_negative else 'positive'}")
    else:
        expected_negative = surface[1] == "negative"
        if expected_negative != evidence.negative:
            failures.append(f"value {' '.join(value_words)!r} claimed {surface[1]}")
        if statement.negative != evidence.negative:
            failures.append(f"statement {statement.describe()}")
    detail = f"evidence {evidence.describe()}" + (f"; {', '.join(failures)}" if failures else "")
    return CheckScore(name="polarity", score=0.0 if failures else 1.0, passed=not failures, detail=detail)


_CONDITIONAL = re.compile(r"\b(?:if|unless)\b", re.IGNORECASE)


def modality_check(
    fact: CandidateFact,
    clause: Clause,
    clause_signals: Sequence[Signal],
    use_signals: bool,
    claim_signals: Sequence[Signal],
    segment: tuple[int, int] | None = None,
) -> CheckScore:
    """A hedged, planned or questioned clause must not be claimed as asserted.

    ``segment`` (in turn offsets, ``value_segment``) is the part of the clause the claim is
    read in: a hedge or a plan counts there only ("I love hiking and I might move": hiking is
    asserted), a conditional anywhere before it too ("If I move, I will love hiking")."""
    start, end = segment if segment is not None else (clause.start, clause.end)
    text = clause.text[start - clause.start : end - clause.start]
    before = clause.text[: start - clause.start]
    ev_hedged = (
        (any(s.kind is SignalKind.HEDGE and start <= s.start < end for s in clause_signals)
         if use_signals else bool(HEDGE.search(text)))
        or bool(_CONDITIONAL.search(before))
        or bool(PLAN.search(text))
        or clause.is_question
    )  # fmt: skip
    claim_hedged = (
        fact.modality != "asserted"
        or any(s.kind is SignalKind.HEDGE for s in claim_signals)
        or bool(HEDGE.search(fact.statement))
        or bool(PLAN.search(fact.statement))
    )
    lost = ev_hedged and not claim_hedged
    return CheckScore(
        name="modality",
        score=0.0 if lost else 1.0,
        passed=not lost,
        detail="the evidence is hedged, planned or a question; the candidate asserts it" if lost else "",
    )
