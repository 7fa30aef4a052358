"""What the embedded store keeps of a space beyond its turns, and letting it go after an
erasure (``ErasureStore.release`` / ``remains``, ``eywa.stores.erasure``).

The tables are read from the schema itself (every table with a ``space`` column), so a
table added later is listed by ``remains`` until an erasure knows what to do with it: a
drop's test then fails rather than a space silently outliving its drop. The audit trail is
kept by design: erasure records, their turns' keyed hashes, tombstones, correction records
and the access log.
"""

from __future__ import annotations

import sqlite3
from typing import Final

__all__ = ["release", "remains"]

AUDIT_TABLES: Final = frozenset({"erasures", "erased_turns", "tombstones", "corrections", "access_log"})
"""Tables that outlive an erasure of their space (module docstring)."""
_BOOKKEEPING: Final = ("jobs", "level1_runs", "space_usage", "space_backlog")
"""The rows about a space rather than about a turn or a belief: they go once it holds no turn."""
_KINDS: Final = {
    "evidence": "turns", "nous_dimensions": "dimensions", "nous_deltas": "deltas", "nous_same_as": "merges",
    "pending_stages": "pending", "space_usage": "counters", "space_backlog": "counters",
}  # fmt: skip
"""A table's kind where the Neo4j store names it alike (``Neo4jErasureStore.remains``)."""


def release(conn: sqlite3.Connection, space: str) -> int:
    """Delete the bookkeeping rows of ``space`` when it holds no turn, inside the caller's
    transaction; returns how many went. (SQLite has one writer: no write lands meanwhile.)"""
    if conn.execute("SELECT 1 FROM evidence WHERE space = ? LIMIT 1", (space,)).fetchone() is not None:
        return 0
    return sum(
        conn.execute(f"DELETE FROM {table} WHERE space = ?", (space,)).rowcount  # noqa: S608 - constants
        for table in _BOOKKEEPING
    )


def remains(conn: sqlite3.Connection, space: str) -> dict[str, int]:
    """Rows per kind holding ``space``, the audit tables and empty kinds left out."""
    found: dict[str, int] = {}
    for table in _space_tables(conn):
        (count,) = conn.execute(f"SELECT count(*) FROM {table} WHERE space = ?", (space,)).fetchone()  # noqa: S608
        if count:
            kind = _KINDS.get(table, table)
            found[kind] = found.get(kind, 0) + int(count)
    return found


def _space_tables(conn: sqlite3.Connection) -> list[str]:
    """The schema's tables with a ``space`` column, but the audit ones (names from
    ``sqlite_master``: the store's own, never input)."""
    tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    return [
        table for table in tables
        if table not in AUDIT_TABLES
        and any(column[1] == "space" for column in conn.execute(f"PRAGMA table_info('{table}')"))
    ]  # fmt: skip
