"""The audit seam: named, read-only questions that every backend answers alike.

An audit is one query file per backend, with the same header in both dialects::

    // purpose: Identity merges (SAME_AS edges) of a space, active and undone, ...
    // param: space - the space to audit
    // returns: source text, target text, score float, at datetime, removed_at datetime,
    // returns: active bool

Cypher files (``graph_schema/audit/<name>.cypher``) comment with ``//`` and take
``$name`` parameters; their SQL twins (``eywa/stores/embedded/audit/<name>.sql``) comment
with ``--`` and take ``:name`` parameters. The first line says what the audit answers;
``param`` lines declare the parameters in call order (``space`` always among them, and the
query filters on it); a ``?`` after a name (``// param: speaker? - ... (empty: every
speaker)``) marks one the query reads as "empty: every ...", so a caller may leave it out
and it binds to ``''``, and ``=value`` after a name (``// param: limit=100 - ...``) gives
one a default it binds to when left out (``space`` is never optional); ``returns`` lines (one or more, read
in order) declare the result columns with their types. The header is the contract: both
twins must declare the same one (a test checks), and a runner refuses a result whose
columns differ from it.

Parameter values are strings and travel as query parameters only. Column values are
decoded by their declared type (:data:`ColumnType`) so both backends hand back the same
Python values: ``datetime`` as aware UTC datetimes, ``list`` and ``json`` as parsed JSON
(the embedded store keeps them as JSON text, Neo4j as native lists or JSON strings).

The façade (``Memory.audit``) checks names and parameters with :func:`find_audit` and
:meth:`AuditSpec.bind`; implementations of :class:`AuditQueries` only run the query.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib.resources.abc import Traversable
from typing import Any, Literal, Protocol, get_args

from pydantic import ValidationError

from eywa.errors import InvalidInputError, StoreError
from eywa.ids import check_space
from eywa.models import Frozen, as_utc
from eywa.values import parse_time

ColumnType = Literal["text", "int", "float", "bool", "datetime", "list", "json"]
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_COUNT = re.compile(r"[0-9]{1,18}")  # a LIMIT or SKIP both backends take (64 bits)
_STRING_LITERAL = re.compile(r"'(?:[^'\\]|\\.|'')*'")


class AuditParam(Frozen):
    """One declared parameter of an audit; one with a ``default`` binds to it when left out
    (``''`` for ``name?``, the value for ``name=value``)."""

    name: str
    description: str
    default: str | None = None

    @property
    def optional(self) -> bool:
        """Whether a caller may leave it out."""
        return self.default is not None

    @property
    def counts(self) -> bool:
        """Whether the parameter is a count (``limit=100``, ``offset=0``): its default is a
        non-negative integer, and so must any value be; SQLite would read ``"abc"`` as 0 rows
        and Neo4j as no value."""
        return self.default is not None and _COUNT.fullmatch(self.default) is not None

    @property
    def is_time(self) -> bool:
        """Whether the parameter is a time (its description starts ``ISO-8601``): its value
        must be one, else the backends fail on it (Neo4j's ``datetime()`` with a general
        processing error, SQLite's ``utc_iso``), which reads as a store fault, not a refusal."""
        return self.description.startswith("ISO-8601")

    @property
    def label(self) -> str:
        """The name as a catalogue shows it: ``speaker?``, ``limit=100`` or ``space``."""
        if self.default is None:
            return self.name
        return f"{self.name}={self.default}" if self.default else f"{self.name}?"


class AuditColumn(Frozen):
    """One declared result column of an audit, with the type its values are decoded to."""

    name: str
    type: ColumnType


class AuditSpec(Frozen):
    """What an audit answers, the parameters it takes and the columns it returns."""

    name: str
    purpose: str
    params: tuple[AuditParam, ...]
    columns: tuple[AuditColumn, ...]

    @property
    def param_names(self) -> tuple[str, ...]:
        """The declared parameter names, in declaration order."""
        return tuple(p.name for p in self.params)

    @property
    def column_names(self) -> tuple[str, ...]:
        """The declared column names, in result order."""
        return tuple(c.name for c in self.columns)

    def bind(self, params: Mapping[str, object]) -> dict[str, str]:
        """The parameter values in declaration order, after checking names and types;
        optional parameters left out are their defaults (``''``: "no filter").

        Raises:
            InvalidInputError: ``params`` is not a mapping, a required parameter is
                missing, an undeclared one was given, a value is not a string, a count is
                not a non-negative integer, or a time (``ISO-8601 …`` in its description)
                is not ISO-8601 or outside the supported range. Times are bound as UTC text.
        """
        if not isinstance(params, Mapping):
            raise InvalidInputError(f"audit {self.name}: params must map parameter names to strings")
        given, declared = set(params), set(self.param_names)
        required = {p.name for p in self.params if not p.optional}
        if missing := required - given:
            raise InvalidInputError(f"audit {self.name} needs parameters: {', '.join(sorted(missing))}")
        if extra := given - declared:
            raise InvalidInputError(
                f"audit {self.name} takes {', '.join(self.param_names)}; unknown: {', '.join(sorted(extra))}"
            )
        defaults = {p.name: p.default for p in self.params if p.default is not None}
        counts = {p.name for p in self.params if p.counts}
        times = {p.name for p in self.params if p.is_time}
        values: dict[str, str] = {}
        for key in self.param_names:
            value = params.get(key, defaults.get(key))
            if not isinstance(value, str):
                raise InvalidInputError(f"audit {self.name}: parameter {key} must be a string")
            if key in counts and _COUNT.fullmatch(value) is None:
                raise InvalidInputError.at(
                    f"params.{key}", f"must be a non-negative integer of at most 18 digits, got {value!r}"
                )
            if key in times and (value or key in required):
                value = _time_text(key, value)
            values[key] = value
        return values


def _time_text(key: str, value: str) -> str:
    """A time parameter as canonical UTC ISO-8601 text, so both backends read the same
    instant (and no text only one of them parses reaches either).

    Raises:
        InvalidInputError: not ISO-8601, or outside the supported range (``params.<key>``).
    """
    try:
        return parse_time(value).isoformat(timespec="microseconds")
    except ValueError as exc:
        raise InvalidInputError.at(f"params.{key}", str(exc)) from None


class AuditResult(Frozen):
    """The answer of one audit: column names and rows of decoded values."""

    name: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]

    def records(self) -> list[dict[str, Any]]:
        """The rows as dicts keyed by column name."""
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]


class AuditQueries(Protocol):
    """The named audits of one backend. Every backend holds the same registry."""

    def audits(self) -> list[AuditSpec]:
        """Every audit of this backend, by name.

        Raises:
            StoreError: an audit file is malformed.
        """
        ...

    def run(self, name: str, params: Mapping[str, str]) -> AuditResult:
        """Run audit ``name`` with checked ``params`` (see :meth:`AuditSpec.bind`), read-only.

        Raises:
            InvalidInputError: no audit has that name.
            ClosedError: the stores were closed.
            StoreError: the backend failed, or returned other columns than declared.
        """
        ...


@dataclass(frozen=True)
class AuditQuery:
    """One parsed audit file: its header and the query text the backend runs."""

    spec: AuditSpec
    text: str


@dataclass(frozen=True)
class Dialect:
    """How one backend's audit files comment and name their parameters."""

    backend: str
    suffix: str
    comment: str
    parameter: re.Pattern[str]


CYPHER = Dialect("neo4j", ".cypher", "//", re.compile(r"\$([A-Za-z_]\w*)"))
SQL = Dialect("sqlite", ".sql", "--", re.compile(r"(?<![:\w]):([A-Za-z_]\w*)"))


def _header(dialect: Dialect, key: str) -> re.Pattern[str]:
    return re.compile(rf"^{re.escape(dialect.comment)}\s*{key}:\s*(?P<text>.*)$")


def _columns(file_name: str, dialect: Dialect, declared: Iterable[str]) -> tuple[AuditColumn, ...]:
    columns: list[AuditColumn] = []
    for item in (part.strip() for line in declared for part in line.rstrip(", ").split(",")):
        name, _, kind = item.partition(" ")
        try:
            columns.append(AuditColumn.model_validate({"name": name, "type": kind.strip()}))
        except ValidationError as exc:
            raise StoreError(
                dialect.backend, "audit",
                f"{file_name}: bad returns entry {item!r} (want 'name type', type one of "
                f"{', '.join(get_args(ColumnType))})",
            ) from exc  # fmt: skip
    names = [c.name for c in columns]
    if len(set(names)) != len(names) or not all(_NAME.match(n) for n in names):
        raise StoreError(dialect.backend, "audit", f"{file_name}: 'returns' must name each column once, in snake_case")
    return tuple(columns)


def parse_audit(file_name: str, text: str, dialect: Dialect = CYPHER) -> AuditQuery:
    """Parse one audit file of ``dialect``.

    Raises:
        StoreError: the name is not ``snake_case`` with the dialect's suffix, the purpose
            line or the ``returns`` lines are missing or malformed, ``space`` is not
            declared or is marked optional, or the query uses an undeclared parameter
            (or declares one it never uses).
    """
    name = file_name.removesuffix(dialect.suffix)
    fail = dialect.backend, "audit"
    if not file_name.endswith(dialect.suffix) or not _NAME.match(name):
        raise StoreError(*fail, f"{file_name}: expected snake_case{dialect.suffix}")
    raw = text.strip().splitlines()
    lines = [line.strip() for line in raw]
    purpose = _header(dialect, "purpose").match(lines[0]) if lines else None
    if purpose is None or not purpose["text"].strip():
        raise StoreError(*fail, f"{file_name}: first line must be '{dialect.comment} purpose: ...'")
    param_line = re.compile(
        rf"^{re.escape(dialect.comment)}\s*param:\s*(?P<name>[A-Za-z_]\w*)(?:(?P<optional>\?)|=(?P<default>[^\s?=]+))?"
        r"\s*(?:-\s*(?P<text>.*))?$"
    )
    params = tuple(
        AuditParam(
            name=m["name"], description=(m["text"] or "").strip(), default="" if m["optional"] else m["default"]
        )
        for line in lines[1:]
        if (m := param_line.match(line))
    )
    returns = [m["text"] for line in lines[1:] if (m := _header(dialect, "returns").match(line))]
    if not returns:
        raise StoreError(*fail, f"{file_name}: declare the result with '{dialect.comment} returns: name type, ...'")
    columns = _columns(file_name, dialect, returns)
    body = "\n".join(line for line in raw if not line.lstrip().startswith(dialect.comment)).strip()
    body = body.removesuffix(";").strip()
    declared = {p.name for p in params}
    used = set(dialect.parameter.findall(_STRING_LITERAL.sub("''", body)))
    if "space" not in declared or any(p.name == "space" and p.optional for p in params):
        raise StoreError(*fail, f"{file_name}: every audit must declare and filter on the space parameter, never optional")
    if declared != used or len(params) != len(declared):
        raise StoreError(*fail, f"{file_name}: declared {sorted(declared)} but the query uses {sorted(used)}")
    spec = AuditSpec(name=name, purpose=purpose["text"].strip(), params=params, columns=columns)
    return AuditQuery(spec=spec, text=body)


def load_audits(folder: Traversable, dialect: Dialect) -> dict[str, AuditQuery]:
    """Every audit file of ``dialect`` in ``folder``, by name (sorted).

    Raises:
        StoreError: a file is malformed (see :func:`parse_audit`).
    """
    found = [
        parse_audit(entry.name, entry.read_text(encoding="utf-8"), dialect)
        for entry in folder.iterdir()
        if entry.name.endswith(dialect.suffix)
    ]
    return {query.spec.name: query for query in sorted(found, key=lambda q: q.spec.name)}


def find_audit(audits: Sequence[AuditSpec], name: str) -> AuditSpec:
    """The audit called ``name``.

    Raises:
        InvalidInputError: no audit has that name; the message lists the known ones.
    """
    for spec in audits:
        if spec.name == name:
            return spec
    raise InvalidInputError(f"unknown audit {name!r}; known: {', '.join(sorted(s.name for s in audits))}")


def run_audit(audits: AuditQueries, name: str, params: Mapping[str, object]) -> AuditResult:
    """Check ``name`` and ``params`` against the audit registry, then run it read-only.

    Raises:
        InvalidInputError: an unknown audit, ``params`` not a mapping, a missing required
            or an undeclared parameter, a value that is not a string, a count or time
            parameter that is not one, or a bad space.
        StoreError: the backend failed.
    """
    values = find_audit(audits.audits(), name).bind(params)
    values["space"] = check_space(values["space"])
    return audits.run(name, values)


def to_datetime(value: object) -> datetime:
    """An aware UTC datetime from a datetime, ISO-8601 text or UTC epoch seconds.

    Raises:
        ValueError: text that is not ISO-8601, or another type.
    """
    if isinstance(value, datetime):
        return as_utc(value)
    if isinstance(value, str):
        return as_utc(datetime.fromisoformat(value))
    if isinstance(value, int | float) and not isinstance(value, bool):
        return datetime.fromtimestamp(value, tz=timezone.utc)
    raise ValueError(f"not a time: {value!r}")


def utc_text(value: object) -> str:
    """A time (see :func:`to_datetime`) as UTC ISO-8601 text with microseconds.

    Such texts sort and compare as the instants they name, whatever offset the input had,
    which is what lets SQL compare stored times and parameters as Cypher compares
    ``DATETIME`` values.

    Raises:
        ValueError: the value is not a time.
    """
    return to_datetime(value).isoformat(timespec="microseconds")


def _decode(value: object, kind: ColumnType) -> object:
    if value is None:
        return None
    if kind == "datetime":
        return to_datetime(value)
    if kind in ("list", "json") and isinstance(value, str):
        value = json.loads(value)
    expected: dict[str, type | tuple[type, ...]] = {
        "text": str, "int": int, "float": (int, float), "bool": (bool, int),
        "list": (list, tuple), "json": (dict, list, str, int, float, bool),
    }  # fmt: skip
    if not isinstance(value, expected[kind]) or (kind in ("int", "float") and isinstance(value, bool)):
        raise ValueError(f"{type(value).__name__} is not {kind}")
    if kind == "float":
        return float(value)  # type: ignore[arg-type]  # int or float, checked above
    if kind == "bool":
        return bool(value)
    if kind == "list":
        return list(value)  # type: ignore[call-overload]  # list or tuple, checked above
    return value


def decode_rows(
    spec: AuditSpec, backend: str, columns: Sequence[str], rows: Iterable[Sequence[object]]
) -> AuditResult:
    """Check the columns a backend returned against the spec and decode every value.

    Raises:
        StoreError: the columns differ from the declared ones, or a value does not fit
            its declared type.
    """
    if tuple(columns) != spec.column_names:
        raise StoreError(
            backend, f"audit {spec.name}",
            f"returned columns {list(columns)} but declares {list(spec.column_names)}",
        )  # fmt: skip
    decoded: list[tuple[object, ...]] = []
    for row in rows:
        values: list[object] = []
        for value, column in zip(row, spec.columns, strict=True):
            try:
                values.append(_decode(value, column.type))
            except ValueError as exc:  # json.JSONDecodeError is a ValueError too
                raise StoreError(
                    backend, f"audit {spec.name}", f"column {column.name} ({column.type}): {exc}"
                ) from exc
        decoded.append(tuple(values))
    return AuditResult(name=spec.name, columns=spec.column_names, rows=tuple(decoded))
