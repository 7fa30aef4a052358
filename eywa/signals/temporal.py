"""DATE and TIME signals: absolute and relative expressions, resolved to UTC windows.

Why regexes and not ``dateparser.search``: search_dates reads ordinary words ("we", "may",
"march", "sat", "second", "now") as dates and costs milliseconds per turn. Every pattern
here needs a date-shaped context (a day number, a year, a cue word such as "last" or "in"),
and the ambiguous month names (May, March, August and all abbreviations) must be
capitalised. The regex groups already hold every field of the date, so resolution is plain
calendar arithmetic against the turn's ``observed_at``; no span is left that would need a
general parser.

Conventions (documented because speakers disagree on them):
- "last <weekday>" is the most recent such day strictly before today; "this <weekday>" is
  that day of the current ISO week (Monday first); "next <weekday>" is that day of the next
  ISO week.
- "last/this/next weekend" is the Saturday-Monday window of the previous/current/next ISO
  week, labelled with that week; but "this weekend" in a sentence told in the past ("we
  did a festival this weekend"), said on a weekday, is the weekend just over.
- A bare "on <weekday>" and "over/at/on/during the weekend" name no side of today: the
  sentence's tense decides (``eywa.signals._tense``). Told in the past, the most recent
  such day strictly before today (as "last <weekday>") or the weekend last begun; planned,
  the first such day strictly after today or the weekend to come; neither or both, no date.
- A month or day without a year takes the year of ``observed_at``; "last May" is the most
  recent May before the current month, "next May" the first after it.
- "a few"/"a couple of"/"several" units ago are windows (2-5, 1-3, 3-7 units back) labelled
  with their middle value.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, timedelta

from eywa.models import Signal, SignalKind, as_utc
from eywa.signals import _calendar as cal
from eywa.signals._calendar import Resolved
from eywa.signals._tense import sentence_around, tense_of
from eywa.signals._text import WORD_NUMBER, keep_free, word_set, word_value
from eywa.signals.clock import TIME_WORDS, detect_times

MONTHS: dict[str, int] = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4,
    "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
    "september": 9, "sept": 9, "sep": 9, "october": 10, "oct": 10, "november": 11,
    "nov": 11, "december": 12, "dec": 12,
}  # fmt: skip
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY_ABBREVIATIONS = {"tues": 1, "weds": 2, "thurs": 3, "fri": 4}
"""Abbreviations that are no ordinary word ("sat", "sun" and "wed" are)."""
_FULL_MONTHS = frozenset(m for m in MONTHS if len(m) > 4 or m in ("may", "june", "july"))
_NEEDS_CAPITAL = frozenset({"may", "march", "august"} | (set(MONTHS) - _FULL_MONTHS))
"""Month tokens that are also ordinary words ("may", "march", "august", "jan", "sat"...)."""

_MONTH = r"(?P<month>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\b\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?\b"
_YEAR = r"(?P<year>(?:1[89]|20)\d{2})\b"
# After a cued month ("during September"): a year or a day that follows belongs to a
# longer, exact expression ("during September 2023", "in December 1, 2023"), not to the cue.
_NO_DAY_OR_YEAR = r"(?!,?\s*(?:of\s+)?(?:(?:1[89]|20)\d{2}|\d{1,2}(?:st|nd|rd|th)?)\b)"
# Between a day and its year: a comma, with or without a space ("May 3, 2023", "May 3,2023").
_YEAR_SEP = r"(?:,\s*|\s+)"
_FEW = r"a\s+couple(?:\s+of)?|couple\s+of|a\s+few|few|several"
_APPROX: dict[str, tuple[int, int]] = {"couple": (1, 3), "few": (2, 5), "several": (3, 7)}

Handler = Callable[[re.Match[str], datetime], Resolved | None]

_MONTH_WORDS = frozenset(MONTHS)
_FLAGS = re.IGNORECASE


def _month_of(match: re.Match[str]) -> int | None:
    token = match.group("month")
    lowered = token.lower()
    if lowered in _NEEDS_CAPITAL and not token[0].isupper():
        return None
    return MONTHS[lowered]


def _iso(match: re.Match[str], anchor: datetime) -> Resolved | None:
    day = cal.safe_date(int(match["year"]), int(match["mon"]), int(match["day"]))
    if day is None:
        return None
    if match["hour"] is None:
        return cal.on_day(day)
    hour, minute = int(match["hour"]), int(match["minute"])
    if hour > 23 or minute > 59:
        return None
    return cal.at_minute(cal.midnight(day) + timedelta(hours=hour, minutes=minute))


def _slashed(match: re.Match[str], anchor: datetime) -> Resolved | None:
    first, second, year = int(match["a"]), int(match["b"]), int(match["year"])
    if year < 100:
        year += 2000 if year < 70 else 1900
    month, day = (second, first) if first > 12 else (first, second)  # US order unless impossible
    resolved = cal.safe_date(year, month, day)
    return None if resolved is None else cal.on_day(resolved)


def _day_month(match: re.Match[str], anchor: datetime) -> Resolved | None:
    month = _month_of(match)
    if month is None:
        return None
    year = int(match["year"]) if match["year"] else anchor.year
    day = cal.safe_date(year, month, int(match["day"]))
    return None if day is None else cal.on_day(day)


def _month_year(match: re.Match[str], anchor: datetime) -> Resolved | None:
    month = _month_of(match)
    return None if month is None else cal.in_month(int(match["year"]), month)


def _cued_month(match: re.Match[str], anchor: datetime) -> Resolved | None:
    month = _month_of(match)
    if month is None:
        return None
    cue = match["cue"].lower()
    year = anchor.year
    if cue == "last" and month >= anchor.month:
        year -= 1
    elif cue == "next" and month <= anchor.month:
        year += 1
    return cal.in_month(year, month)


def _cued_year(match: re.Match[str], anchor: datetime) -> Resolved | None:
    return cal.in_year(int(match["year"]))


_DEICTIC_DAYS: dict[str, int] = {
    "the day before yesterday": -2, "the day after tomorrow": 2, "yesterday": -1,
    "last night": -1, "today": 0, "tonight": 0, "this morning": 0, "this afternoon": 0,
    "this evening": 0, "tomorrow": 1,
}  # fmt: skip


_DEICTIC_DAYS_WORDS = {
    "yesterday",
    "today",
    "tomorrow",
    "tonight",
    "night",
    "morning",
    "afternoon",
    "evening",
}


def _deictic(match: re.Match[str], anchor: datetime) -> Resolved | None:
    offset = _DEICTIC_DAYS[" ".join(match.group(0).lower().split())]
    return cal.on_day(anchor.date() + timedelta(days=offset))


def _relation(raw: str) -> str:
    words = raw.lower().split()
    if words[-1] == "past":
        return "last"
    return "next" if words[-1] == "coming" else words[-1]


def _weekday(match: re.Match[str], anchor: datetime) -> Resolved | None:
    today = anchor.date()
    target = _weekday_index(match["weekday"])
    relation = _relation(match["rel"])
    if relation == "last":
        back = (today.weekday() - target) % 7 or 7
        return cal.on_day(today - timedelta(days=back))
    monday = cal.monday_of(today) + timedelta(days=7 if relation == "next" else 0)
    return cal.on_day(monday + timedelta(days=target))


def _tense_at(match: re.Match[str]) -> str | None:
    """The tense of the sentence the match stands in (``eywa.signals._tense``)."""
    return tense_of(sentence_around(match.string, match.start(), match.end()))


def _weekday_index(name: str) -> int:
    lowered = name.lower()
    return _WEEKDAY_ABBREVIATIONS.get(lowered, WEEKDAYS.index(lowered) if lowered in WEEKDAYS else 0)


def _bare_weekday(match: re.Match[str], anchor: datetime) -> Resolved | None:
    """"on Saturday": the most recent Saturday strictly before today when the sentence is
    told in the past ("I ran my first 10k on Saturday"), the first one strictly after it
    when it is planned ("the party is on Saturday"), nothing when the tense is not clear."""
    tense = _tense_at(match)
    if tense is None:
        return None
    today, target = anchor.date(), _weekday_index(match["weekday"])
    if tense == "past":
        return cal.on_day(today - timedelta(days=(today.weekday() - target) % 7 or 7))
    return cal.on_day(today + timedelta(days=(target - today.weekday()) % 7 or 7))


def _weekend(match: re.Match[str], anchor: datetime) -> Resolved | None:
    relation = _relation(match["rel"])
    weeks = {"last": -1, "this": 0, "next": 1}[relation]
    today = anchor.date()
    if match["rel"].lower() == "this" and today.weekday() < 5 and _tense_at(match) == "past":
        weeks = -1  # "we did a festival this weekend", said on a Monday: the one just over
    return cal.weekend_of(today + timedelta(weeks=weeks))


def _the_weekend(match: re.Match[str], anchor: datetime) -> Resolved | None:
    """"over the weekend": the weekend last begun when told in the past, the next one to
    end when planned, nothing when the tense is not clear."""
    tense = _tense_at(match)
    if tense is None:
        return None
    today = anchor.date()
    if tense == "past":
        return cal.weekend_of(today if today.weekday() >= 5 else today - timedelta(weeks=1))
    return cal.weekend_of(today if today.weekday() <= 5 else today + timedelta(weeks=1))


def _unit_relative(match: re.Match[str], anchor: datetime) -> Resolved | None:
    step = {"last": -1, "this": 0, "next": 1}[match["rel"].lower()]
    unit = match["unit"].lower()
    if unit == "week":
        return cal.in_week(anchor.date() + timedelta(weeks=step))
    if unit == "month":
        return cal.in_month(*cal.shift_month(anchor.year, anchor.month, step))
    return cal.in_year(anchor.year + step)


def _back(today: date, unit: str, amount: int) -> date:
    if unit == "day":
        return today - timedelta(days=amount)
    if unit == "week":
        return today - timedelta(weeks=amount)
    if unit == "month":
        year, month = cal.shift_month(today.year, today.month, -amount)
        return date(year, month, 1)
    return date(today.year - amount, 1, 1)


def _ago(match: re.Match[str], anchor: datetime) -> Resolved | None:
    unit = match["unit"].lower()
    amount_text = " ".join(match["amount"].lower().split())
    approx = next((v for k, v in _APPROX.items() if k in amount_text), None)
    if approx is None:
        amount = 1 if amount_text in ("a", "an") else word_value(amount_text)
        if amount is None:
            amount = int(amount_text) if amount_text.isdigit() else None
        if amount is None or amount > 5000:
            return None
        if unit in ("minute", "hour"):
            return cal.at_minute(anchor - timedelta(**{unit + "s": amount}))
        approx = (amount, amount)
    if unit in ("minute", "hour"):
        return None
    today = anchor.date()
    first, last = _back(today, unit, approx[1]), _back(today, unit, approx[0])
    if unit == "day":
        return cal.days_between(first, last)
    if unit == "week":
        return cal.weeks_between(first, last)
    if unit == "month":
        return cal.months_between((first.year, first.month), (last.year, last.month))
    return cal.years_between(first.year, last.year)


_DATE_FOLLOWS = (
    r"(?!,?\s+(?:the\s+)?(?:\d|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s*\d))"
)
"""A bare weekday or weekend followed by the date it is ("on Saturday 3 June", "on Sunday,
1 January", "on Saturday the 3rd", "on Friday June 3") or by "of" and one ("over the weekend
of 31 December") is placed by that date, not by the sentence's tense, which would give it a
second and maybe other day."""


_DATE_PATTERNS: tuple[tuple[re.Pattern[str], Handler, frozenset[str] | None, bool], ...] = (
    # (pattern, handler, one of these words must occur (None: any), a digit must occur)
    (
        re.compile(
            r"\b(?P<year>\d{4})-(?P<mon>\d{2})-(?P<day>\d{2})"
            r"(?:[T ](?P<hour>\d{2}):(?P<minute>\d{2})(?::\d{2})?)?(?![\d-])"
        ),
        _iso,
        None,
        True,
    ),
    (
        re.compile(r"\b(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<year>\d{4}|\d{2})\b(?!/)"),
        _slashed,
        None,
        True,
    ),
    (
        re.compile(rf"\b(?:the\s+)?{_DAY}(?:\s+of)?\s+{_MONTH}(?:{_YEAR_SEP}{_YEAR})?", _FLAGS),
        _day_month,
        _MONTH_WORDS,
        True,
    ),
    (
        re.compile(rf"\b{_MONTH}\s+(?:the\s+)?{_DAY}(?:{_YEAR_SEP}{_YEAR})?", _FLAGS),
        _day_month,
        _MONTH_WORDS,
        True,
    ),
    (re.compile(rf"\b{_MONTH},?\s+(?:of\s+)?{_YEAR}", _FLAGS), _month_year, _MONTH_WORDS, True),
    (
        re.compile(
            r"\b(?P<cue>in|during|since|until|till|by|before|after|from|through|throughout"
            r"|early|late|mid|last|next|this|around|end\s+of|beginning\s+of|start\s+of)"
            rf"[\s-]+{_MONTH}(?![\w-]){_NO_DAY_OR_YEAR}",
            _FLAGS,
        ),
        _cued_month,
        _MONTH_WORDS,
        False,
    ),
    (
        re.compile(
            r"\b(?:back\s+in|in|since|during|by|until|till|before|after|from|around|circa"
            r"|early|late|mid|throughout|spring|summer|fall|autumn|winter|class\s+of)"
            rf"[\s-]+{_YEAR}(?![.,]?\d|%|-\d)",
            _FLAGS,
        ),
        _cued_year,
        None,
        True,
    ),
    (
        re.compile(
            r"\b(?:the\s+day\s+before\s+yesterday|the\s+day\s+after\s+tomorrow|yesterday"
            r"|today|tomorrow|tonight|last\s+night|this\s+(?:morning|afternoon|evening))\b",
            _FLAGS,
        ),
        _deictic,
        frozenset(_DEICTIC_DAYS_WORDS),
        False,
    ),
    (
        re.compile(
            r"\b(?P<rel>last|this\s+past|this\s+coming|this|next|past|coming)\s+"
            rf"(?P<weekday>{'|'.join(WEEKDAYS + tuple(_WEEKDAY_ABBREVIATIONS))})\b",
            _FLAGS,
        ),
        _weekday,
        frozenset(WEEKDAYS) | frozenset(_WEEKDAY_ABBREVIATIONS),
        False,
    ),
    (
        re.compile(
            rf"\bon\s+(?P<weekday>{'|'.join(WEEKDAYS + tuple(_WEEKDAY_ABBREVIATIONS))})\b(?![-'’]?s\b){_DATE_FOLLOWS}",
            _FLAGS,
        ),
        _bare_weekday,
        frozenset(WEEKDAYS) | frozenset(_WEEKDAY_ABBREVIATIONS),
        False,
    ),
    (
        re.compile(r"\b(?P<rel>last|this\s+past|this|next|past|coming)\s+weekend\b", _FLAGS),
        _weekend,
        frozenset({"weekend"}),
        False,
    ),
    (
        re.compile(rf"\b(?:over|at|on|during)\s+the\s+weekend\b(?!\s+of\b){_DATE_FOLLOWS}", _FLAGS),
        _the_weekend,
        frozenset({"weekend"}),
        False,
    ),
    (
        re.compile(r"\b(?P<rel>last|this|next)\s+(?P<unit>week|month|year)\b", _FLAGS),
        _unit_relative,
        frozenset({"week", "month", "year"}),
        False,
    ),
    (
        re.compile(
            rf"\b(?P<amount>\d{{1,4}}|{WORD_NUMBER}|{_FEW}|an?)\s+"
            r"(?P<unit>minute|hour|day|week|month|year)s?\s+ago\b",
            _FLAGS,
        ),
        _ago,
        frozenset({"ago"}),
        False,
    ),
)


def detect_temporal(
    text: str,
    anchor: datetime,
    taken: list[tuple[int, int]],
    words: frozenset[str] | None = None,
) -> list[Signal]:
    """DATE and TIME signals of ``text`` that overlap no ``taken`` span; claims their spans.

    Args:
        text: the turn.
        anchor: when the turn was said; relative expressions resolve against it.
        taken: spans already claimed by more specific detectors; extended in place.
        words: ``word_set(text)`` if the caller already has it.
    """
    anchor = as_utc(anchor)
    words = word_set(text) if words is None else words
    has_digit = any(c.isdigit() for c in text)
    candidates: list[Signal] = []
    for pattern, handler, keywords, needs_digit in _DATE_PATTERNS:
        if (needs_digit and not has_digit) or (keywords is not None and keywords.isdisjoint(words)):
            continue
        for match in pattern.finditer(text):
            try:
                resolved = handler(match, anchor)
            except (ValueError, OverflowError):  # beyond year 1..9999: nothing to resolve
                continue
            if resolved is not None:
                candidates.append(cal.as_signal(SignalKind.DATE, match, resolved))
    dates = keep_free(candidates, taken)
    times = (
        detect_times(text, dates, taken) if has_digit or not TIME_WORDS.isdisjoint(words) else []
    )
    return dates + times


def resolve_time_expressions(text: str, anchor: datetime) -> tuple[Signal, ...]:
    """The DATE and TIME signals of ``text``, resolved against ``anchor``, in span order.

    The read-path planner calls this on questions ("what did she do in May 2023", "last
    year") with the as-of time as anchor.

    Example:
        >>> from datetime import datetime, timezone
        >>> [s.normalized for s in resolve_time_expressions(
        ...     "what happened last year?", datetime(2023, 5, 25, tzinfo=timezone.utc))]
        ['2022']
    """
    found = sorted(detect_temporal(text, anchor, []), key=lambda s: (s.start, s.end))
    return tuple(_share_range_years(text, found))


# What joins the two ends of a range: "between A and B", "from A to B", "A - B".
_RANGE_JOIN = re.compile(r"\s*(?:and|to|until|till|through|-|–)\s*", re.IGNORECASE)
_NAMED_YEAR = re.compile(r"\b\d{4}\b")


def _share_range_years(text: str, signals: list[Signal]) -> list[Signal]:
    """In a range whose first end names no year ("between March 3 and March 9 2023"),
    the first end takes the year of the second, not the anchor's: the writer named the year
    once for both. Only day and month dates are moved; a first end that would then fall
    after the second belongs to the year before ("December 28 to January 3, 2024")."""
    shared = list(signals)
    for n in range(len(shared) - 1):
        first, second = shared[n], shared[n + 1]
        if (
            first.kind is not SignalKind.DATE or second.kind is not SignalKind.DATE
            or first.granularity not in ("day", "month") or second.window_start is None
            or first.window_start is None or first.window_end is None
            or _NAMED_YEAR.search(first.text) or not _NAMED_YEAR.search(second.text)
            or not _RANGE_JOIN.fullmatch(text[first.end : second.start])
        ):  # fmt: skip
            continue
        year = second.window_start.year
        try:
            start, end = _in_year(first.window_start, first.window_end, year)
            if start > second.window_start:
                start, end = _in_year(first.window_start, first.window_end, year - 1)
        except ValueError:  # 29 February of a year without one
            continue
        normalized = f"{start.year:04d}{first.normalized[4:]}"
        shared[n] = first.model_copy(update={"window_start": start, "window_end": end, "normalized": normalized})
    return shared


def _in_year(start: datetime, end: datetime, year: int) -> tuple[datetime, datetime]:
    """The window ``[start, end)`` moved to ``year`` (its end may fall in the year after)."""
    moved = start.replace(year=year)
    return moved, moved + (end - start)
