"""The embedded ``AccessLog``: one SQLite table beside the graph tables (times as epoch)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone

from eywa.stores.access import AccessEvent
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.records import to_epoch

__all__ = ["SqliteAccessLog"]

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS access_log (
        at REAL NOT NULL, key_id TEXT, surface TEXT NOT NULL, route TEXT NOT NULL, space TEXT,
        status INTEGER NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS access_log_space_at ON access_log(space, at)",
    "CREATE INDEX IF NOT EXISTS access_log_key_at ON access_log(key_id, at)",
    "CREATE INDEX IF NOT EXISTS access_log_at ON access_log(at)",
)


class SqliteAccessLog:
    """See ``eywa.stores.access.AccessLog``."""

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db
        db.ensure_schema(SCHEMA)

    def record(self, events: Sequence[AccessEvent]) -> None:
        """Append ``events`` in one transaction."""
        if not events:
            return
        with self._db.transaction() as conn:
            conn.executemany(
                "INSERT INTO access_log VALUES (?, ?, ?, ?, ?, ?)",
                [(to_epoch(e.at), e.key_id, e.surface, e.route, e.space, e.status) for e in events],
            )

    def events(
        self,
        *,
        space: str | None = None,
        key_id: str | None = None,
        since: datetime | None = None,
        limit: int = 100,
    ) -> list[AccessEvent]:
        """The newest events first, optionally of one space or key, from ``since`` on."""
        rows = self._db.query(
            """SELECT at, key_id, surface, route, space, status FROM access_log
               WHERE (:space IS NULL OR space = :space) AND (:key_id IS NULL OR key_id = :key_id)
                 AND (:since IS NULL OR at >= :since)
               ORDER BY at DESC, rowid DESC LIMIT :limit""",
            {"space": space, "key_id": key_id, "since": to_epoch(since), "limit": max(0, limit)},
        )
        return [
            AccessEvent(
                at=datetime.fromtimestamp(row["at"], tz=timezone.utc), key_id=row["key_id"], surface=row["surface"], route=row["route"],
                space=row["space"], status=row["status"],
            )  # fmt: skip
            for row in rows
        ]

    def prune(self, before: datetime) -> int:
        """Delete the events older than ``before``."""
        with self._db.transaction() as conn:
            return conn.execute("DELETE FROM access_log WHERE at < ?", (to_epoch(before),)).rowcount
