"""Hard anchors: dates, amounts, numbers, quantities, ids, emails and URLs.

A candidate may only state an anchor that a cited turn also carries, compared on the
normalised forms Level 0 wrote: "7 May 2023" matches "last Sunday" said on 2023-05-09 because
both resolve to the same day; "$1,200" matches "1200 dollars" because both normalise to
"1200.00 USD". An LLM that invents a date or rounds an amount is caught here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal, InvalidOperation

from eywa.models import Evidence, Signal, SignalKind, as_utc

ANCHOR_KINDS = frozenset(
    {
        SignalKind.DATE,
        SignalKind.TIME,
        SignalKind.DURATION,
        SignalKind.MONEY,
        SignalKind.NUMBER,
        SignalKind.QUANTITY,
        SignalKind.URL,
        SignalKind.EMAIL,
        SignalKind.CODE,
    }
)
_NUMERIC_HOSTS = (SignalKind.MONEY, SignalKind.QUANTITY, SignalKind.DURATION)
_NUM = re.compile(r"-?\d+(?:[.,]\d+)*")


@dataclass(frozen=True)
class Anchor:
    """One anchor: the kind, the normalised value and the date window if any."""

    kind: SignalKind
    normalized: str
    text: str
    start: datetime | None = None
    end: datetime | None = None

    @classmethod
    def of(cls, signal: Signal) -> Anchor:
        """The anchor a signal denotes."""
        return cls(
            kind=signal.kind,
            normalized=signal.normalized or signal.text,
            text=signal.text,
            start=None if signal.window_start is None else as_utc(signal.window_start),
            end=None if signal.window_end is None else as_utc(signal.window_end),
        )

    @classmethod
    def day(cls, moment: datetime, text: str) -> Anchor:
        """A day-granularity date anchor for a datetime (a turn's time, a valid_from).

        The calendar's last day ends at ``datetime.max``: a turn said at the supported
        range's last instant (9999-12-30T23:59:59.999999Z) reads back from the embedded
        store's epoch seconds as 9999-12-31T00:00:00Z, and the day after it was an
        OverflowError that failed the turn's Level 1."""
        moment = as_utc(moment)
        start = moment.replace(hour=0, minute=0, second=0, microsecond=0)
        end = start + timedelta(days=1) if start.date() < date.max else datetime.max.replace(tzinfo=timezone.utc)
        return cls(SignalKind.DATE, start.date().isoformat(), text, start, end)


_ISO_DURATION = re.compile(r"^P(?P<n>\d+(?:\.\d+)?)(?P<unit>[YMWD])$")


def duration_back(moment: datetime, iso: str) -> datetime | None:
    """Midnight of the day ``iso`` (a Level 0 DURATION: "P10Y", "P3M", "P2W", "P10D")
    before ``moment``: when a state held "for ten years" said then began. None for a
    duration of hours or less, one too long for the calendar, or a form not listed.

    Years and months step the calendar (1 Mar 2023 less ten years is 1 Mar 2013; a day
    the month lacks is its last), a fraction of either in months and days; weeks and days
    are days. The validator offers the same day as an anchor of the turn, so a
    ``valid_from`` computed here is not taken for an invented date.
    """
    found = _ISO_DURATION.match(iso)
    if found is None:
        return None
    amount, unit = Decimal(found["n"]), found["unit"]
    day = as_utc(moment).date()
    try:
        if unit in "YM":
            months = amount * (12 if unit == "Y" else 1)
            whole = int(months)
            index = day.year * 12 + day.month - 1 - whole
            year, month = index // 12, index % 12 + 1
            last = (date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)).day
            day = date(year, month, min(day.day, last)) - timedelta(days=round(float(months - whole) * 30))
        else:
            day -= timedelta(days=round(float(amount) * (7 if unit == "W" else 1)))
    except (ValueError, OverflowError):
        return None
    return datetime(day.year, day.month, day.day, tzinfo=timezone.utc)


def _decimal(text: str) -> Decimal | None:
    found = _NUM.search(text)
    if found is None:
        return None
    try:
        return Decimal(found.group(0).replace(",", ""))
    except InvalidOperation:
        return None


def _unit(text: str) -> str:
    return _NUM.sub("", text).strip().lower()


def anchor_signals(signals: tuple[Signal, ...] | list[Signal]) -> list[Signal]:
    """The anchor signals of a text, without numbers that are part of a date or amount.

    Detectors may emit a NUMBER inside "7 May 2023" or "$1,200"; the enclosing signal is the
    anchor, the inner number is not a separate claim.
    """
    hosts = [s for s in signals if s.kind in ANCHOR_KINDS and s.kind is not SignalKind.NUMBER]
    out = list(hosts)
    for s in signals:
        if s.kind is SignalKind.NUMBER and not any(h.start <= s.start and s.end <= h.end for h in hosts):
            out.append(s)
    return sorted(out, key=lambda s: (s.start, s.end))


def evidence_anchors(
    turn: Evidence, masked: list[tuple[int, int]], signals: Sequence[Signal] | None = None
) -> list[Anchor]:
    """The anchors one cited turn offers: its signals (``signals`` when given: the turn's text
    read again by today's detector, see ``Validator._anchors``) outside masked spans, and its
    own day."""
    signals = turn.signals if signals is None else list(signals)
    out = [
        Anchor.of(s)
        for s in anchor_signals(signals)
        if not any(a <= s.start < b for a, b in masked)
    ]
    out.append(Anchor.day(turn.observed_at, "observed_at"))
    # "I've lived in Leeds for ten years" said on 1 Mar 2023 states a start, 1 Mar 2013.
    for s in signals:
        if s.kind is SignalKind.DURATION and not any(a <= s.start < b for a, b in masked):
            if (began := duration_back(turn.observed_at, s.normalized or "")) is not None:
                out.append(Anchor.day(began, s.text))
    return out


def _dates_match(claim: Anchor, offered: Anchor) -> bool:
    if claim.start is not None and claim.end is not None and offered.start is not None and offered.end is not None:
        return claim.start < offered.end and offered.start < claim.end
    a, b = claim.normalized, offered.normalized
    shorter = min(len(a), len(b))
    return shorter >= 4 and a[:shorter] == b[:shorter]


def match_anchor(claim: Anchor, offered: list[Anchor], text: str) -> Anchor | None:
    """The offered anchor that ``claim`` matches, or None.

    ``text`` is the cited turn's (masked) text, used for literal fallbacks on ids and URLs.
    """
    kind = claim.kind
    if kind is SignalKind.DATE:
        return next((o for o in offered if o.kind is SignalKind.DATE and _dates_match(claim, o)), None)
    if kind in (SignalKind.URL, SignalKind.EMAIL, SignalKind.CODE, SignalKind.TIME, SignalKind.DURATION):
        norm = claim.normalized.lower()
        for o in offered:
            if o.kind is kind and o.normalized.lower() == norm:
                return o
        if claim.text.lower() in text.lower() or (kind is not SignalKind.DURATION and norm in text.lower()):
            return Anchor(kind, claim.normalized, claim.text)
        return None
    value = _decimal(claim.normalized)
    if value is None:
        return None
    if kind is SignalKind.MONEY:
        currency = _unit(claim.normalized)
        for o in offered:
            if o.kind is SignalKind.MONEY and _decimal(o.normalized) == value:
                other = _unit(o.normalized)
                if not currency or not other or currency == other:
                    return o
        return next((o for o in offered if o.kind is SignalKind.NUMBER and _decimal(o.normalized) == value), None)
    if kind is SignalKind.QUANTITY:
        unit = _unit(claim.normalized)
        same_number = [o for o in offered if o.kind is SignalKind.QUANTITY and _decimal(o.normalized) == value]
        for o in same_number:
            if _unit(o.normalized) == unit:
                return o
        if same_number:
            return None
        return next((o for o in offered if o.kind is SignalKind.NUMBER and _decimal(o.normalized) == value), None)
    # Plain numbers: any numeric anchor with the same value, then a literal token.
    for o in offered:
        if (o.kind is SignalKind.NUMBER or o.kind in _NUMERIC_HOSTS) and _decimal(o.normalized) == value:
            return o
    if value == value.to_integral_value() and re.search(rf"(?<![\d.,]){int(value)}(?![\d])", text):
        return Anchor(kind, claim.normalized, claim.text)
    return None
