"""Shared pieces of the detectors: number words, number parsing and span bookkeeping."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from decimal import Decimal, InvalidOperation

from eywa.models import Signal

SMALL_NUMBERS: dict[str, int] = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "dozen": 12,
}  # fmt: skip
"""Number words Level 0 reads. Compound tens ("twenty-five") are handled by ``word_value``."""

_TENS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
_UNITS = "one|two|three|four|five|six|seven|eight|nine"
WORD_NUMBER = (
    rf"(?:(?:{_TENS})[-\s](?:{_UNITS})|"
    + "|".join(sorted(SMALL_NUMBERS, key=len, reverse=True))
    + ")"
)
"""A regex alternative for one number word, longest alternatives first."""

DIGITS = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
"""A regex alternative for a digit number with optional thousands commas and decimals."""

MULTIPLIERS: dict[str, int] = {
    "k": 1_000, "thousand": 1_000, "m": 1_000_000, "mm": 1_000_000, "million": 1_000_000,
    "b": 1_000_000_000, "bn": 1_000_000_000, "billion": 1_000_000_000,
}  # fmt: skip

_SPLIT = re.compile(r"[-\s]+")
_WORDS = re.compile(r"[a-z]+")


def word_set(text: str) -> frozenset[str]:
    """The lower-cased alphabetic words of ``text``.

    Detectors test it before running their regexes: most turns hold no month name, no
    "ago", no digit, and a set lookup is far cheaper than a case-insensitive scan.
    """
    return frozenset(_WORDS.findall(text.lower()))


def word_value(word: str) -> int | None:
    """The value of a number word ("three", "twenty-five", "dozen"), or None."""
    parts = _SPLIT.split(word.lower().strip())
    if len(parts) == 1:
        return SMALL_NUMBERS.get(parts[0])
    if len(parts) == 2 and parts[0] in SMALL_NUMBERS and parts[1] in SMALL_NUMBERS:
        tens, units = SMALL_NUMBERS[parts[0]], SMALL_NUMBERS[parts[1]]
        if tens % 10 == 0 and 20 <= tens <= 90 and 1 <= units <= 9:
            return tens + units
    return None


def number_value(token: str) -> Decimal | None:
    """The value of a digit or word number token ("1,200", "2.5", "three"), or None.

    Articles count as one so that "a year" and "an hour" read as durations.
    """
    lowered = token.lower().strip()
    if lowered in ("a", "an"):
        return Decimal(1)
    if lowered and lowered[0].isdigit():
        try:
            return Decimal(lowered.replace(",", ""))
        except InvalidOperation:
            return None
    value = word_value(lowered)
    return None if value is None else Decimal(value)


def plain_decimal(value: Decimal) -> str:
    """A decimal without exponent or trailing zeros: 1200, 2.5, 3."""
    text = format(value.normalize(), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"


def overlaps(start: int, end: int, taken: Sequence[tuple[int, int]]) -> bool:
    """Whether [start, end) overlaps any of the ``taken`` spans."""
    return any(start < t_end and t_start < end for t_start, t_end in taken)


def keep_free(signals: Iterable[Signal], taken: list[tuple[int, int]]) -> list[Signal]:
    """The signals that overlap no taken span, longest first; their spans join ``taken``.

    Detectors run from the most specific to the least (a date before a plain number), so a
    span claimed once is never read again as something vaguer.
    """
    kept: list[Signal] = []
    for signal in sorted(signals, key=lambda s: (s.start - s.end, s.start)):
        if not overlaps(signal.start, signal.end, taken):
            kept.append(signal)
            taken.append((signal.start, signal.end))
    return kept
