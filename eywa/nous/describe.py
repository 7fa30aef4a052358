"""One line of text per dimension, for recall contexts: the state now and the last evidence.

A dimension read years after its last evidence has decayed toward uncertainty, which is
right for "where does Ana work now?" but loses "what did she last say?". The line shows
both, so a reader (a person or a model) can answer either:

    employer: Fernbrook since 6 May 2024 (was Google) — last said 22 Oct 2024; p 0.41 as of today
    diet: not meat (p 0.92) — last said 22 Oct 2024: not meat; as of today
    diet: vegetarian: not meat (p 0.92), not fish (p 0.92) — last said 22 Oct 2024: not meat; as of today
    hobbies: hiking since 2 Feb 2023 (p 0.74); not pottery (p 0.69) — last said 22 Oct 2024: not pottery; as of today

A multi-valued state the registry has one word for is named before its values
(``combined_label``: "vegetarian" for not meat and not fish).

Every probability on the line is the probability of what it says next to: "not meat (p 0.92)"
is 0.92 that meat is *not* a member of the diet set (its membership is 0.08).

Pure: the same dimension and ``as_of`` always give the same line (dates in UTC, English
month names independent of the locale).
"""

from __future__ import annotations

from datetime import datetime

from eywa.attributes.values import combined_label
from eywa.models import Dimension, ObservedValue, as_utc
from eywa.nous.math import UNSEEN

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def day_text(moment: datetime) -> str:
    """"6 May 2024": the UTC date, locale-independent."""
    d = as_utc(moment).date()
    return f"{d.day} {_MONTHS[d.month - 1]} {d.year}"


def _said(observed: ObservedValue) -> str:
    text = f"not {observed.value}" if observed.polarity == "negative" else observed.value
    return text if observed.modality == "asserted" else f"{text} ({observed.modality})"


def _last_said(dimension: Dimension) -> str:
    last = dimension.last_observed
    if last is None:
        return ""
    # A start said ahead is placed at the start; "last said" is when it was said.
    said = last.said_at or last.at
    plain = last.polarity == "positive" and last.modality == "asserted"
    if plain and dimension.mode is not None and last.value.casefold() == dimension.mode.casefold():
        return f" — last said {day_text(said)}"
    return f" — last said {day_text(said)}: {_said(last)}"


def _as_of(dimension: Dimension, as_of: datetime | None) -> str:
    if dimension.as_of is None:
        return "as of the last evidence"
    if as_of is not None and as_utc(as_of).date() == dimension.as_of.date():
        return "as of today"
    return f"as of {day_text(dimension.as_of)}"


def _since(dimension: Dimension) -> str:
    text = "" if dimension.since is None else f" since {day_text(dimension.since)}"
    return text + ("" if dimension.previous is None else f" (was {dimension.previous})")


def shown_value(dimension: Dimension) -> str | None:
    """The value a single-valued dimension's line gives a probability for: the mode, else
    (unknown) the most probable known value, else None."""
    if dimension.mode is not None:
        return dimension.mode
    known = {v: p for v, p in dimension.distribution.items() if v != UNSEEN}
    return max(sorted(known), key=lambda v: known[v]) if known else None


def _single(dimension: Dimension) -> tuple[str, str]:
    shown = shown_value(dimension)
    p = dimension.distribution.get(shown, 0.0) if shown is not None else 0.0
    if dimension.mode is not None:
        return f"{dimension.mode}{_since(dimension)}", f"p {p:.2f}"
    head = f"unknown{_since(dimension)}"
    return (head, "") if shown is None else (head, f"{shown} p {p:.2f}")


def _multi(dimension: Dimension) -> str:
    ranked = sorted(dimension.distribution.items(), key=lambda kv: (-kv[1], kv[0]))
    members = [(v, p) for v, p in ranked if p > 0.5]
    others = [(v, p) for v, p in reversed(ranked) if p < 0.5]
    parts = [
        f"{v}{_since(dimension) if v == dimension.mode else ''} (p {p:.2f})" for v, p in members
    ]
    text = ", ".join(parts)
    if others:
        gone = ", ".join(f"not {v} (p {1.0 - p:.2f})" for v, p in others)
        text = f"{text}; {gone}" if text else gone
    known = {v: p for v, p in ranked if v != UNSEEN}
    if text and (label := combined_label(dimension.attribute, known)) is not None:
        text = f"{label}: {text}"  # "vegan: not meat (p 0.92), not fish (p 0.92), …"
    return text or "undecided"


def dimension_line(dimension: Dimension, as_of: datetime | None = None) -> str:
    """The recall line of a dimension (see the module docstring for examples).

    Args:
        dimension: as returned by ``Memory.dimension`` for the query's ``as_of``.
        as_of: the reader's reference time; "as of today" is written when the dimension
            was computed for that day, otherwise its own date.
    """
    when = _as_of(dimension, as_of)
    if dimension.cardinality == "single":
        state, probability = _single(dimension)
        tail = f"{probability} {when}" if probability else when
        return f"{dimension.attribute}: {state}{_last_said(dimension)}; {tail}"
    return f"{dimension.attribute}: {_multi(dimension)}{_last_said(dimension)}; {when}"
