"""Calendar arithmetic for date signals: windows and ISO labels at each granularity.

A resolved date is a *window* (inclusive start, exclusive end, UTC) plus the ISO label of
that window at its granularity. Keeping the arithmetic here, apart from the pattern
matching, lets the month/year-boundary and leap-day cases be tested in one place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone

from eywa.models import Granularity, Signal, SignalKind

_DAY = timedelta(days=1)
_WEEK = timedelta(days=7)


@dataclass(frozen=True, slots=True)
class Resolved:
    """A resolved temporal expression: its ISO label, granularity and UTC window."""

    normalized: str
    granularity: Granularity
    start: datetime
    end: datetime


def midnight(day: date) -> datetime:
    """Midnight UTC at the start of ``day``."""
    return datetime(day.year, day.month, day.day, tzinfo=timezone.utc)


def shift_month(year: int, month: int, delta: int) -> tuple[int, int]:
    """The (year, month) ``delta`` months after (year, month); negative goes back."""
    index = year * 12 + (month - 1) + delta
    return index // 12, index % 12 + 1


def on_day(day: date) -> Resolved:
    """The window of one calendar day."""
    return Resolved(day.isoformat(), "day", midnight(day), midnight(day + _DAY))


def days_between(first: date, last: date) -> Resolved:
    """An approximate day window from ``first`` to ``last`` (both inclusive).

    The label is the middle day: a validator comparing a single date still gets the most
    likely value, while the window keeps the uncertainty for the temporal route.
    """
    middle = first + timedelta(days=((last - first).days + 1) // 2)
    return Resolved(middle.isoformat(), "day", midnight(first), midnight(last + _DAY))


def monday_of(day: date) -> date:
    """The Monday that starts the ISO week of ``day``."""
    return day - timedelta(days=day.weekday())


def in_week(day: date) -> Resolved:
    """The ISO week (Monday to next Monday) that contains ``day``."""
    monday = monday_of(day)
    iso = monday.isocalendar()
    return Resolved(
        f"{iso.year}-W{iso.week:02d}", "week", midnight(monday), midnight(monday + _WEEK)
    )


def weeks_between(first: date, last: date) -> Resolved:
    """An approximate window from the ISO week of ``first`` to that of ``last``, inclusive."""
    middle = first + timedelta(days=(last - first).days // 2)
    label = in_week(middle).normalized
    return Resolved(label, "week", midnight(monday_of(first)), midnight(monday_of(last) + _WEEK))


def weekend_of(day: date) -> Resolved:
    """The Saturday-to-Monday window of the ISO week of ``day``, labelled by that week."""
    saturday = monday_of(day) + timedelta(days=5)
    label = in_week(day).normalized
    return Resolved(label, "week", midnight(saturday), midnight(saturday + 2 * _DAY))


def in_month(year: int, month: int) -> Resolved:
    """The window of one calendar month."""
    next_year, next_month = shift_month(year, month, 1)
    return Resolved(
        f"{year:04d}-{month:02d}",
        "month",
        datetime(year, month, 1, tzinfo=timezone.utc),
        datetime(next_year, next_month, 1, tzinfo=timezone.utc),
    )


def months_between(first: tuple[int, int], last: tuple[int, int]) -> Resolved:
    """An approximate window from month ``first`` to month ``last``, inclusive."""
    span = (last[0] * 12 + last[1]) - (first[0] * 12 + first[1])
    label = in_month(*shift_month(first[0], first[1], span // 2)).normalized
    end_year, end_month = shift_month(last[0], last[1], 1)
    return Resolved(
        label,
        "month",
        datetime(first[0], first[1], 1, tzinfo=timezone.utc),
        datetime(end_year, end_month, 1, tzinfo=timezone.utc),
    )


def in_year(year: int) -> Resolved:
    """The window of one calendar year."""
    return Resolved(
        f"{year:04d}",
        "year",
        datetime(year, 1, 1, tzinfo=timezone.utc),
        datetime(year + 1, 1, 1, tzinfo=timezone.utc),
    )


def years_between(first: int, last: int) -> Resolved:
    """An approximate window from year ``first`` to year ``last``, inclusive."""
    return Resolved(
        f"{first + (last - first) // 2:04d}",
        "year",
        datetime(first, 1, 1, tzinfo=timezone.utc),
        datetime(last + 1, 1, 1, tzinfo=timezone.utc),
    )


def at_minute(moment: datetime) -> Resolved:
    """The one-minute window that contains ``moment`` (UTC)."""
    start = moment.astimezone(timezone.utc).replace(second=0, microsecond=0)
    return Resolved(start.strftime("%Y-%m-%dT%H:%M"), "minute", start, start + timedelta(minutes=1))


def safe_date(year: int, month: int, day: int) -> date | None:
    """``date(year, month, day)``, or None when the day does not exist (31 April, 29 Feb 2023)."""
    if not (1 <= month <= 12 and 1 <= day <= 31 and 1 <= year <= 9999):
        return None
    try:
        return date(year, month, day)
    except ValueError:
        return None


def as_signal(kind: SignalKind, match: re.Match[str], resolved: Resolved) -> Signal:
    """The signal of a matched span with its resolved label, granularity and window."""
    return Signal(
        kind=kind,
        text=match.group(0),
        start=match.start(),
        end=match.end(),
        normalized=resolved.normalized,
        granularity=resolved.granularity,
        window_start=resolved.start,
        window_end=resolved.end,
    )
