"""Values every store can carry: valid Unicode text, instants in the supported range, and
JSON documents that come back exactly as they were given.

Pure functions without settings. ``eywa.models`` validates a ``Turn`` with them, and
``eywa.contract`` adds the configured limits (lengths, depth, size) on top.

Why each rule exists:

- **Text.** A lone surrogate (``"\\ud800"``) is a valid Python ``str``, but no UTF-8
  encoder accepts it: SQLite, Neo4j, the JSON answer and the hash of an id all fail on it.
- **Times.** Python's calendar runs from 0001-01-01 to 9999-12-31. A time at either edge
  with an offset cannot be converted to UTC (``0001-01-01T00:00+01:00`` is in year 0), and
  the embedded store keeps epoch seconds, whose rounding at 9999-12-31T23:59:59.999999
  lands in year 10000. The supported range therefore keeps one day's margin at each end:
  :data:`SUPPORTED_FROM` to :data:`SUPPORTED_UNTIL`, in UTC.
- **JSON.** Metadata is stored as JSON and returned as given, so only what JSON carries
  unchanged is accepted: objects with string keys (JSON would turn the key ``1`` into
  ``"1"``), finite numbers (JSON has no NaN or Infinity; Python would write a token other
  readers refuse, and HTTP answers would turn it into ``null``), integers that fit in 64
  bits (what Neo4j and most JSON readers keep exactly), text without lone surrogates.
  Tuples are accepted and come back as lists. The walk is iterative, so a document nested
  a thousand levels deep is refused with a message, not a ``RecursionError``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Final

__all__ = [
    "MAX_JSON_DEPTH",
    "SUPPORTED_FROM",
    "SUPPORTED_UNTIL",
    "JsonShape",
    "json_shape",
    "lone_surrogate",
    "parse_time",
    "supported_utc",
    "text_problem",
]

SUPPORTED_FROM: Final = datetime(1, 1, 2, tzinfo=timezone.utc)
"""The earliest accepted instant (UTC)."""
SUPPORTED_UNTIL: Final = datetime(9999, 12, 30, 23, 59, 59, 999999, tzinfo=timezone.utc)
"""The latest accepted instant (UTC)."""
MAX_JSON_DEPTH: Final = 256
"""Nesting beyond which a document is refused whatever the settings say (bounds the walk)."""
_INT_MIN: Final = -(2**63)
_INT_MAX: Final = 2**63 - 1


def lone_surrogate(text: str) -> int | None:
    """The index of the first lone surrogate in ``text``, or None when it is valid Unicode.

    Example:
        >>> lone_surrogate("ok"), lone_surrogate("a\\ud800")
        (None, 1)
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start
    return None


def text_problem(text: str) -> str | None:
    """Why ``text`` cannot be stored, or None when it can."""
    index = lone_surrogate(text)
    if index is None:
        return None
    return f"contains a lone surrogate (U+{ord(text[index]):04X}) at index {index}; text must be valid Unicode"


def _range_message() -> str:
    return f"must lie between {SUPPORTED_FROM.isoformat()} and {SUPPORTED_UNTIL.isoformat()} (UTC)"


def supported_utc(value: datetime) -> datetime:
    """``value`` as an aware UTC datetime (a naive one is taken to be UTC).

    Raises:
        ValueError: the instant is outside the supported range, including one that
            cannot even be converted to UTC.
    """
    try:
        converted = value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value.astimezone(timezone.utc)
    except OverflowError:
        raise ValueError(f"{value.isoformat()} {_range_message()}") from None
    if not SUPPORTED_FROM <= converted <= SUPPORTED_UNTIL:
        raise ValueError(f"{value.isoformat()} {_range_message()}")
    return converted


def parse_time(value: object) -> datetime:
    """An ISO-8601 string or a datetime as a supported UTC instant.

    Raises:
        ValueError: not a datetime or ISO-8601 text, or outside the supported range.
    """
    if isinstance(value, str):
        text = value
        try:
            value = datetime.fromisoformat(text)
        except ValueError:
            raise ValueError(f"must be an ISO-8601 datetime, got {text[:64]!r}") from None
    if not isinstance(value, datetime):
        raise ValueError(f"must be an ISO-8601 datetime, got {type(value).__name__}")
    return supported_utc(value)


@dataclass(frozen=True)
class JsonShape:
    """What a walk over a document found: its nesting depth and its first problem."""

    depth: int
    problem: str | None = None
    """``"<path>: <why>"`` (path relative to the document, ``a.0.b``), or None."""
    too_deep: bool = False
    """The walk stopped because the document nests deeper than it was allowed to look."""


def _scalar_problem(value: object) -> str | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return None if _INT_MIN <= value <= _INT_MAX else "integer does not fit in 64 bits"
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{value} is not a JSON number (NaN and Infinity are refused)"
    if isinstance(value, str):
        return text_problem(value)
    return f"a {type(value).__name__} is not a JSON value"


def _at(path: str, why: str) -> str:
    shown = path if len(path) <= 80 else f"{path[:80]}…"
    return f"{shown}: {why}" if path else why


def json_shape(document: object, *, max_depth: int = MAX_JSON_DEPTH) -> JsonShape:
    """Walk ``document`` (iteratively) and report its depth and first problem.

    The depth counts nested containers: ``{}`` and ``[]`` are 1, ``{"a": [1]}`` is 2. The
    walk stops at the first problem, or as soon as the depth exceeds ``max_depth``
    (``too_deep``), so a cyclic or absurdly deep document costs at most ``max_depth``
    levels.

    Example:
        >>> json_shape({"a": [1, {"b": float("nan")}]}).problem
        'a.1.b: nan is not a JSON number (NaN and Infinity are refused)'
    """
    stack: list[tuple[object, int, str]] = [(document, 1, "")]
    deepest = 0
    while stack:
        value, depth, path = stack.pop()
        if isinstance(value, dict):
            items: list[tuple[str, object]] = []
            for key, inner in value.items():
                if not isinstance(key, str):
                    return JsonShape(deepest, _at(path, f"key {key!r} is not a string"))
                if (problem := text_problem(key)) is not None:
                    return JsonShape(deepest, _at(path, f"a key {problem}"))
                items.append((key, inner))
        elif isinstance(value, list | tuple):
            items = [(str(index), inner) for index, inner in enumerate(value)]
        else:
            problem = _scalar_problem(value)
            if problem is not None:
                return JsonShape(deepest, _at(path, problem))
            continue
        deepest = max(deepest, depth)
        if depth > max_depth:
            return JsonShape(deepest, _at(path, f"nested deeper than {max_depth} levels"), too_deep=True)
        stack.extend((inner, depth + 1, f"{path}.{key}" if path else key) for key, inner in reversed(items))
    return JsonShape(deepest)
