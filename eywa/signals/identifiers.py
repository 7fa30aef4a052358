"""EMAIL, URL and CODE signals: identifiers a candidate fact must reproduce exactly.

They run first of all detectors: an address or an order id is full of digits and dots that
the number and date detectors would otherwise read.
"""

from __future__ import annotations

import re

from eywa.models import Signal, SignalKind
from eywa.signals._text import keep_free, word_set

_EMAIL = re.compile(
    r"(?<![\w.+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b"
)
_URL = re.compile(
    r"\b(?:https?://|www\.)[^\s<>\"'`]+"
    r"|(?<![@\w.-])(?:[a-z0-9][a-z0-9-]*\.)+"
    r"(?:com|org|net|io|dev|edu|gov|ai|app|co\.uk|co|me|info|ly|tv|xyz)\b(?:/[^\s<>\"'`]*)?",
    re.IGNORECASE,
)
_URL_TAIL = ".,;:!?)]}'\""
_URL_WORDS = frozenset(
    "http https www com org net io dev edu gov ai app co uk me info ly tv xyz".split()
)

_CUED = re.compile(
    r"\b(?:order|ticket|invoice|case|ref|reference|confirmation|tracking|booking|reservation"
    r"|account|flight|claim|policy|serial|model|item|transaction|receipt|id|pnr|issue|pr)"
    r"\s*(?P<sep>(?:no\.?|number|num|code|:)\s*)?(?P<id>#?[A-Za-z0-9][A-Za-z0-9-]{2,})\b",
    re.IGNORECASE,
)
_HASH = re.compile(r"(?<![\w&])(?P<id>#\d{2,})\b")
_DASHED = re.compile(r"\b(?P<id>[A-Z][A-Z0-9]+-\d{2,}(?:-[A-Z0-9]+)*)\b")
_MIXED = re.compile(r"\b(?P<id>(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Z])[A-Za-z0-9]{4,})\b")
_HEX = re.compile(
    r"\b(?P<id>(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}"
    r"|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b",
    re.IGNORECASE,
)
_UNIT_SUFFIX = re.compile(
    r"^\d+(?:st|nd|rd|th|s|am|pm|[kmgx]|km|kg|mb|gb|tb|hz|mp|ft|lb|lbs)$", re.I
)


def _signal(kind: SignalKind, text: str, start: int, end: int, normalized: str) -> Signal:
    return Signal(kind=kind, text=text[start:end], start=start, end=end, normalized=normalized)


def _emails(text: str) -> list[Signal]:
    return [
        _signal(SignalKind.EMAIL, text, m.start(), m.end(), m.group(0).lower())
        for m in _EMAIL.finditer(text)
    ]


def _urls(text: str) -> list[Signal]:
    found: list[Signal] = []
    for match in _URL.finditer(text):
        raw = match.group(0).rstrip(_URL_TAIL)
        if "." not in raw or raw.lower() in ("www.",):
            continue
        end = match.start() + len(raw)
        found.append(_signal(SignalKind.URL, text, match.start(), end, raw.lower()))
    return found


def _codes(text: str) -> list[Signal]:
    found: list[Signal] = []
    for pattern in (_CUED, _HASH, _DASHED, _MIXED, _HEX):
        for match in pattern.finditer(text):
            code = match["id"]
            if not any(c.isdigit() for c in code) or _UNIT_SUFFIX.match(code):
                continue
            if pattern is _CUED and not match["sep"] and len(code) < 4:
                continue  # "order 100 pizzas" is a count; "order 88231" is an id
            start, end = match.span("id")
            found.append(_signal(SignalKind.CODE, text, start, end, code.lstrip("#").upper()))
    return found


def detect_identifiers(
    text: str, taken: list[tuple[int, int]], words: frozenset[str] | None = None
) -> list[Signal]:
    """EMAIL, URL and CODE signals (in that priority) over spans not yet ``taken``.

    Emails and URLs are normalised lower-cased; codes upper-cased without a leading "#", so
    "order #4512" and "#4512" anchor to the same value. ``words`` is ``word_set(text)`` if
    the caller already has it.
    """
    words = word_set(text) if words is None else words
    signals: list[Signal] = []
    if "@" in text:
        signals.extend(keep_free(_emails(text), taken))
    if "." in text and not _URL_WORDS.isdisjoint(words):
        signals.extend(keep_free(_urls(text), taken))
    if any(c.isdigit() for c in text):
        signals.extend(keep_free(_codes(text), taken))
    return signals
