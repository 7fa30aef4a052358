"""State answers from dimensions: how sure a dimension is, what it says, and which turns show it.

A current-state question ("Where does Ana work now?", "Does Priya eat meat?") is answered by
the dimension of (person, attribute) better than by any turn: the turns say what was true
when they were said, the dimension says what holds as of the read time, after every change
and every contradiction. When the dimension is sure enough (``ANSWER_THRESHOLD``), its line
is the answer and ranks first; its provenance is the turns that established the current
value, the last thing said, and the change from the previous value, so the answer carries
its evidence ids.

Pure: a ``Dimension`` and its deltas (both read as of the same time) in, a ``StateAnswer``
out. The read route (``eywa.read.routes.dimension``) does the store I/O.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from eywa.attributes import get_attribute, value_surfaces
from eywa.attributes.forms import form_of_any, word_list
from eywa.models import Delta, Dimension
from eywa.nous import UNSEEN, dimension_line, set_members, shown_value
from eywa.nous.describe import day_text

__all__ = [
    "ANSWER_THRESHOLD",
    "EVENT_ATTRIBUTES",
    "MAX_ANSWER_TURNS",
    "StateAnswer",
    "asked_values",
    "counted",
    "gives_names",
    "ended_values",
    "last_held",
    "names_only_values",
    "once_held",
    "state_answer",
    "unrealised_plan",
]

ANSWER_THRESHOLD: Final = 0.6
"""The probability a dimension must give its answer before that answer may rank first.

0.6 is the bar the Nous layer already uses to list a set member (``NousParams.set_floor``),
for the same reasons: it is above what hedged, planned or hypothetical statements can reach
on their own (``rho_tentative`` = 0.55: "I might move to Berlin" never answers "where does
he live"), and at or below what one validated assertion gives (a single-valued dimension
holds ρ ≥ 0.6 after one asserted belief, a set membership about 0.7). Two contradicting
statements of ρ 0.9 or less a day apart leave the mode near 0.5: no claim, the routes
decide; two of ρ 0.95 (rule beliefs) leave the later at 0.61, claimed with the earlier
named on its line (``NousParams.contradiction_days``). Silence
lowers the probability toward uniform, so a value unconfirmed for longer than about 1.5 τ
of its attribute stops claiming. On the demo conversation and the LoCoMo development file
every confident dimension sits at 0.70 or above and every contested one at 0.57 or below
(the closing note of issue #12 lists them), so the answers do not hang on the exact figure.
For a yes/no about a value the answer is "yes" or "no" and its confidence is the
probability of the side it takes.
"""

MAX_ANSWER_TURNS: Final = 5
"""At most this many turns of provenance: change point, last said, previous value, or one
per set member. Each turn costs a slot of the reader's budget (and of recall@k)."""

EVENT_ATTRIBUTES: Final = frozenset({"life_events", "plans"})
"""Attributes whose values are things that happened or are intended, not states that hold
now: their membership says how sure we are that it happened, which answers no
current-state question."""

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)


@dataclass(frozen=True)
class StateAnswer:
    """What one dimension answers, as of the time it was read.

    Attributes:
        entity: the dimension's entity as stored (display name).
        attribute: the canonical attribute.
        text: ``"<entity> — <dimension_line>"``, plus the probability of a value the question
            names when the line does not show it.
        confidence: the probability of the answer the text gives (see ``state_answer``).
        asked: the dimension's values the question names (empty for "what/where" questions).
        evidence_ids: the supporting turns, most telling first, at most ``MAX_ANSWER_TURNS``.
        members: a set's members the line names (``set_members``); empty for a single value.
        mode: a single value's mode, the value the line answers with; None for a set or when
            no value is more likely than one unseen.
    """

    entity: str
    attribute: str
    text: str
    confidence: float
    asked: tuple[str, ...]
    evidence_ids: tuple[str, ...]
    members: tuple[str, ...] = ()
    mode: str | None = None


def _words(text: str) -> str:
    return " " + " ".join(w.casefold() for w in _WORD.findall(text)) + " "


@functools.lru_cache(maxsize=4096)
def _surface_words(surface: str) -> str:
    """``_words`` of a value's surface (a dimension's value or a registry synonym of it,
    never a question): a recall asks ``asked_values`` of every dimension of the people it
    names, which tokenised the same surfaces twice each time (10k synthetic turns: 0.89
    against 0.43 ms per recall under cProfile)."""
    return _words(surface)


@functools.lru_cache(maxsize=4096)
def _surface_list(surface: str) -> tuple[str, ...]:
    """The words of a value's surface, for an attribute named by word forms (cached as
    ``_surface_words`` is)."""
    return tuple(word_list(surface))


def asked_values(question: str, dimension: Dimension) -> tuple[str, ...]:
    """The dimension's values the question names, directly or by a registry synonym.

    "Does Priya eat meat?" names ``meat`` of diet; "Is Priya vegetarian?" names it too
    (vegetarian is meat with negative polarity); "Is Priya an engineer?" names "software
    engineer" of an attribute named by its head (``AttributeSpec.named_by_head``). Whole
    words, case-insensitive, in the order of the distribution. Of an attribute named by word
    forms (``AttributeSpec.word_forms``), a value is named when each of its words is said in
    some form, in any order: "Is Priya allergic to peanuts?" names "peanuts allergy", "Is
    Priya asthmatic?" "asthma"; "Is Priya allergic to cats?" names neither.
    """
    said = _words(question)
    found: list[str] = []
    spec = get_attribute(dimension.attribute)
    said_list = word_list(question) if spec.word_forms else []
    for value in dimension.distribution:
        if value == UNSEEN:
            continue
        raw = [s for s, _ in value_surfaces(dimension.attribute, value)]
        surfaces = [_surface_words(s) for s in raw]
        if spec.named_by_head and " " in value.strip():
            surfaces.append(_surface_words(value.split()[-1]))  # "an engineer" names "software engineer"
        if any(words.strip() and words in said for words in surfaces) or any(
            _said_in_forms(_surface_list(s), said_list) for s in raw
        ):
            found.append(value)
    return tuple(found)


def _said_in_forms(words: Sequence[str], said: Sequence[str]) -> bool:
    """Whether each of ``words`` (a value's) is a form of one of ``said`` (a question's)."""
    return bool(words) and bool(said) and all(form_of_any(w, said) for w in words)


def names_only_values(answer: StateAnswer, words: Sequence[str]) -> bool:
    """Whether every one of ``words`` (the question's words besides person and attribute,
    see ``Plan.other_words``) is a word of a value the question names: then the question
    asks for this dimension and nothing else ("Does Dario still have his cat *Biscuit*?").
    Of an attribute named by word forms, a form of such a word counts ("intolerant" of
    "lactose intolerance", ``AttributeSpec.word_forms``).
    """
    known = {
        w.casefold()
        for value in answer.asked
        for surface, _ in value_surfaces(answer.attribute, value)
        for w in _WORD.findall(surface)
    }
    if get_attribute(answer.attribute).word_forms:
        # "Is Priya lactose intolerant?" names "lactose intolerance" by another form of it.
        return all(form_of_any(word.casefold(), known) for word in words)
    return all(word in known for word in words)


def _side(probability: float) -> float:
    """The probability of the side a yes/no answer takes: p for "yes", 1 − p for "no"."""
    return max(probability, 1.0 - probability)


def ended_values(dimension: Dimension, deltas: Sequence[Delta]) -> list[str]:
    """A set's values whose last word was negative ("Rex died", "I quit pottery"), when that
    is true of every value it ever held: the set is known to be empty now. [] otherwise."""
    return _ended(dimension, _by_value(deltas))


def _ended(dimension: Dimension, by_value: ByValue) -> list[str]:
    """``ended_values`` on deltas already grouped by value."""
    if dimension.cardinality != "multi":
        return []
    values = [v for v in dimension.distribution if v != UNSEEN]
    last = [_latest(by_value, v) for v in values]
    if not values or any(d is None or d.polarity != "negative" for d in last):
        return []
    return values


def _confidence(dimension: Dimension, asked: Sequence[str], members: Sequence[str], ended: Sequence[str]) -> float:
    dist = dimension.distribution
    if asked:
        return min(_side(dist.get(v, 0.0)) for v in asked)
    if dimension.cardinality == "single":
        return dist.get(dimension.mode, 0.0) if dimension.mode is not None else 0.0
    if not members and ended:
        # "What pets does Ana have?" after "Rex died": the answer is that none is known now,
        # as sure as the least sure of the ends ("not Rex (p 0.67)").
        return min(1.0 - dist.get(v, 0.0) for v in ended)
    return max((dist.get(m, 0.0) for m in members), default=0.0)


def _same(a: str, b: str | None) -> bool:
    return b is not None and a.casefold() == b.casefold()


ByValue = dict[str, list[Delta]]


def _by_value(deltas: Sequence[Delta]) -> ByValue:
    """The deltas grouped by their casefolded observed value, each group in ``deltas``' order:
    a multi-valued dimension names each of its members once, and scanning every delta per
    member was quadratic (hundreds of deltas, dozens of members, on every read of it)."""
    groups: ByValue = {}
    for d in deltas:
        groups.setdefault(d.observed.casefold(), []).append(d)
    return groups


def _latest(by_value: ByValue, value: str, *, positive: bool = False, until: datetime | None = None) -> Delta | None:
    """The last delta observing ``value`` (casefolded), positive only / up to ``until`` if asked."""
    return next(
        (d for d in reversed(by_value.get(value.casefold(), []))
         if (not positive or d.polarity == "positive") and (until is None or d.at <= until)),
        None,
    )  # fmt: skip


def _change_point(dimension: Dimension, deltas: Sequence[Delta]) -> Delta | None:
    """The delta that made the mode the mode, as the answer's ``since`` says it: of the
    mode's positive deltas from the change (``changed_at``), the first; when ``since`` is
    earlier than it was said, the first that states that start ("since 2015":
    ``Delta.valid_from``). A start stated later but equal to the first's own time ("Berlin"
    on 1 Jan, then "here since 1 Jan" on 4 Jan) moves nothing, so the first keeps it, as the
    dimension's citations record it (``eywa.nous.citations``: a start is cited only where it
    changed what the mode reports)."""
    if dimension.mode is None:
        return None
    since, changed_at = dimension.since, dimension.changed_at
    positive = [
        d for d in deltas if _same(d.observed, dimension.mode) and d.polarity == "positive"
        and (changed_at is None or d.at >= changed_at)
    ]  # fmt: skip
    first = next(iter(positive), None)
    if first is None or since is None or since >= first.at:
        return first
    return next((d for d in positive if d.valid_from == since), first)


def _supporting(
    dimension: Dimension, deltas: Sequence[Delta], by_value: ByValue, asked: Sequence[str], members: Sequence[str],
    ended: Sequence[str],
) -> list[Delta]:
    """The deltas whose turns show the answer, most telling first (``_evidence`` keeps
    ``MAX_ANSWER_TURNS`` of their turns).

    A set with no member cites the last word on each of its values, ends first: that is what
    its line reports ("not pottery (p 0.69)"). Only when every value ended (``ended``: the set
    is known empty, "What pets does Ana have?" after "Rex died") does it also cite what said
    each value held, so the end has what it ended. When some value did not end, the set is
    not claimed to be empty and its answer is not claimed at all (no member, no end to be
    sure of): the turns that first said the ended values held would only take slots of the
    reader's budget from turns about the values still open.
    """
    last = dimension.last_observed
    last_delta = None if last is None else next((d for d in reversed(deltas) if d.belief_id == last.belief_id), None)
    chosen: list[Delta | None] = []
    if asked:
        chosen.extend(_latest(by_value, v) for v in asked)
        chosen.append(last_delta)
    elif dimension.cardinality == "single":
        chosen.append(_change_point(dimension, deltas))
        chosen.append(last_delta)
        if dimension.previous is not None:
            # Up to when the change was said: a stated start ("moved last week") may come
            # before the last word on the value it replaced.
            chosen.append(_latest(by_value, dimension.previous, until=dimension.changed_at))
    else:
        chosen.extend(_latest(by_value, m, positive=True) for m in members)
        chosen.append(last_delta)
        if not members:
            words = [d for v in dimension.distribution if v != UNSEEN and (d := _latest(by_value, v)) is not None]
            chosen.extend(d for d in words if d.polarity == "negative")
            chosen.extend(d for d in words if d.polarity != "negative")
            chosen.extend(_latest(by_value, v, positive=True) for v in ended)
    return [d for d in chosen if d is not None]


def _evidence(chosen: Sequence[Delta]) -> tuple[str, ...]:
    ids: list[str] = []
    for delta in chosen:
        for evidence_id in delta.evidence_ids:
            if evidence_id not in ids:
                ids.append(evidence_id)
    return tuple(ids[:MAX_ANSWER_TURNS])


def _text(dimension: Dimension, asked: Sequence[str], as_of: datetime | None) -> str:
    line = dimension_line(dimension, as_of)
    if dimension.cardinality == "single":
        shown = shown_value(dimension)  # the line gives its probability already
        extra = [
            f"{v} p {dimension.distribution.get(v, 0.0):.2f}" for v in asked if not _same(v, shown)
        ]
        if extra:
            line = f"{line}; {', '.join(extra)}"
    return f"{dimension.entity} — {line}"


def state_answer(
    dimension: Dimension, deltas: Sequence[Delta], question: str, as_of: datetime | None = None
) -> StateAnswer:
    """What ``dimension`` answers to ``question``, how sure it is, and the turns that show it.

    The confidence is the probability of the answer the text gives:

    * a value the question names ("Does Priya eat meat?", "Is Tomas living in Berlin?"): the
      probability of "yes" or of "no", whichever the dimension favours (the least sure one
      when several are named);
    * otherwise, single-valued: the probability of the mode (0 when nothing is more likely
      than "something unseen");
    * otherwise, a set: the probability of its most probable member (``set_members``); a
      set every value of which was last said to have ended ("Rex died") has no member, and
      its answer, "not Rex", is as sure as the least sure end (``ended_values``).

    ``deltas`` are the dimension's deltas up to the time it was read (``as_of``), in event
    order; ``as_of`` only words the line ("as of today").
    """
    asked = asked_values(question, dimension)
    members = set_members(dimension, deltas) if dimension.cardinality == "multi" else []
    by_value = _by_value(deltas)
    ended = _ended(dimension, by_value)
    return StateAnswer(
        entity=dimension.entity,
        attribute=dimension.attribute,
        text=_text(dimension, asked, as_of),
        confidence=_confidence(dimension, asked, members, ended),
        asked=asked,
        evidence_ids=_evidence(_supporting(dimension, deltas, by_value, asked, members, ended)),
        members=tuple(members),
        mode=dimension.mode if dimension.cardinality == "single" else None,
    )


_NUMBER: Final = re.compile(
    r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\s+couple\s+of|both|twins)\b",
    re.IGNORECASE,
)


def gives_names(answer: StateAnswer) -> bool:
    """Whether an answer names someone or something by name, as a question for a name asks
    ("What is Ana's husband's name?", "What are her kids called?"): each member of a set, or
    the single value, capitalised ("Sam", "Mia, Leo"), not "married" or "two kids". Pure."""
    values = answer.members if answer.members else (() if answer.mode is None else (answer.mode,))
    return bool(values) and all(v[:1].isupper() for v in values)


def counted(members: Sequence[str]) -> bool:
    """Whether a set's members say how many there are: each a name (one each: "Leo, Mia") or
    said with its number ("two kids"). An unnamed kind ("turtle", "kids") says none, so its
    line may not answer "How many turtles does Bo have?". Pure."""
    return bool(members) and all(m[:1].isupper() or _NUMBER.search(m) for m in members)


def unrealised_plan(answer: StateAnswer, dimension: Dimension, plan_deltas: Sequence[Delta], words: Sequence[str]) -> StateAnswer | None:
    """"Did Ines move to Lisbury?" when Ines only *thought about* moving there and moved elsewhere.

    A past-tense yes/no question names a value (``words``, see ``Plan.other_words``) the
    dimension never held, while the subject's plans hold it only as hedged or planned ("I'm
    thinking about moving to Lisbury"): the plan did not happen, and what did happen is the
    dimension's value. The answer is "not <value>, only <modality>", then the dimension's
    line, with the plan's turn and the turns of the actual value as provenance; its
    confidence is the dimension's. A completed change thus outranks the hedged plan that
    retrieval alone would rank first (its words match the question best). None when the
    dimension holds the value, no plan names it, or a plan naming it was asserted.

    ``plan_deltas`` are the subject's ``plans`` deltas up to the read time.
    """
    if not words or dimension.cardinality != "single" or dimension.mode is None or answer.asked:
        return None
    folded = [w.casefold() for w in words]
    held = {v.casefold() for v in dimension.distribution if v != UNSEEN}
    if any(w in _words(v) for v in held for w in (f" {x} " for x in folded)):
        return None
    naming = [d for d in plan_deltas if all(f" {w} " in _words(d.observed) for w in folded)]
    if not naming or any(d.modality == "asserted" and d.polarity == "positive" for d in naming):
        return None
    plan = naming[-1]
    said = f"not {' '.join(words)}: only {plan.modality}"
    text = f"{answer.entity} — {answer.attribute}: {said} ({plan.observed}); {answer.text.split(' — ', 1)[-1]}"
    evidence = tuple(dict.fromkeys((*plan.evidence_ids, *answer.evidence_ids)))[:MAX_ANSWER_TURNS]
    return StateAnswer(entity=answer.entity, attribute=answer.attribute, text=text, confidence=answer.confidence,
                       asked=(), evidence_ids=evidence)


def last_held(deltas: Sequence[Delta], values: Sequence[str]) -> datetime | None:
    """When the last of ``values`` was last said to hold (a positive, asserted delta among
    ``deltas``), or None when one of them never was. Pure."""
    by_value = _by_value(deltas)
    said = [_latest_asserted(by_value, v) for v in values]
    return max(d.at for d in said if d is not None) if said and all(d is not None for d in said) else None


def _latest_asserted(by_value: ByValue, value: str) -> Delta | None:
    return next(
        (d for d in reversed(by_value.get(value.casefold(), [])) if d.polarity == "positive" and d.modality == "asserted"),
        None,
    )  # fmt: skip


def once_held(answer: StateAnswer, now: Dimension, then: Dimension, deltas: Sequence[Delta]) -> StateAnswer | None:
    """"Did Priya break her wrist?" after "I broke my wrist": a past-tense yes/no question
    about values (``answer.asked``) asks whether they ever held, not whether they hold now.

    ``then`` is the dimension read when the last of them was last said to hold (``last_held``),
    ``now`` as of the read time, ``deltas`` its deltas up to then. When every asked value held
    then with at least ``ANSWER_THRESHOLD``, the answer is yes: the line itself while they still
    hold that surely ("health: broken wrist since 20 Apr 2026 (p 0.72)"), else the line with
    its history ("health: was asthma (p 0.72 when last said, 1 Mar 2026); now not asthma
    (p 0.68) …"), as sure as they were then, citing the turns that said them first.
    Never a no: a value that ended since did hold, and one that never held is not answered
    here (None, as when it was only said tentatively, never asserted, or was less sure then). Pure."""
    by_value = _by_value(deltas)
    said = [d for v in answer.asked if (d := _latest_asserted(by_value, v)) is not None]
    if not answer.asked or len(said) < len(answer.asked):
        return None
    held = min(then.distribution.get(v, 0.0) for v in answer.asked)
    if held < ANSWER_THRESHOLD:
        return None
    if min(now.distribution.get(v, 0.0) for v in answer.asked) >= ANSWER_THRESHOLD:
        return answer
    history = f" (p {held:.2f} when last said, {day_text(max(d.at for d in said))})"
    line = answer.text.split(" — ", 1)[-1].removeprefix(f"{answer.attribute}: ")
    text = f"{answer.entity} — {answer.attribute}: was {', '.join(answer.asked)}{history}; now {line}"
    evidence = tuple(dict.fromkeys((*_evidence(said), *answer.evidence_ids)))[:MAX_ANSWER_TURNS]
    return StateAnswer(entity=answer.entity, attribute=answer.attribute, text=text, confidence=held,
                       asked=answer.asked, evidence_ids=evidence)
