"""The audit cookbook on the embedded store: one SQL twin per Cypher audit.

The files live in ``eywa/stores/embedded/audit/<name>.sql``, with the header of their Cypher
twin (``--`` comments, ``:name`` parameters; see ``eywa.stores.audit``). Each answers the
same question over the SQLite tables, with the same columns, order and value types.

Each run opens a separate read-only connection in one read transaction
(``SqliteDatabase.read_only``), so an audit can never change data. On that connection a few
functions make the SQL read like its Cypher twin and compare like Neo4j does:

- ``utc_iso(t)``: a stored time (UTC epoch seconds, as evidence keeps them, or ISO-8601
  text, as beliefs and deltas do) or an ISO-8601 parameter as canonical UTC text with
  microseconds, so times compare and sort as instants (Cypher's ``datetime($from)``);
- ``stable_id(prefix, part, ...)``: the ids Neo4j gives nodes the embedded tables key by
  their parts (dimension nodes, ``eywa.ids.stable_id``);
- ``lower``, ``upper`` and ``trim`` on one argument: Unicode-aware, as in Cypher (SQLite's
  own fold ASCII only).

Example:
    >>> audits = SqliteAuditQueries(db)  # doctest: +SKIP
    >>> audits.run("merged_entities", {"space": "home"}).records()  # doctest: +SKIP
    [{'source': 'caroline', 'target': 'caro', 'score': 0.9, ...}]
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping
from importlib import resources
from importlib.resources.abc import Traversable

from eywa.errors import InvalidInputError, StoreError
from eywa.ids import stable_id
from eywa.stores.audit import SQL, AuditResult, AuditSpec, decode_rows, load_audits, utc_text
from eywa.stores.embedded.database import SqliteDatabase

BACKEND = "sqlite"


def default_audit_dir() -> Traversable:
    """The SQL twins shipped with the package (``eywa/stores/embedded/audit``)."""
    return resources.files("eywa.stores.embedded") / "audit"


def _utc_iso(value: SqlValue) -> str | None:
    return None if value is None else utc_text(value)


def _stable_id(prefix: SqlValue, *parts: SqlValue) -> str:
    return stable_id(str(prefix), *(str(part) for part in parts))


SqlValue = str | bytes | int | float | None


def _text(fold: Callable[[str], str]) -> Callable[[SqlValue], SqlValue]:
    def apply(value: SqlValue) -> SqlValue:
        return fold(value) if isinstance(value, str) else value

    return apply


def _register(conn: sqlite3.Connection, problems: list[str]) -> None:
    """Add the audit functions to ``conn``; their failures are noted in ``problems``.

    SQLite reports an exception raised inside a function only as "user-defined function
    raised exception", so the reason is kept aside for the error message.
    """

    def noted(function: Callable[..., SqlValue]) -> Callable[..., SqlValue]:
        def call(*args: SqlValue) -> SqlValue:
            try:
                return function(*args)
            except ValueError as exc:
                shown = ", ".join(repr(arg) for arg in args)
                problems.append(f"{function.__name__.strip('_')}({shown}): {exc}")
                raise

        return call

    conn.create_function("utc_iso", 1, noted(_utc_iso), deterministic=True)
    conn.create_function("stable_id", -1, noted(_stable_id), deterministic=True)
    conn.create_function("lower", 1, _text(str.lower), deterministic=True)
    conn.create_function("upper", 1, _text(str.upper), deterministic=True)
    conn.create_function("trim", 1, _text(str.strip), deterministic=True)


class SqliteAuditQueries:
    """``AuditQueries`` over the SQL twins, on the embedded database.

    Args:
        db: The embedded SQLite database; each run opens its own read-only connection.
        directory: Where the ``.sql`` files are (default :func:`default_audit_dir`).

    Raises:
        StoreError: an audit file is malformed.
    """

    def __init__(self, db: SqliteDatabase, directory: Traversable | None = None) -> None:
        self._db = db
        self._queries = load_audits(directory if directory is not None else default_audit_dir(), SQL)

    def audits(self) -> list[AuditSpec]:
        """Every SQL audit, by name."""
        return [query.spec for query in self._queries.values()]

    def run(self, name: str, params: Mapping[str, str]) -> AuditResult:
        """Run audit ``name`` on a read-only snapshot of the database.

        Raises:
            InvalidInputError: no audit has that name.
            ClosedError: the database was closed.
            StoreError: SQLite failed (a parameter that is not a time where one is
                expected, say), or the query returned other columns than it declares.
        """
        query = self._queries.get(name)
        if query is None:
            raise InvalidInputError(f"unknown audit {name!r}; known: {', '.join(self._queries)}")
        problems: list[str] = []
        with self._db.read_only() as conn:
            _register(conn, problems)
            try:
                cursor = conn.execute(query.text, dict(params))  # text from the cookbook only
                rows = cursor.fetchall()
            except sqlite3.Error as exc:
                raise StoreError(BACKEND, f"audit {name}", problems[0] if problems else str(exc)) from exc
            columns = [column[0] for column in cursor.description]
        return decode_rows(query.spec, BACKEND, columns, rows)
