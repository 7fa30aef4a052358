"""The embedded ``CorrectionLog``: one SQLite table beside the graph tables (times as epoch)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from eywa.stores.corrections import CorrectionKind, CorrectionRecord
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.records import from_epoch, to_epoch

__all__ = ["SqliteCorrectionLog"]

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS corrections (
        id TEXT PRIMARY KEY, space TEXT NOT NULL, kind TEXT NOT NULL, target_id TEXT NOT NULL,
        author TEXT, reason TEXT, at REAL NOT NULL, belief_id TEXT,
        reliability_before REAL, reliability_after REAL)""",
    "CREATE INDEX IF NOT EXISTS corrections_target ON corrections(space, target_id, at)",
    "CREATE INDEX IF NOT EXISTS corrections_space_at ON corrections(space, at)",
)
_COLUMNS = "id, space, kind, target_id, author, reason, at, belief_id, reliability_before, reliability_after"


class SqliteCorrectionLog:
    """See ``eywa.stores.corrections.CorrectionLog``."""

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db
        db.ensure_schema(SCHEMA)

    def record(self, correction: CorrectionRecord) -> None:
        """Append one record (an existing id is left as it is)."""
        c = correction
        with self._db.transaction() as conn:
            conn.execute(
                f"INSERT OR IGNORE INTO corrections ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",  # noqa: S608
                (c.id, c.space, c.kind, c.target_id, c.author, c.reason, to_epoch(c.at), c.belief_id,
                 c.reliability_before, c.reliability_after),
            )  # fmt: skip

    def forget_reasons(self, space: str, item_ids: Sequence[str], correction_ids: Sequence[str] = ()) -> int:
        """Clear the reasons of the records about ``item_ids`` and of ``correction_ids``."""
        if not item_ids and not correction_ids:
            return 0
        items, records = ", ".join("?" * len(item_ids)), ", ".join("?" * len(correction_ids))
        with self._db.transaction() as conn:
            return conn.execute(
                f"""UPDATE corrections SET reason = NULL WHERE space = ? AND reason IS NOT NULL
                    AND (target_id IN ({items}) OR belief_id IN ({items}) OR id IN ({records}))""",  # noqa: S608 - placeholders only
                (space, *item_ids, *item_ids, *correction_ids),
            ).rowcount

    def corrections(
        self, space: str, *, target_id: str | None = None, kinds: Sequence[CorrectionKind] | None = None
    ) -> list[CorrectionRecord]:
        """The records of ``space`` (of one target, of some kinds), oldest first."""
        rows = self._db.query(
            f"""SELECT {_COLUMNS} FROM corrections
                WHERE space = :space AND (:target IS NULL OR target_id = :target)
                ORDER BY at, rowid""",  # noqa: S608 - fixed column list
            {"space": space, "target": target_id},
        )
        found = [_record(row) for row in rows]
        return [c for c in found if kinds is None or c.kind in kinds]


def _record(row: sqlite3.Row) -> CorrectionRecord:
    at = from_epoch(row["at"])
    assert at is not None  # NOT NULL column
    return CorrectionRecord(
        id=row["id"], space=row["space"], kind=row["kind"], target_id=row["target_id"], author=row["author"],
        reason=row["reason"], at=at, belief_id=row["belief_id"], reliability_before=row["reliability_before"],
        reliability_after=row["reliability_after"],
    )  # fmt: skip
