"""JSON text read with each object's keys named once: a repeated key is refused, not resolved.

``json.loads('{"text": "a", "text": "b"}')`` keeps the last value without a word, and so do
pydantic's parser and every framework built on them: a request saying two things was served
as one of them, chosen by the parser (RFC 8259 4: "The names within an object SHOULD be
unique", and when they are not "the behavior of software that receives such an object is
unpredictable"). The surfaces that read JSON a caller wrote (the HTTP API's bodies, the MCP
server's HTTP messages, an import's lines) read it through :func:`loads_unique`, which
refuses such an object naming the key's dotted path, the path the input contract uses
(``turns.0.text``).

The check is a hook on each object the decoder builds (a ``dict`` of its pairs, compared in
length with them), so a text is still parsed once; the path is looked for only when a key
repeats.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, Final

from eywa.errors import InvalidInputError

__all__ = ["REPEATED_KEY", "loads_unique", "repeated_key"]

REPEATED_KEY: Final = "given more than once in its JSON object; give each key once"
"""The message of a repeated key (its field is the key's dotted path)."""


class _Repeated(Exception):
    """Raised by the decoder's hook at the first object that names a key twice."""


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise _Repeated
    return found


class _Marked(dict[str, Any]):
    """A decoded object that named ``repeated`` twice (the path search's second reading)."""

    repeated: str = ""


def _marking(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) == len(pairs):
        return found
    seen: set[str] = set()
    marked = _Marked(found)
    marked.repeated = next(key for key, _ in pairs if key in seen or seen.add(key))  # type: ignore[func-returns-value]
    return marked


def _walk(value: Any, path: tuple[str, ...]) -> Iterator[str]:
    """The dotted paths of the repeated keys under ``value``, in document order."""
    stack: list[tuple[Any, tuple[str, ...]]] = [(value, path)]
    while stack:
        current, where = stack.pop()
        if isinstance(current, _Marked):
            yield ".".join((*where, current.repeated or '""'))  # the empty key, shown as written
        if isinstance(current, dict):
            stack.extend((item, (*where, str(key))) for key, item in reversed(current.items()))
        elif isinstance(current, list):
            stack.extend((item, (*where, str(i))) for i, item in reversed(list(enumerate(current))))


def repeated_key(text: str | bytes) -> str | None:
    """The dotted path of the first key of ``text`` named twice in one object (``"k"``,
    ``"turns.0.text"``), None when every key is named once or ``text`` is no JSON."""
    try:
        decoded = json.loads(text, object_pairs_hook=_marking)
    except (ValueError, RecursionError):
        return None
    return next(_walk(decoded, ()), None)


def loads_unique(text: str | bytes) -> Any:
    """``json.loads(text)``, refusing an object that names a key more than once.

    Raises:
        InvalidInputError: a key is repeated; the problem's field is its dotted path.
        json.JSONDecodeError, ValueError, RecursionError: as ``json.loads`` (``text`` is no
            JSON, holds an integer too long to convert, or is nested beyond the decoder).
    """
    try:
        return json.loads(text, object_pairs_hook=_unique)
    except _Repeated:
        path = repeated_key(text)
        raise InvalidInputError.at(path or "?", REPEATED_KEY) from None  # no path: the hook and the search disagree, never
