"""From a validated belief to an observation of a dimension.

Every accepted belief of the form (subject, attribute, value) is one observation. This module
decides the three numbers the math needs besides the value: *when* it was observed (event
time), *how reliable* it is (ρ) and whether its evidence announces a *change*.

Event time. A belief valid from some date and still open (no ``valid_to``) is placed at the
time it was *said*, not at its start: "I have worked at Google since 2015", said in 2023,
certifies Google up to 2023, and placing it in 2015 would let eight years of decay erase it.
A bounded or future validity (``valid_to`` set, or ``valid_from`` after the statement) is
placed at ``valid_from``; a dated event at ``event_at``; otherwise the time the cited turns
were observed, and as a last resort the time the belief was recorded.

Stated start. What the open-ended belief says about its start is not lost: the observation
carries it (``valid_from``, only when it is before the event time), and a dimension reports
it as ``since`` ("Google since 2015", not since the day it was said; ``eywa.nous.engine.Held``)
while its math runs on the event time.

Change. The hazard is raised when a cited turn carries a correction signal ("actually", "no
longer", "I moved"), when the value itself says the one before ended (the registry's
``change_values``: "I'm retired" ends the job), and when a negative belief is a cessation
of its own value ("I quit pottery", "I left Google", "our dog died"; see ``eywa.cessation``): the speaker says the
value stopped being true, so the confidence it had is released before the update instead of
being argued away by one report of equal weight. So does a negative belief that denies a
question it cites, put by someone else, asking whether its value *still* holds ("Do you
still work at Initech?" — "No."; "Are you at Initech anymore?"): asked of a value the asker
knew, a no says that value ended (``asked_if_still``). A plain negation ("I don't eat meat")
is not a change: said three times, it should accumulate; nor is a no to a question that
does not ask about now ("Do you work at Initech?" — "No." may say it never held). And so
does a positive belief of a single-valued attribute whose turn says its value began
("Initech hired me last week", "I joined Initech", "I married Tom": ``began``): one value at
a time, so the one held before ended, though no word of the turn names it. So does one
said of *now* as against before ("Now I'm dating Sam", "I'm now a nurse", "These days I work
at Globex": ``said_now``), not a moment ("right now", "for now"), a thought ("I know now …")
nor "still".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from pydantic import Field, field_validator

from eywa.cessation import begins_any, ends_any, said_of_now_any, same_stem
from eywa.models import Belief, Evidence, Frozen, Modality, Polarity, SignalKind, as_utc
from eywa.nous.params import DEFAULT_PARAMS, AttributeSpecLike, NousParams
from eywa.signals.cues import NEGATION

TENTATIVE: frozenset[Modality] = frozenset({"hedged", "planned", "hypothetical"})
"""Modalities that enter with low reliability and may never flip a single-valued mode."""

_SECOND_HAND_ROLES = frozenset({"assistant", "system"})
_VALUE_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’-]*")
_QUESTION = re.compile(r"[^.!?]*\?")
"""A sentence a question mark closes."""
_STILL = re.compile(r"\b(?:still|anymore|any\s+longer|any\s+more(?=\s*[?,]))\b", re.IGNORECASE)
"""The words that ask whether something goes on holding: "Do you still …?", "… anymore?",
"… any longer?", "… any more?" (at the end of its clause: not "any more cake?")."""


class Observation(Frozen):
    """One observation of (space, entity, attribute): the input of a dimension update."""

    space: str
    entity: str
    attribute: str
    value: str
    polarity: Polarity = "positive"
    modality: Modality = "asserted"
    at: datetime
    reliability: float = Field(gt=0.5, lt=1.0)
    change_signal: bool = False
    belief_id: str
    evidence_ids: tuple[str, ...] = ()
    valid_from: datetime | None = None
    """The start the belief states, when before ``at`` (see the module docstring)."""
    said_at: datetime | None = None
    """When the cited turns were said, when before ``at`` (a start said ahead): what a
    dimension's "last said" reports (``eywa.nous.describe``)."""

    @field_validator("at")
    @classmethod
    def _utc(cls, value: datetime) -> datetime:
        return as_utc(value)

    @field_validator("valid_from", "said_at")
    @classmethod
    def _utc_or_none(cls, value: datetime | None) -> datetime | None:
        return None if value is None else as_utc(value)

    @field_validator("entity", "value", "attribute")
    @classmethod
    def _collapse_whitespace(cls, value: str) -> str:
        collapsed = " ".join(value.split())
        if not collapsed:
            raise ValueError("must not be blank")
        return collapsed

    @property
    def tentative(self) -> bool:
        """Hedged, planned or hypothetical: may raise a value, never flip a mode on its own."""
        return self.modality in TENTATIVE


def reliability(
    score: float | None, modality: Modality, second_hand: bool, params: NousParams = DEFAULT_PARAMS
) -> float:
    """ρ of an observation from its validation score, modality and source.

    An asserted belief maps its validation score linearly onto [rho_min, rho_max] (no
    report: ``rho_default``); a tentative one gets at most ``rho_tentative``; second-hand
    statements keep only ``source_discount`` of their excess over 0.5.
    """
    if score is None:
        rho = params.rho_default
    else:
        clamped = min(max(score, 0.0), 1.0)
        rho = params.rho_min + (params.rho_max - params.rho_min) * clamped
    if modality in TENTATIVE:
        rho = min(rho, params.rho_tentative)
    if second_hand:
        rho = 0.5 + (rho - 0.5) * params.source_discount
    return rho


def event_time(belief: Belief, cited: Sequence[Evidence]) -> datetime:
    """When the belief was observed to hold (see the module docstring for the rule)."""
    stated = max((e.observed_at for e in cited), default=None)
    if belief.valid_from is not None:
        open_ended = belief.valid_to is None
        if open_ended and stated is not None and as_utc(belief.valid_from) <= as_utc(stated):
            return as_utc(stated)
        return as_utc(belief.valid_from)
    if belief.event_at is not None:
        return as_utc(belief.event_at)
    return as_utc(stated if stated is not None else belief.recorded_at)


def stated_start(belief: Belief, cited: Sequence[Evidence]) -> datetime | None:
    """The start an open-ended belief states before its event time ("since 2015" said in
    2023, "last week"), else None: a bounded or future validity is its event time already."""
    if belief.valid_from is None or belief.valid_to is not None:
        return None
    start = as_utc(belief.valid_from)
    return start if start < event_time(belief, cited) else None


def _value_words(belief: Belief) -> list[str]:
    """The words of a negative belief's value that can name it in a turn (three letters or
    more), else none: only a negative belief can say its value ended."""
    if belief.polarity != "negative" or not belief.value:
        return []
    return [w for w in _VALUE_WORD.findall(belief.value) if len(w) > 2]


def ended(belief: Belief, cited: Sequence[Evidence]) -> bool:
    """Whether a negative belief is a cessation of its value in one of the cited turns."""
    words = _value_words(belief)
    return bool(words) and any(ends_any(e.text, words) for e in cited)


def asked_if_still(belief: Belief, cited: Sequence[Evidence]) -> bool:
    """Whether a negative belief is the no to a question, among its cited turns, that asked
    whether its value still holds.

    The question is a sentence closed by "?" with a word that asks whether something goes on
    holding ("still", "anymore", "any longer") and a word of the value ("Do you still work at
    Initech?", "Still teaching?" for a teacher), and no negation: a no to "Are you still not
    eating meat?" or "Don't you still work there?" says nothing certain. Another cited turn,
    by someone else and not said before it, is the reply. Such a question is put about a
    value the asker knew held; its no says the value ended, as "Not anymore." does, where a
    no to "Do you work at Initech?" may only say it never held.
    """
    words = [w.casefold() for w in _value_words(belief)]
    if not words:
        return False
    for asked in cited:
        replied = any(
            e.id != asked.id and e.speaker and asked.speaker and e.speaker != asked.speaker
            and as_utc(e.observed_at) >= as_utc(asked.observed_at)
            for e in cited
        )  # fmt: skip
        if replied and any(_asks_if_still(q.group(0), words) for q in _QUESTION.finditer(asked.text)):
            return True
    return False


def _asks_if_still(question: str, words: Sequence[str]) -> bool:
    if _STILL.search(question) is None or NEGATION.search(question) is not None:
        return False
    said = [w.casefold() for w in _VALUE_WORD.findall(question)]
    return any(same_stem(w, s) for w in words for s in said)


def began(belief: Belief, cited: Sequence[Evidence], spec: AttributeSpecLike | None) -> bool:
    """Whether a positive, asserted belief of a single-valued attribute is said to begin in one
    of the cited turns ("Initech hired me last week", "I joined Initech", "I married Tom":
    ``eywa.cessation.begins_any``): one value at a time, so the one held before ended."""
    if spec is None or spec.cardinality != "single" or belief.polarity != "positive" or belief.modality != "asserted":
        return False
    words = [w for w in _VALUE_WORD.findall(belief.value or "") if len(w) > 2]
    return bool(words) and any(begins_any(e.text, words) for e in cited)


_STATEMENT_FILLER = frozenset(
    """is are was were am be been has have had does do the a an and with at in on of to for from as
    now these days nowadays""".split()
)


def _said_words(belief: Belief, cited: Sequence[Evidence]) -> list[str]:
    """The words a turn names a belief's value by: the value's own (three letters or more), or,
    when no cited turn says any of them (a value the extractor derived: "I'm dating Sam" is
    relationship status ``in a relationship``), the words of its statement but the subject's
    and a few fillers ("Priya is dating Sam." → dating, Sam)."""
    value = [w for w in _VALUE_WORD.findall(belief.value or "") if len(w) > 2]
    said = {w.casefold() for e in cited for w in _VALUE_WORD.findall(e.text)}
    if any(same_stem(w.casefold(), s) for w in value for s in said):
        return value
    subject = {w.casefold() for w in _VALUE_WORD.findall(belief.subject)}
    return [
        w for w in _VALUE_WORD.findall(belief.statement)
        if len(w) > 2 and w.casefold() not in subject and w.casefold() not in _STATEMENT_FILLER
    ]  # fmt: skip


def said_now(belief: Belief, cited: Sequence[Evidence], spec: AttributeSpecLike | None) -> bool:
    """Whether a positive, asserted belief of a single-valued attribute is said of *now* in one
    of the cited turns, as against before ("Now I'm dating Sam", "I'm now a nurse", "These days
    I work at Globex", "I live in Leeds these days": ``eywa.cessation.said_of_now_any``): one
    value at a time, so the one held before ended, as when it is said to begin (``began``).
    A moment ("right now", "for now"), a thought ("I know now …") or "still" says no change."""
    if spec is None or spec.cardinality != "single" or belief.polarity != "positive" or belief.modality != "asserted":
        return False
    words = _said_words(belief, cited)
    return bool(words) and any(said_of_now_any(e.text, words) for e in cited)


def _ends_before(belief: Belief, spec: AttributeSpecLike | None) -> bool:
    """Whether the belief's value itself says the value held before ended: "I'm retired" (an
    employer's ``retired``) ends the job, though the turn names no job and no cessation."""
    if spec is None or belief.polarity != "positive" or not belief.value:
        return False
    return belief.value.casefold() in {v.casefold() for v in spec.change_values}


def observation_from_belief(
    belief: Belief,
    evidence: Sequence[Evidence],
    spec: AttributeSpecLike | None = None,
    params: NousParams = DEFAULT_PARAMS,
) -> Observation | None:
    """The observation a belief makes, or None when it is not about a dimension.

    Beliefs without attribute or value, and retracted beliefs, observe nothing. ``evidence``
    may hold more turns than the belief cites; only the cited ones count. ``spec`` (from the
    attribute registry) supplies the canonical attribute name when given.
    """
    if belief.status == "retracted" or not belief.attribute or not belief.value:
        return None
    if not belief.value.strip() or not belief.subject.strip():
        return None
    cited_ids = set(belief.evidence_ids)
    cited = [e for e in evidence if e.id in cited_ids]
    change = (
        any(e.signals_of(SignalKind.CORRECTION) for e in cited) or ended(belief, cited)
        or asked_if_still(belief, cited) or _ends_before(belief, spec) or began(belief, cited, spec)
        or said_now(belief, cited, spec)
    )  # fmt: skip
    second_hand = bool(cited) and all((e.role or "").lower() in _SECOND_HAND_ROLES for e in cited)
    score = belief.report.score if belief.report is not None else None
    at = event_time(belief, cited)
    said = max((as_utc(e.observed_at) for e in cited), default=None)
    return Observation(
        space=belief.space,
        entity=belief.subject,
        attribute=spec.name if spec is not None else belief.attribute,
        value=belief.value,
        polarity=belief.polarity,
        modality=belief.modality,
        at=at,
        reliability=reliability(score, belief.modality, second_hand, params),
        change_signal=change,
        belief_id=belief.id,
        evidence_ids=belief.evidence_ids,
        valid_from=stated_start(belief, cited),
        said_at=said if said is not None and said < at else None,
    )
