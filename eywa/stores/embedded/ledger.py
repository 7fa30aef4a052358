"""The stage ledger, job records and tombstones in the embedded SQLite database.

Tables: ``pending_stages`` (one row per pending (space, item, stage), deleted when the stage
is done; indexed by (stage, due_at) so pending work is found without scanning the items),
``space_backlog`` (per space, the turns not yet embedded and not yet through Level 1: the
counts ``space_backlog`` returns, kept by triggers on ``pending_stages``),
``level1_runs`` (which extractor did each turn's Level 1, for ``eywa reprocess``), ``jobs``,
``tombstones`` and ``store_meta`` (the embedder the vectors were made with).

The functions taking a ``sqlite3.Connection`` run inside another store's transaction: the
evidence store marks new turns in the Level 0 transaction, the belief store clears ``level1``
in the transaction that writes the beliefs. Times are UTC epoch seconds (REAL).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from datetime import datetime

from eywa.errors import ErasedError
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.records import from_epoch, to_epoch
from eywa.stores.ledger import (
    DERIVED_STAGES,
    PENDING_STAGES,
    JobRecord,
    MarkReason,
    PendingMark,
    PendingStage,
    SpaceBacklog,
    StageDone,
)

TOMBSTONES_TABLE = """CREATE TABLE IF NOT EXISTS tombstones (
        space TEXT NOT NULL, evidence_id TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (space, evidence_id))"""
"""Erased turn ids; the belief and dimension stores read it in their writes' transactions."""
SCHEMA = (
    """CREATE TABLE IF NOT EXISTS pending_stages (
        space TEXT NOT NULL, item_id TEXT NOT NULL, stage TEXT NOT NULL, reason TEXT NOT NULL,
        since REAL NOT NULL, due_at REAL NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, error TEXT,
        PRIMARY KEY (space, item_id, stage))""",
    "CREATE INDEX IF NOT EXISTS pending_stages_due ON pending_stages(stage, due_at)",
    "CREATE INDEX IF NOT EXISTS pending_stages_space_due ON pending_stages(space, stage, due_at)",
    """CREATE TABLE IF NOT EXISTS level1_runs (
        space TEXT NOT NULL, evidence_id TEXT NOT NULL, done_by TEXT NOT NULL, at REAL NOT NULL,
        PRIMARY KEY (space, evidence_id))""",
    """CREATE TABLE IF NOT EXISTS jobs (
        id TEXT PRIMARY KEY, space TEXT NOT NULL, evidence_ids TEXT NOT NULL, submitted_at REAL NOT NULL,
        author TEXT, request_id TEXT)""",
    "CREATE INDEX IF NOT EXISTS jobs_submitted ON jobs(submitted_at)",
    "CREATE INDEX IF NOT EXISTS jobs_space ON jobs(space)",  # an erasure's jobs (``drop_erased_from_jobs``)
    TOMBSTONES_TABLE,
    "CREATE TABLE IF NOT EXISTS store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS space_backlog (
        space TEXT PRIMARY KEY, embed INTEGER NOT NULL DEFAULT 0, level1 INTEGER NOT NULL DEFAULT 0)""",
    # The counts change in the statement that inserts or deletes the mark, so in its
    # transaction: no write path can move a mark without its count, whichever store runs
    # it (Level 0, a Level 1 batch, erasure, reprocess, an embedder switch, a restore). A
    # turn is in the Level 1 backlog while it has ``level1`` or ``nous`` pending: counted
    # when its first such mark arrives, uncounted when its last one goes (a primary-key
    # prefix probe). ``INSERT OR IGNORE`` of an existing mark fires nothing. Stages are
    # never updated in place. Format 5 (``migrations``) filled the table for older stores.
    """CREATE TRIGGER IF NOT EXISTS pending_stages_counted_insert AFTER INSERT ON pending_stages
    WHEN NEW.stage IN ('embed_evidence', 'level1', 'nous')
    BEGIN
        INSERT OR IGNORE INTO space_backlog (space) VALUES (NEW.space);
        UPDATE space_backlog SET
            embed = embed + (NEW.stage = 'embed_evidence'),
            level1 = level1 + (NEW.stage IN ('level1', 'nous') AND NOT EXISTS (
                SELECT 1 FROM pending_stages p WHERE p.space = NEW.space AND p.item_id = NEW.item_id
                AND p.stage IN ('level1', 'nous') AND p.stage <> NEW.stage))
        WHERE space = NEW.space;
    END""",
    """CREATE TRIGGER IF NOT EXISTS pending_stages_counted_delete AFTER DELETE ON pending_stages
    WHEN OLD.stage IN ('embed_evidence', 'level1', 'nous')
    BEGIN
        UPDATE space_backlog SET
            embed = embed - (OLD.stage = 'embed_evidence'),
            level1 = level1 - (OLD.stage IN ('level1', 'nous') AND NOT EXISTS (
                SELECT 1 FROM pending_stages p WHERE p.space = OLD.space AND p.item_id = OLD.item_id
                AND p.stage IN ('level1', 'nous')))
        WHERE space = OLD.space;
    END""",
)

_CHUNK = 500
_MARK = (
    "INSERT OR IGNORE INTO pending_stages (space, item_id, stage, reason, since, due_at, attempts, error)"
    " VALUES (?, ?, ?, ?, ?, ?, 0, NULL)"
)


def _chunks(items: Iterable[str]) -> list[list[str]]:
    values = list(dict.fromkeys(items))
    return [values[i : i + _CHUNK] for i in range(0, len(values), _CHUNK)]


def _marks(n: int) -> str:
    return ",".join("?" * n)


def mark_in(
    conn: sqlite3.Connection, space: str, stages: Sequence[PendingStage], item_ids: Sequence[str],
    reason: MarkReason, at: datetime,
) -> int:  # fmt: skip
    """Insert marks inside the caller's transaction; existing marks are kept. Returns rows added."""
    when = to_epoch(at)
    rows = [(space, item, stage, reason, when, when) for item in dict.fromkeys(item_ids) for stage in stages]
    return conn.executemany(_MARK, rows).rowcount  # rows inserted; the triggers' writes not counted


def complete_in(conn: sqlite3.Connection, space: str, stage: PendingStage, item_ids: Sequence[str]) -> int:
    """Delete marks inside the caller's transaction; returns how many existed."""
    removed = 0
    for chunk in _chunks(item_ids):
        cur = conn.execute(
            f"DELETE FROM pending_stages WHERE space = ? AND stage = ? AND item_id IN ({_marks(len(chunk))})",  # noqa: S608
            [space, stage, *chunk],
        )
        removed += cur.rowcount
    return removed


def tombstoned_in(conn: sqlite3.Connection, space: str, evidence_ids: Sequence[str]) -> set[str]:
    """The tombstoned subset of ``evidence_ids``, read in the caller's transaction."""
    found: set[str] = set()
    for chunk in _chunks(evidence_ids):
        rows = conn.execute(
            f"SELECT evidence_id FROM tombstones WHERE space = ? AND evidence_id IN ({_marks(len(chunk))})",  # noqa: S608
            [space, *chunk],
        ).fetchall()
        found.update(r[0] for r in rows)
    return found


def refuse_tombstoned(conn: sqlite3.Connection, space: str, evidence_ids: Sequence[str]) -> None:
    """Raise ``ErasedError`` (rolling the caller's transaction back) if any id is tombstoned.

    Raises:
        ErasedError: naming the tombstoned ids.
    """
    found = tombstoned_in(conn, space, evidence_ids)
    if found:
        raise ErasedError(space, tuple(sorted(found)))


def record_level1_in(conn: sqlite3.Connection, done: StageDone, at: datetime) -> None:
    """Clear ``level1`` of ``done``'s turns and record who did it, inside the caller's transaction."""
    complete_in(conn, done.space, "level1", done.evidence_ids)
    conn.executemany(
        "INSERT INTO level1_runs (space, evidence_id, done_by, at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (space, evidence_id) DO UPDATE SET done_by = excluded.done_by, at = excluded.at",
        [(done.space, i, done.done_by, to_epoch(at)) for i in dict.fromkeys(done.evidence_ids)],
    )


def recount_backlog(conn: sqlite3.Connection) -> None:
    """Set every space's ``space_backlog`` row from a full count of its marks (the format 5
    migration; the triggers keep the rows from then on)."""
    conn.execute("DELETE FROM space_backlog")
    conn.execute(
        f"""INSERT INTO space_backlog (space, embed, level1)
        SELECT space, COUNT(CASE WHEN stage = 'embed_evidence' THEN 1 END),
               COUNT(DISTINCT CASE WHEN stage IN ({_marks(len(DERIVED_STAGES))}) THEN item_id END)
        FROM pending_stages GROUP BY space""",  # noqa: S608 - placeholders only
        DERIVED_STAGES,
    )


def _mark_row(row: sqlite3.Row) -> PendingMark:
    since, due = from_epoch(row["since"]), from_epoch(row["due_at"])
    assert since is not None and due is not None  # NOT NULL columns
    return PendingMark(
        space=row["space"], item_id=row["item_id"], stage=row["stage"], reason=row["reason"],
        since=since, due_at=due, attempts=row["attempts"], error=row["error"],
    )  # fmt: skip


class SqliteStageLedger:
    """The embedded ``StageLedger``."""

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db
        db.ensure_schema(SCHEMA)

    def pending(
        self, stage: PendingStage, *, limit: int, space: str | None = None, due_before: datetime | None = None
    ) -> list[PendingMark]:
        """Marks of ``stage`` due by ``due_before``, earliest first (index on stage, due_at)."""
        if limit <= 0:
            return []
        sql = "SELECT * FROM pending_stages WHERE stage = ?"
        params: list[object] = [stage]
        if space is not None:
            sql += " AND space = ?"
            params.append(space)
        if due_before is not None:
            sql += " AND due_at <= ?"
            params.append(to_epoch(due_before))
        rows = self._db.query(sql + " ORDER BY due_at LIMIT ?", [*params, limit])
        return [_mark_row(r) for r in rows]

    def pending_for(self, space: str, item_ids: Sequence[str]) -> list[PendingMark]:
        """The marks of ``item_ids`` (primary key prefix lookups)."""
        found: list[PendingMark] = []
        for chunk in _chunks(item_ids):
            rows = self._db.query(
                f"SELECT * FROM pending_stages WHERE space = ? AND item_id IN ({_marks(len(chunk))})",  # noqa: S608
                [space, *chunk],
            )
            found += [_mark_row(r) for r in rows]
        return found

    def mark(self, space: str, stage: PendingStage, item_ids: Sequence[str], reason: MarkReason, at: datetime) -> int:
        """Mark items pending; existing marks are kept."""
        with self._db.transaction() as conn:
            return mark_in(conn, space, (stage,), item_ids, reason, at)

    def complete(self, space: str, stage: PendingStage, item_ids: Sequence[str]) -> int:
        """Clear the marks."""
        with self._db.transaction() as conn:
            return complete_in(conn, space, stage, item_ids)

    def touch(self, space: str, stage: PendingStage, item_ids: Sequence[str], due_at: datetime) -> None:
        """Set the marks' next due time."""
        self._update(space, stage, item_ids, "due_at = ?", [to_epoch(due_at)])

    def fail(self, space: str, stage: PendingStage, item_ids: Sequence[str], error: str, due_at: datetime) -> None:
        """One more attempt, with its error and the next due time."""
        self._update(space, stage, item_ids, "attempts = attempts + 1, error = ?, due_at = ?", [error, to_epoch(due_at)])

    def _update(
        self, space: str, stage: PendingStage, item_ids: Sequence[str], assignments: str, values: list[object]
    ) -> None:
        with self._db.transaction() as conn:
            for chunk in _chunks(item_ids):
                conn.execute(
                    f"UPDATE pending_stages SET {assignments} WHERE space = ? AND stage = ?"  # noqa: S608 - fixed text
                    f" AND item_id IN ({_marks(len(chunk))})",
                    [*values, space, stage, *chunk],
                )

    def backlog(self) -> dict[PendingStage, int]:
        """Marks per stage."""
        counts: dict[PendingStage, int] = dict.fromkeys(PENDING_STAGES, 0)
        for row in self._db.query("SELECT stage, COUNT(*) AS n FROM pending_stages GROUP BY stage"):
            if row["stage"] in counts:
                counts[row["stage"]] = int(row["n"])
        return counts

    def space_backlog(self, space: str) -> SpaceBacklog:
        """Turns of ``space`` not yet embedded / not yet through Level 1: one row of the
        counts the triggers keep (see ``SCHEMA``), whatever the backlog."""
        rows = self._db.query("SELECT embed, level1 FROM space_backlog WHERE space = ?", (space,))
        if not rows:
            return SpaceBacklog()
        return SpaceBacklog(embed=int(rows[0]["embed"]), level1=int(rows[0]["level1"]))

    def level1_backlog(self) -> int:
        """Distinct turns with ``level1`` or ``nous`` pending: the spaces' counts summed."""
        rows = self._db.query("SELECT COALESCE(SUM(level1), 0) AS n FROM space_backlog")
        return int(rows[0]["n"])

    def mark_outdated(self, space: str, done_by: str, at: datetime) -> int:
        """Mark ``level1``/``nous`` for the turns whose Level 1 someone else did."""
        when = to_epoch(at)
        with self._db.transaction() as conn:
            ids = [
                r[0]
                for r in conn.execute(
                    """SELECT e.id FROM evidence e
                       LEFT JOIN level1_runs r ON r.space = e.space AND r.evidence_id = e.id
                       WHERE e.space = ? AND (r.done_by IS NULL OR r.done_by != ?)
                         AND NOT EXISTS (SELECT 1 FROM pending_stages p WHERE p.space = e.space
                                         AND p.item_id = e.id AND p.stage = 'level1')
                       ORDER BY e.rowid""",
                    (space, done_by),
                )
            ]
            conn.executemany(_MARK, [(space, i, s, "reprocess", when, when) for i in ids for s in DERIVED_STAGES])
        return len(ids)

    def embedder(self) -> str | None:
        """The recorded embedder id."""
        rows = self._db.query("SELECT value FROM store_meta WHERE key = 'embedder'")
        return str(rows[0]["value"]) if rows else None

    def switch_embedder(self, embedder_id: str, at: datetime) -> int:
        """Record the embedder; on a change, mark every turn and belief for re-embedding."""
        if self.embedder() == embedder_id:
            return 0  # the usual open: no write lock taken
        when = to_epoch(at)
        with self._db.transaction() as conn:
            row = conn.execute("SELECT value FROM store_meta WHERE key = 'embedder'").fetchone()
            if row is not None and row[0] == embedder_id:
                return 0
            marked = sum(  # rowcount: the rows inserted, not the triggers' writes
                conn.execute(
                    "INSERT OR IGNORE INTO pending_stages (space, item_id, stage, reason, since, due_at, attempts,"
                    f" error) SELECT space, id, '{stage}', 'embedder', ?, ?, 0, NULL FROM {table}",  # noqa: S608
                    (when, when),
                ).rowcount
                for stage, table in (("embed_evidence", "evidence"), ("embed_belief", "beliefs"))
            )
            conn.execute(
                "INSERT INTO store_meta (key, value) VALUES ('embedder', ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (embedder_id,),
            )
        return marked


def add_job_in(conn: sqlite3.Connection, job: JobRecord) -> None:
    """Store a job inside the caller's transaction (Level 0's, for an API write); an
    existing id is kept."""
    conn.execute(
        "INSERT OR IGNORE INTO jobs (id, space, evidence_ids, submitted_at, author, request_id)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (job.id, job.space, json.dumps(list(job.evidence_ids)), to_epoch(job.submitted_at), job.author, job.request_id),
    )


def drop_erased_from_jobs(conn: sqlite3.Connection, space: str, ids: Sequence[str]) -> int:
    """Take erased turn ids out of the jobs of ``space`` that list them, inside the caller's
    transaction (the erasure's): a job row kept the ids of turns erased after it was
    submitted, the one copy of them left outside the audit trail. The job keeps its other
    turns (its status is theirs); one left with none reads ``done``. Returns the jobs changed."""
    gone = set(ids)
    changed = []
    for row in conn.execute("SELECT id, evidence_ids FROM jobs WHERE space = ?", (space,)).fetchall():
        listed: list[str] = json.loads(row["evidence_ids"])
        if not gone.isdisjoint(listed):
            changed.append((json.dumps([i for i in listed if i not in gone]), row["id"]))
    conn.executemany("UPDATE jobs SET evidence_ids = ? WHERE id = ?", changed)
    return len(changed)


class SqliteJobRecords:
    """The embedded ``JobRecords``."""

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db
        db.ensure_schema(SCHEMA)

    def add_job(self, job: JobRecord) -> None:
        """Store a job; an existing id is kept."""
        with self._db.transaction() as conn:
            add_job_in(conn, job)

    def get_job(self, job_id: str) -> JobRecord | None:
        """The job, or None."""
        rows = self._db.query("SELECT * FROM jobs WHERE id = ?", (job_id,))
        if not rows:
            return None
        row = rows[0]
        submitted = from_epoch(row["submitted_at"])
        assert submitted is not None  # NOT NULL column
        return JobRecord(
            id=row["id"], space=row["space"], evidence_ids=tuple(json.loads(row["evidence_ids"])),
            submitted_at=submitted, author=row["author"], request_id=row["request_id"],
        )  # fmt: skip

    def prune_jobs(self, before: datetime) -> int:
        """Delete jobs submitted before ``before``."""
        with self._db.transaction() as conn:
            return conn.execute("DELETE FROM jobs WHERE submitted_at < ?", (to_epoch(before),)).rowcount


class SqliteTombstones:
    """The embedded ``Tombstones``."""

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db
        db.ensure_schema(SCHEMA)

    def add_tombstones(self, space: str, evidence_ids: Sequence[str], at: datetime) -> int:
        """Tombstone ids and clear their derived-stage marks, in one transaction."""
        when = to_epoch(at)
        with self._db.transaction() as conn:
            before = conn.total_changes
            conn.executemany(
                "INSERT OR IGNORE INTO tombstones (space, evidence_id, at) VALUES (?, ?, ?)",
                [(space, i, when) for i in dict.fromkeys(evidence_ids)],
            )
            added = conn.total_changes - before
            for stage in DERIVED_STAGES:
                complete_in(conn, space, stage, evidence_ids)
        return added

    def tombstoned(self, space: str, evidence_ids: Sequence[str]) -> set[str]:
        """The tombstoned subset of ``evidence_ids``."""
        found: set[str] = set()
        for chunk in _chunks(evidence_ids):
            rows = self._db.query(
                f"SELECT evidence_id FROM tombstones WHERE space = ? AND evidence_id IN ({_marks(len(chunk))})",  # noqa: S608
                [space, *chunk],
            )
            found.update(r["evidence_id"] for r in rows)
        return found
