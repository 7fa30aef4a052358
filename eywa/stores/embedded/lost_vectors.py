"""At open: find the vectors the shards lost, and mark their items for embedding again.

The vector shards (``vectors/``, Qdrant Edge) are derived from the turns and beliefs in
SQLite, and the stage ledger says which items still owe their vector (``embed_*`` marks;
``eywa.stores.ledger``): every item without a mark is one the ledger counts as embedded.
When the shards lose points behind the ledger's back (``vectors/`` or one shard's directory
deleted, a segment lost, a copy of ``eywa.sqlite3`` alone moved to another machine), the
ledger still says those items are embedded, so nothing would embed them again and the
vector and person routes would silently find nothing.

So each open compares, per kind, the points of the shard with the items the ledger counts
as embedded: two counts (the shard's exact count, and the table's rows less the ones with a
mark), a few milliseconds at 10k turns, never a per-id check. When the shard holds fewer,
the items without a point are marked ``embed_*`` again (reason ``lost``) in one transaction:
the open's reconciliation pass and the background thread (or ``eywa reconcile``) embed them,
the recall trace's ``pending.embed`` counts them until then, and nothing is lost. A shard
with no point at all (recreated empty) marks every unmarked item without reading the shard;
otherwise the shard is asked which of the ids it lacks, in chunks.

A missing ``vectors/`` beside an existing database is healed the same way rather than
refused: its shards are created empty (the vector store's open) and every turn and belief
is marked. Everything needed to rebuild them is in SQLite, the memory answers meanwhile
(keyword, graph and time routes; the trace says how many turns are not embedded), and a
refusal would only leave the operator to do by hand what the memory can do itself.

A count cannot see every loss: a shard that also holds points whose item is gone (a stale
vector) can be short of some items and still count as many points. ``Memory.repair_vectors``
(``eywa repair-vectors``) is the full per-id check for that.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from itertools import groupby
from typing import Final, Literal

from eywa.stores.embedded import ledger as ledger_sql
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.records import to_epoch
from eywa.stores.embedded.vectors import QdrantEdgeVectorStore
from eywa.stores.ledger import PendingStage
from eywa.stores.vectors import ShardShortfall, VectorKind

__all__ = ["ShardShortfall", "mark_lost_vectors"]

_Table = Literal["evidence", "beliefs"]
_DERIVED: Final[tuple[tuple[VectorKind, _Table, PendingStage], ...]] = (
    ("evidence", "evidence", "embed_evidence"),
    ("belief", "beliefs", "embed_belief"),
)
"""The kinds whose points are derived from a table, the table, and its embed stage (the
``entity`` shard holds no point yet)."""
_CHUNK: Final = 2_000
"""Ids per shard lookup when a shard is short but not empty."""


def mark_lost_vectors(db: SqliteDatabase, vectors: QdrantEdgeVectorStore, at: datetime) -> list[ShardShortfall]:
    """Mark for embedding the items whose points the shards lost; one entry per short shard
    (none in the usual open: two counts per kind).

    Raises:
        StoreError: SQLite or Qdrant Edge failed.
    """
    found: list[ShardShortfall] = []
    for kind, table, stage in _DERIVED:
        points = vectors.count(kind)
        expected = _embedded(db, table, stage)
        if points >= expected:
            continue
        if points == 0:
            marked = _mark_all(db, table, stage, at)
        else:
            marked = _mark_missing(db, vectors, kind, table, stage, at)
        found.append(ShardShortfall(kind=kind, expected=expected, points=points, marked=marked))
    return found


def _embedded(db: SqliteDatabase, table: _Table, stage: PendingStage) -> int:
    """Rows of ``table`` without a ``stage`` mark: the rows' count less the marks whose item
    exists (the marks found through the ledger's (stage, due_at) index; a mark of a gone
    item, whose vector is still to be deleted, is not subtracted)."""
    rows = db.query(
        f"""SELECT (SELECT COUNT(*) FROM {table})
                 - (SELECT COUNT(*) FROM pending_stages p JOIN {table} t ON t.id = p.item_id AND t.space = p.space
                    WHERE p.stage = ?) AS n""",  # noqa: S608 - fixed names
        (stage,),
    )
    return int(rows[0]["n"])


def _mark_all(db: SqliteDatabase, table: _Table, stage: PendingStage, at: datetime) -> int:
    """Mark every row of ``table`` without a ``stage`` mark (the shard has no point)."""
    when = to_epoch(at)
    with db.transaction() as conn:
        return conn.execute(
            "INSERT OR IGNORE INTO pending_stages (space, item_id, stage, reason, since, due_at, attempts, error)"
            f" SELECT space, id, ?, 'lost', ?, ?, 0, NULL FROM {table}",  # noqa: S608 - fixed names
            (stage, when, when),
        ).rowcount


def _mark_missing(
    db: SqliteDatabase, vectors: QdrantEdgeVectorStore, kind: VectorKind, table: _Table, stage: PendingStage,
    at: datetime,
) -> int:  # fmt: skip
    """Mark the rows of ``table`` without a mark that the shard has no point of."""
    marked = 0
    for space, ids in _unmarked(db, table, stage):
        missing = vectors.missing(kind, ids)
        if missing:
            with db.transaction() as conn:
                marked += ledger_sql.mark_in(conn, space, (stage,), [i for i in ids if i in missing], "lost", at)
    return marked


def _unmarked(db: SqliteDatabase, table: _Table, stage: PendingStage) -> Iterator[tuple[str, list[str]]]:
    """(space, ids) chunks of the rows of ``table`` without a ``stage`` mark."""
    rows = db.query(
        f"""SELECT t.space AS space, t.id AS id FROM {table} t WHERE NOT EXISTS (
                SELECT 1 FROM pending_stages p WHERE p.space = t.space AND p.item_id = t.id AND p.stage = ?)
            ORDER BY t.space""",  # noqa: S608 - fixed names
        (stage,),
    )
    for space, group in groupby(rows, key=lambda row: str(row["space"])):
        ids = [str(row["id"]) for row in group]
        for start in range(0, len(ids), _CHUNK):
            yield space, ids[start : start + _CHUNK]
