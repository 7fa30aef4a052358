"""The input contract: what every surface accepts, checked once, in the core.

The Python API, the HTTP API, the MCP server, the CLI and ``eywa.Client`` all end in
``Memory``, and ``Memory`` checks every input here before anything is read or written. The
surfaces only translate the one error into their own shape (problem+json with the same
``code`` and field path, an MCP tool error prefixed with the code, a CLI line), so a limit
cannot be skipped by choosing another door, and every input is either accepted or refused
with an ``InvalidInputError`` (a ``ValueError``) — never an exception from below.

What is refused, and with which code (``eywa.errors.ErrorCode``):

- ``invalid_input`` / ``invalid_turn``: malformed input — a wrong type, blank text or
  query, a lone surrogate in any string, a time outside ``eywa.values``' supported range,
  metadata JSON would not return unchanged, the space ``*``.
- ``too_many_turns``: more than ``max_turns_per_batch`` turns in one call.
- ``turn_too_long``: a turn's text over ``max_chars_per_turn`` characters.
- ``limit_exceeded``: any other configured limit (:class:`Limits`).

Space quotas (``EYWA_SPACE_MAX_TURNS``, ``EYWA_SPACE_MAX_BYTES``) depend on what is stored,
so ``Memory.remember`` hands them (:class:`SpaceQuota`) to the store's Level 0 write, which
checks them (:func:`check_quota`) inside its own transaction.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Final, get_args

from pydantic import ValidationError

from eywa.errors import FieldProblem, InputCode, InvalidInputError, InvalidTurnError, QuotaExceededError
from eywa.ids import check_space
from eywa.models import Policy, Turn
from eywa.settings import EywaSettings
from eywa.values import json_shape, parse_time, text_problem

__all__ = [
    "Limits",
    "check_directory",
    "check_plugins",
    "check_settings",
    "RecallParams",
    "SpaceQuota",
    "SpaceUsage",
    "check_choice",
    "check_flag",
    "check_since",
    "parse_duration",
    "check_label",
    "check_labels",
    "check_optional_callable",
    "check_optional_label",
    "check_params",
    "check_quota",
    "check_recall",
    "check_retention",
    "check_space",
    "check_spaces",
    "check_time",
    "check_turns",
    "turn_bytes",
    "turn_model",
    "validation_message",
]

_POLICIES: Final[tuple[Policy, ...]] = get_args(Policy)
_LABELS: Final = ("speaker", "role", "session", "external_id")


@dataclass(frozen=True)
class Limits:
    """The configured limits, read from ``EywaSettings`` (the defaults are the settings')."""

    max_turns_per_batch: int = 500
    max_chars_per_turn: int = 20_000
    max_label_chars: int = 500
    max_query_chars: int = 4_000
    max_k: int = 100
    max_budget_tokens: int = 32_000
    max_metadata_depth: int = 16
    max_metadata_bytes: int = 16_384
    space_max_turns: int = 0
    space_max_bytes: int = 0

    @classmethod
    def from_settings(cls, settings: EywaSettings) -> Limits:
        """The limits ``settings`` configure."""
        return cls(**{name: getattr(settings, name) for name in cls.__dataclass_fields__})


@dataclass(frozen=True)
class SpaceQuota:
    """What a space may hold: ``turns`` and ``bytes`` (``turn_bytes``); 0 is no quota.

    ``EvidenceStore.add(..., quota=)`` checks a batch against it in the batch's own write
    transaction; ``None`` there (no quota set, :meth:`of`) costs nothing.
    """

    turns: int = 0
    bytes: int = 0

    @classmethod
    def of(cls, limits: Limits) -> SpaceQuota | None:
        """The quota ``limits`` set, or None when they set none (nothing to check)."""
        if not (limits.space_max_turns or limits.space_max_bytes):
            return None
        return cls(turns=limits.space_max_turns, bytes=limits.space_max_bytes)


@dataclass(frozen=True)
class SpaceUsage:
    """What a space holds, in the units of its quotas (see :func:`turn_bytes`)."""

    turns: int
    bytes: int


@dataclass(frozen=True)
class RecallParams:
    """The checked arguments of a recall."""

    query: str
    k: int
    budget_tokens: int | None
    policy: Policy
    as_of: datetime | None


def turn_bytes(text: str, metadata: Mapping[str, Any]) -> int:
    """A stored turn's size for the bytes quota: UTF-8 text plus its metadata as JSON text."""
    return len(text.encode("utf-8")) + len(json.dumps(metadata, ensure_ascii=False).encode("utf-8"))


def check_label(value: object, field: str, limits: Limits | None) -> str:
    """A short string argument (an id, an entity, an attribute) as given.

    ``limits`` None checks the shape alone: ``eywa.Client`` checks before sending what no
    request could carry, and leaves the limits, which are the server's, to the server.

    Raises:
        InvalidInputError: not a string, blank, a lone surrogate, or longer than
            ``max_label_chars`` (``limit_exceeded``).
    """
    if not isinstance(value, str) or not value.strip():
        raise InvalidInputError.at(field, "must be a non-empty string")
    if (problem := text_problem(value)) is not None:
        raise InvalidInputError.at(field, problem)
    if limits is not None and len(value) > limits.max_label_chars:
        raise InvalidInputError.at(field, f"at most {limits.max_label_chars} characters", code="limit_exceeded")
    return value


def check_optional_label(value: object, field: str, limits: Limits | None) -> str | None:
    """``check_label`` for an argument that may be left out (``None``), such as an ``author``.

    Raises:
        InvalidInputError: as ``check_label``.
    """
    return None if value is None else check_label(value, field, limits)


def check_optional_callable(value: object, field: str) -> Any:
    """An optional callback (``remember``'s ``progress``): None or something callable.

    Checked with the other arguments, before anything is written: a number given as
    ``progress`` was called only after the batch was committed, so the call raised a
    TypeError from below for a batch that was stored all the same.

    Raises:
        InvalidInputError: neither None nor callable.
    """
    if value is not None and not callable(value):
        raise InvalidInputError.at(field, f"must be a function taking a count, got {type(value).__name__}")
    return value


def check_labels(values: object, field: str, limits: Limits | None) -> list[str] | None:
    """An optional non-empty list of labels (the ids an erasure selects), each checked as
    ``check_label`` under ``field.<index>``.

    Raises:
        InvalidInputError: not a list (a bare string is not one), empty, or an item refused.
    """
    if values is None:
        return None
    if isinstance(values, str | bytes) or not isinstance(values, Sequence) or not values:
        raise InvalidInputError.at(field, "must be a non-empty list of non-empty strings")
    return [check_label(value, f"{field}.{index}", limits) for index, value in enumerate(values)]


def check_spaces(values: object, field: str) -> list[str]:
    """A list of space names (``Memory.space_counts``), each checked as ``check_space``.

    Raises:
        InvalidInputError: not a list (a bare string is one name, not a list of its
            characters; None is no list), or a name refused (field ``space``).
    """
    if isinstance(values, str | bytes) or not isinstance(values, Sequence):
        raise InvalidInputError.at(field, "must be a list of space names")
    return [check_space(value) for value in values]


def check_retention(policy: object) -> dict[str, float]:
    """A retention policy: space name (or ``*``, every other space) to a positive number of
    days, as ``EYWA_RETENTION_DAYS`` holds it.

    Raises:
        InvalidInputError: not a mapping (a string or a list of pairs reached ``dict()`` as
            a ValueError or TypeError), a bad space name, or a period that is not a positive
            number of days (field ``policy.<space>``).
    """
    if not isinstance(policy, Mapping):
        raise InvalidInputError.at("policy", f"must map spaces to days, got {type(policy).__name__}")
    chosen: dict[str, float] = {}
    for space, days in policy.items():
        if space != "*":
            check_space(space)
        if isinstance(days, bool) or not isinstance(days, (int, float)) or not days > 0:
            raise InvalidInputError.at(f"policy.{space}", "must be a positive number of days")
        chosen[space] = days
    return chosen


def check_choice(value: object, field: str, choices: Sequence[str]) -> Any:
    """One of ``choices`` (a ``Literal``'s values), or ``None`` where the caller allows it.

    Raises:
        InvalidInputError: anything else, so an unknown value is refused, not read as "none".
    """
    if value is None or (isinstance(value, str) and value in choices):
        return value
    raise InvalidInputError.at(field, f"must be one of {', '.join(choices)}")


def check_flag(value: object, field: str) -> bool:
    """A yes/no argument (``include_removed``): ``True`` or ``False`` only, so ``"no"`` (a
    true string) or ``0`` is refused, not read by its truth.

    Raises:
        InvalidInputError: anything but a bool.
    """
    if isinstance(value, bool):
        return value
    raise InvalidInputError.at(field, "must be true or false")


def check_directory(value: object, field: str) -> Path:
    """``value`` as the directory of an embedded store.

    A path the file system cannot take failed deep inside the open (ValueError for a NUL,
    UnicodeEncodeError for a lone surrogate, TypeError for a number); an empty string named
    the current directory, where a store was then created without anyone asking for it.

    A path that names an existing file (or lies under one) is the caller's mistake too: the
    store's ``mkdir`` failed with ``FileExistsError`` (or ``NotADirectoryError``), which the
    open reported as ``store_unavailable``, as though the disk were at fault.

    Raises:
        InvalidInputError: not a ``str`` or ``os.PathLike`` path, empty, holding a NUL
            character, not encodable as a file name, refused by the file system (a name
            longer than it takes: ``OSError`` from the check before), or naming (or lying
            under) something that exists and is not a directory.
    """
    if not isinstance(value, (str, os.PathLike)):
        raise InvalidInputError.at(field, f"must be a directory path, got {type(value).__name__}")
    raw = os.fspath(value)
    try:
        encoded = os.fsencode(raw)
    except UnicodeEncodeError:
        raise InvalidInputError.at(field, "must be encodable as a file name (a lone surrogate is not)") from None
    if not encoded.strip() or b"\x00" in encoded:
        raise InvalidInputError.at(field, "must be a non-empty path without NUL characters")
    path = Path(os.fsdecode(encoded))
    try:
        existing = next((p for p in (path, *path.parents) if p.exists()), None)
    except OSError as exc:  # ENAMETOOLONG: a name over the file system's limit (255 bytes)
        raise InvalidInputError.at(field, f"the file system cannot take this path ({exc.strerror})") from None
    if existing is not None and not existing.is_dir():
        raise InvalidInputError.at(field, f"{existing} is a file, not a directory")
    return path


def check_settings(value: object) -> EywaSettings | None:
    """``value`` as settings, or None (read them from ``EYWA_*``).

    Raises:
        InvalidInputError: ``value`` is not an ``EywaSettings`` (a dict fails later, far
            from the call, as an AttributeError).
    """
    if value is not None and not isinstance(value, EywaSettings):
        raise InvalidInputError.at("settings", f"must be EywaSettings (eywa.runtime.load_settings()), got {type(value).__name__}")
    return value


def check_plugins(embedder: object, extractor: object) -> None:
    """The embedder and extractor a memory is opened with, when given, have the members it
    calls (``eywa.embedding.Embedder``, ``eywa.extraction.Extractor``; checked by shape, as
    their protocols are): an object without them failed as an AttributeError, the
    extractor's only at its first batch.

    Raises:
        InvalidInputError: ``embedder`` lacks a positive integer ``dim``, a text
            ``model_id`` or a callable ``embed``; ``extractor`` a text ``name`` or a
            callable ``propose``.
    """
    if embedder is not None:
        dim = getattr(embedder, "dim", None)
        if (
            isinstance(dim, bool) or not isinstance(dim, int) or dim < 1
            or not isinstance(getattr(embedder, "model_id", None), str) or not callable(getattr(embedder, "embed", None))
        ):  # fmt: skip
            raise InvalidInputError.at("embedder", "must have model_id (text), dim (a positive integer) and embed(texts)")
    if extractor is not None and (
        not isinstance(getattr(extractor, "name", None), str) or not callable(getattr(extractor, "propose", None))
    ):
        raise InvalidInputError.at("extractor", "must have name (text) and propose(space, evidence)")


def check_time(value: object, field: str) -> datetime | None:
    """An optional time argument (``as_of``) as a supported UTC instant.

    Raises:
        InvalidInputError: not ISO-8601 text or a datetime, or outside the supported range.
    """
    if value is None:
        return None
    try:
        return parse_time(value)
    except ValueError as exc:
        raise InvalidInputError.at(field, str(exc)) from None


DURATION: Final = re.compile(r"^\s*(\d+)\s*([smhdw])\s*$")
"""A duration as the CLI and the access log take it: a count and one unit (``90s``, ``1h``)."""
_UNITS: Final = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
_BARE_NUMBER: Final = re.compile(r"^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$")


def parse_duration(text: str, field: str) -> timedelta:
    """``"90s"``, ``"15m"``, ``"1h"``, ``"30d"``, ``"2w"`` as a timedelta.

    Raises:
        InvalidInputError: any other text, or a duration past ``timedelta``'s range.
    """
    found = DURATION.match(text)
    if found is None:
        raise InvalidInputError.at(field, f"expected a duration such as 90s, 15m, 1h, 30d or 2w; got {text[:64]!r}")
    try:
        return timedelta(**{_UNITS[found[2]]: int(found[1])})
    except OverflowError:  # beyond timedelta's 999,999,999 days: a user mistake, not a traceback
        raise InvalidInputError.at(field, f"{text.strip()!r} is too long a duration") from None


def check_since(value: object, field: str, now: datetime) -> datetime | None:
    """A moment back, as the access log's ``since`` takes it on every surface: an ISO-8601
    time (or a datetime), or a duration back from ``now`` (``90s``, ``15m``, ``1h``, ``7d``,
    ``2w``).

    A bare number is refused: ``5`` could mean seconds, minutes or Unix time, and read as
    Unix time (what the API's datetime parameter did) it asked for everything since 1970.
    An 8-digit compact date (``20240101``) is ISO-8601 and stays a date.

    Raises:
        InvalidInputError: anything else, or a moment outside the supported range.
    """
    if value is None or isinstance(value, datetime):
        return check_time(value, field)
    if not isinstance(value, str):
        raise InvalidInputError.at(field, f"must be an ISO-8601 time or a duration such as 1h, got {type(value).__name__}")
    if DURATION.match(value):
        delta = parse_duration(value, field)
        try:
            return parse_time(now - delta)
        except (OverflowError, ValueError):
            raise InvalidInputError.at(field, f"{delta.days} days before now is outside the supported range of times") from None
    if _BARE_NUMBER.match(value):
        try:
            return parse_time(value)  # a compact ISO-8601 date such as 20240101
        except ValueError:
            raise InvalidInputError.at(
                field, f"{value.strip()[:32]!r} is a bare number: give a duration with its unit (5m, 5h, 5d) or an ISO-8601 time"
            ) from None
    try:
        return parse_time(value)
    except ValueError as exc:
        raise InvalidInputError.at(field, f"a duration back (1h, 7d) or an ISO-8601 time: {exc}") from None


def check_params(params: Mapping[str, object], limits: Limits) -> None:
    """The parameters of a named audit carry no text a store could not encode, and each is
    as long as a label may be.

    A name that is not a string reached the registry's message as a ``TypeError`` (it joins
    the unknown names), and one with a lone surrogate was quoted in the error, which no
    surface could then print or send. An audit's parameters are ids, names, times and counts:
    bounded by the recall query's ``max_query_chars``, a timeline's speaker of 501 characters
    was run by ``Memory.audit`` and ``eywa audit`` and refused by the HTTP timeline.

    Raises:
        InvalidInputError: a name that is not a string or holds a lone surrogate (field
            ``params``), or a value with a lone surrogate or longer than ``max_label_chars``
            (``limit_exceeded``).
    """
    if not isinstance(params, Mapping):
        return  # the audit registry names this mistake itself
    for name in params:
        if not isinstance(name, str):
            raise InvalidInputError.at("params", f"parameter names must be strings, got {type(name).__name__}")
        if (problem := text_problem(name)) is not None:
            raise InvalidInputError.at("params", f"a parameter name {problem}")
    for name, value in params.items():
        if isinstance(value, str) and (problem := text_problem(value)) is not None:
            raise InvalidInputError.at(f"params.{name}", problem)
        if isinstance(value, str) and len(value) > limits.max_label_chars:
            raise InvalidInputError.at(
                f"params.{name}", f"at most {limits.max_label_chars} characters", code="limit_exceeded"
            )  # fmt: skip


def check_turns(turns: object, limits: Limits) -> list[Turn]:
    """Validate a whole batch before anything is written; the error names the first bad turn.

    Raises:
        InvalidInputError: ``turns`` is not a non-empty list (``invalid_input``) or holds
            more than ``max_turns_per_batch`` turns (``too_many_turns``).
        InvalidTurnError: naming the first invalid turn and field, with the code of the
            rule it breaks.
    """
    if isinstance(turns, str | bytes) or not isinstance(turns, Sequence):
        raise InvalidInputError.at("turns", "must be a list of turns")
    if not turns:
        raise InvalidInputError.at("turns", "must hold at least one turn")
    if len(turns) > limits.max_turns_per_batch:
        raise InvalidInputError.at(
            "turns", f"{len(turns)} turns exceed the limit of {limits.max_turns_per_batch} per batch",
            code="too_many_turns",
        )  # fmt: skip
    checked: list[Turn] = []
    for index, raw in enumerate(turns):
        turn = turn_model(index, raw)
        _check_turn_limits(index, turn, limits)
        checked.append(turn)
    return checked


def validation_message(message: str) -> str:
    """A pydantic error message without the "Value error, " its validators' errors get."""
    return message.removeprefix("Value error, ")


def turn_model(index: int, raw: object) -> Turn:
    """The ``index``-th turn of a batch as a ``Turn``: the model's checks, no limits.

    Raises:
        InvalidTurnError: not a dict or ``Turn``, or a field the model refuses (named).
    """
    if isinstance(raw, Turn):
        return raw
    if not isinstance(raw, Mapping):
        raise InvalidTurnError(index, f"expected a dict or Turn, got {type(raw).__name__}")
    try:
        return Turn.model_validate(dict(raw))
    except ValidationError as exc:
        first = exc.errors(include_input=False, include_url=False)[0]
        field = ".".join(str(part) for part in first["loc"]) or None
        raise InvalidTurnError(index, validation_message(first["msg"]), field=field) from exc


def _check_turn_limits(index: int, turn: Turn, limits: Limits) -> None:
    if len(turn.text) > limits.max_chars_per_turn:
        raise InvalidTurnError(index, f"at most {limits.max_chars_per_turn} characters", field="text", code="turn_too_long")
    for name in _LABELS:
        value = getattr(turn, name)
        if value is not None and len(value) > limits.max_label_chars:
            raise InvalidTurnError(index, f"at most {limits.max_label_chars} characters", field=name, code="limit_exceeded")
    shape = json_shape(turn.metadata, max_depth=limits.max_metadata_depth)
    if shape.problem is not None:
        code: InputCode = "limit_exceeded" if shape.too_deep else "invalid_turn"
        raise InvalidTurnError(index, shape.problem, field="metadata", code=code)
    size = len(json.dumps(turn.metadata, ensure_ascii=False).encode("utf-8"))
    if size > limits.max_metadata_bytes:
        raise InvalidTurnError(
            index, f"{size} bytes as JSON; at most {limits.max_metadata_bytes}", field="metadata", code="limit_exceeded"
        )  # fmt: skip


def check_recall(
    query: object, k: object, budget_tokens: object, policy: object, as_of: object, limits: Limits
) -> RecallParams:
    """Check every argument of a recall; all problems are reported at once.

    Raises:
        InvalidInputError: ``limit_exceeded`` when every problem is a limit (a query over
            ``max_query_chars``, k over ``max_k``, a budget over ``max_budget_tokens``),
            else ``invalid_input``; ``problems`` lists each field.
    """
    malformed: list[FieldProblem] = []
    over: list[FieldProblem] = []
    if not isinstance(query, str) or not query.strip():
        malformed.append(FieldProblem("query", "must be a non-empty string"))
    elif (problem := text_problem(query)) is not None:
        malformed.append(FieldProblem("query", problem))
    elif len(query) > limits.max_query_chars:
        over.append(FieldProblem("query", f"at most {limits.max_query_chars} characters"))
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        malformed.append(FieldProblem("k", f"must be an integer between 1 and {limits.max_k}"))
    elif k > limits.max_k:
        over.append(FieldProblem("k", f"at most {limits.max_k}"))
    if budget_tokens is not None:
        if isinstance(budget_tokens, bool) or not isinstance(budget_tokens, int) or budget_tokens < 1:
            malformed.append(FieldProblem("budget_tokens", "must be a positive integer"))
        elif budget_tokens > limits.max_budget_tokens:
            over.append(FieldProblem("budget_tokens", f"at most {limits.max_budget_tokens}"))
    chosen = next((p for p in _POLICIES if p == policy), None)
    if chosen is None:
        malformed.append(FieldProblem("policy", f"must be one of {', '.join(_POLICIES)}"))
    when: datetime | None = None
    try:
        when = check_time(as_of, "as_of")
    except InvalidInputError as exc:
        malformed.extend(exc.problems)
    if malformed or over or not isinstance(query, str) or not isinstance(k, int) or chosen is None:
        code: InputCode = "invalid_input" if malformed else "limit_exceeded"
        raise InvalidInputError.of(_in_call_order(malformed + over), code=code)
    budget = budget_tokens if isinstance(budget_tokens, int) else None
    return RecallParams(query=query, k=k, budget_tokens=budget, policy=chosen, as_of=when)


def check_quota(space: str, usage: SpaceUsage, new_turns: int, new_bytes: int, quota: SpaceQuota) -> None:
    """Refuse a batch that would take ``space``, holding ``usage`` before it, over ``quota``
    (turns checked first). The stores call it inside the batch's write transaction.

    Raises:
        QuotaExceededError: over ``quota.turns`` or ``quota.bytes`` (0: no quota).
    """
    if quota.turns and usage.turns + new_turns > quota.turns:
        raise QuotaExceededError(space, "turns", quota.turns, usage.turns, new_turns)
    if quota.bytes and usage.bytes + new_bytes > quota.bytes:
        raise QuotaExceededError(space, "bytes", quota.bytes, usage.bytes, new_bytes)


_ORDER: Final = ("query", "k", "budget_tokens", "policy", "as_of")


def _in_call_order(problems: list[FieldProblem]) -> list[FieldProblem]:
    return sorted(problems, key=lambda p: _ORDER.index(p.field) if p.field in _ORDER else len(_ORDER))
