"""TIME signals: times of day, pinned to the day of a date said in the same turn.

"at 3pm" alone names no moment, so it is kept as "15:00" without a window; with a day in
the turn ("tonight at 8pm", "1:56 pm on 8 May, 2023") it becomes that minute.
"""

from __future__ import annotations

import re
from datetime import timedelta

from eywa.models import Signal, SignalKind
from eywa.signals import _calendar as cal
from eywa.signals._text import keep_free

_TIME = re.compile(
    r"\b(?:(?P<h12>1[0-2]|0?[1-9])(?::(?P<m12>[0-5]\d))?\s*(?P<ampm>[ap])\.?m\b\.?"
    r"|(?P<h24>[01]?\d|2[0-3]):(?P<m24>[0-5]\d)(?![\d:])"
    r"|(?P<oclock>1[0-2]|[1-9])\s+o'clock\b"
    r"|(?P<named>noon|midnight)\b)",
    re.IGNORECASE,
)
TIME_WORDS = frozenset({"noon", "midnight"})
"""Times of day spelled without a digit; any other time needs one."""


def _time_of_day(match: re.Match[str]) -> tuple[int, int]:
    if match["named"]:
        return (12, 0) if match["named"].lower() == "noon" else (0, 0)
    if match["h24"]:
        return int(match["h24"]), int(match["m24"])
    if match["oclock"]:
        return int(match["oclock"]), 0
    hour = int(match["h12"]) % 12 + (12 if match["ampm"].lower() == "p" else 0)
    return hour, int(match["m12"] or 0)


def detect_times(text: str, dates: list[Signal], taken: list[tuple[int, int]]) -> list[Signal]:
    """TIME signals over spans not yet ``taken``, each on the day of the nearest day-date.

    Args:
        text: the turn.
        dates: the DATE signals of the same turn; day-granular ones give the time its day.
        taken: claimed spans; extended in place with the times found.
    """
    days = [d for d in dates if d.granularity == "day" and d.window_start is not None]
    found: list[Signal] = []
    for match in _TIME.finditer(text):
        hour, minute = _time_of_day(match)
        nearest = min(days, key=lambda d: abs(d.start - match.start()), default=None)
        if nearest is not None and nearest.window_start is not None:
            moment = nearest.window_start + timedelta(hours=hour, minutes=minute)
            found.append(cal.as_signal(SignalKind.TIME, match, cal.at_minute(moment)))
            continue
        found.append(
            Signal(
                kind=SignalKind.TIME,
                text=match.group(0),
                start=match.start(),
                end=match.end(),
                normalized=f"{hour:02d}:{minute:02d}",
            )
        )
    return keep_free(found, taken)
