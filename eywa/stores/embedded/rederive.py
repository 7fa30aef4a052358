"""Signals detected again under a newer ``eywa.signals.version``, in SQLite.

``evidence.signals_version`` records the version each turn's signals were detected under
(format 7 added the column, 0 for the turns already stored, and its index on (space,
signals_version)); these functions serve ``SqliteEvidenceStore``'s ``signals_outdated``,
``count_signals_outdated``, ``entities_mentioned_before`` and ``rederive`` (see
``eywa.stores.evidence.EvidenceStore`` for what each promises).

``rederive`` is one transaction per call: the changed turns' signals and mentions replaced,
co-mention weights moved, orphaned entities removed, the Level 1 marks and every turn's new
version, so a crash leaves each turn either as it was (found again by the next pass) or
re-derived with its Level 1 owed.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime

from eywa.models import Entity, Evidence
from eywa.stores.embedded import ledger as ledger_sql
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.entity_graph import add_co_mentions, link_mentions, take_back_co_mentions
from eywa.stores.embedded.records import entity_from_row, signal_rows, to_epoch
from eywa.stores.entity_graph import co_mention_weights
from eywa.stores.evidence import RederivedTurn, still_a_person
from eywa.stores.ledger import DERIVED_STAGES

__all__ = ["INDEX", "count_outdated", "entities_mentioned_before", "outdated", "rederive"]

INDEX = "CREATE INDEX IF NOT EXISTS evidence_signals_version ON evidence(space, signals_version)"
"""Created by format 7 (``migrations``): on an older database the column does not exist
before the migration adds it, so the index cannot be in the store's schema."""

_CHUNK = 400


def _marks(n: int) -> str:
    return ",".join("?" * n)


def outdated(db: SqliteDatabase, space: str, version: int, limit: int) -> list[str]:
    """``EvidenceStore.signals_outdated``: the rowid is the order turns were stored in."""
    rows = db.query(
        "SELECT id FROM evidence WHERE space = ? AND signals_version < ? ORDER BY recorded_at, rowid LIMIT ?",
        (space, version, limit),
    )
    return [row["id"] for row in rows]


def count_outdated(db: SqliteDatabase, space: str, version: int) -> int:
    """``EvidenceStore.count_signals_outdated`` (the index's range, no table rows read)."""
    rows = db.query("SELECT COUNT(*) AS n FROM evidence WHERE space = ? AND signals_version < ?", (space, version))
    return int(rows[0]["n"])


def entities_mentioned_before(db: SqliteDatabase, space: str, before: datetime) -> list[Entity]:
    """``EvidenceStore.entities_mentioned_before``, by name then id."""
    rows = db.query(
        """SELECT DISTINCT n.* FROM entities n WHERE n.space = ? AND EXISTS (
               SELECT 1 FROM mentions m JOIN evidence e ON e.id = m.evidence_id
               WHERE m.space = n.space AND m.entity_id = n.id AND e.recorded_at < ?)""",
        (space, to_epoch(before)),
    )
    return sorted((entity_from_row(row) for row in rows), key=lambda e: (e.name, e.id))


def rederive(
    db: SqliteDatabase, space: str, changed: Sequence[RederivedTurn], unchanged: Sequence[str], version: int, at: datetime
) -> list[str]:
    """``EvidenceStore.rederive`` in one transaction."""
    with db.transaction() as conn:
        ids = [t.id for t in changed] + list(unchanged)
        present = _present(conn, space, ids)
        rewritten = [t for t in changed if t.id in present]
        if rewritten:
            _rewrite(conn, space, rewritten, at)
        conn.executemany(
            "UPDATE evidence SET signals_version = ? WHERE id = ? AND space = ?",
            [(version, i, space) for i in ids if i in present],
        )
    return [t.id for t in rewritten]


def _present(conn: sqlite3.Connection, space: str, ids: Sequence[str]) -> set[str]:
    found: set[str] = set()
    for start in range(0, len(ids), _CHUNK):
        chunk = list(ids[start : start + _CHUNK])
        found.update(
            row[0]
            for row in conn.execute(
                f"SELECT id FROM evidence WHERE +space = ? AND id IN ({_marks(len(chunk))})",  # noqa: S608
                [space, *chunk],
            )
        )
    return found


def _rewrite(conn: sqlite3.Connection, space: str, turns: Sequence[RederivedTurn], at: datetime) -> None:
    """Replace the signals and mentions of ``turns`` (all stored) and mark their Level 1."""
    ids = [t.id for t in turns]
    old: list[tuple[str, str, str]] = []
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start : start + _CHUNK]
        marks = _marks(len(chunk))
        old += [
            (space, row[0], row[1])
            for row in conn.execute(
                f"SELECT evidence_id, entity_id FROM mentions WHERE +space = ? AND evidence_id IN ({marks})",  # noqa: S608
                [space, *chunk],
            )
        ]
        conn.execute(f"DELETE FROM signals WHERE +space = ? AND evidence_id IN ({marks})", [space, *chunk])  # noqa: S608
        conn.execute(f"DELETE FROM mentions WHERE +space = ? AND evidence_id IN ({marks})", [space, *chunk])  # noqa: S608
    take_back_co_mentions(conn, space, old)
    conn.executemany(
        """INSERT INTO signals VALUES (:evidence_id, :space, :idx, :kind, :text, :start,
           :end, :normalized, :granularity, :window_start, :window_end)""",
        [row for t in turns for row in signal_rows(_carrier(space, t))],
    )
    links = [(turn.id, entity) for turn in turns for entity in turn.mentions]
    link_mentions(conn, links)
    new = [(space, evidence_id, entity.id) for evidence_id, entity in links]
    add_co_mentions(conn, co_mention_weights(new))
    _remove_orphans(conn, space, sorted({entity for _, _, entity in old} - {entity for _, _, entity in new}))
    people = {e.id for t in turns for e in t.mentions if e.kind == "person"}
    _unmake_people(conn, space, sorted({entity for _, _, entity in old + new} - people))
    ledger_sql.mark_in(conn, space, DERIVED_STAGES, ids, "signals", at)
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start : start + _CHUNK]
        conn.execute(  # a mark that existed keeps its place but now replaces this version's work too
            f"UPDATE pending_stages SET reason = 'signals' WHERE space = ? AND stage = 'level1'"  # noqa: S608
            f" AND item_id IN ({_marks(len(chunk))})",
            [space, *chunk],
        )


def _carrier(space: str, turn: RederivedTurn) -> Evidence:
    """An ``Evidence`` carrying only what ``signal_rows`` reads (id, space, signals)."""
    return Evidence.model_construct(id=turn.id, space=space, signals=turn.signals)


def _unmake_people(conn: sqlite3.Connection, space: str, entities: Sequence[str]) -> None:
    """Among ``entities`` (touched, and not named as a person by the rewritten turns), the
    people no mentioning turn names as a person any more become entities."""
    for entity in entities:
        row = conn.execute("SELECT kind FROM entities WHERE space = ? AND id = ?", (space, entity)).fetchone()
        if row is None or row[0] != "person":
            continue
        rows = conn.execute(
            """SELECT e.speaker, s.normalized, s.text FROM mentions m JOIN evidence e ON e.id = m.evidence_id
               LEFT JOIN signals s ON s.evidence_id = e.id AND s.kind = 'person'
               WHERE m.space = ? AND m.entity_id = ?""",
            (space, entity),
        ).fetchall()
        names = [r[1] or r[2] for r in rows if r[2] is not None]
        if not still_a_person(space, entity, (r[0] for r in rows), names):
            conn.execute("UPDATE entities SET kind = 'entity' WHERE space = ? AND id = ?", (space, entity))


def _remove_orphans(conn: sqlite3.Connection, space: str, entities: Sequence[str]) -> None:
    """Entities among ``entities`` no turn mentions any more, and no identity merge holds,
    go with their co-mention edges (as an erasure removes them)."""
    orphans = [
        entity for entity in entities
        if conn.execute("SELECT 1 FROM mentions WHERE space = ? AND entity_id = ? LIMIT 1", (space, entity)).fetchone()
        is None
        and conn.execute(
            "SELECT 1 FROM nous_same_as WHERE space = ? AND (source = ? OR target = ?) LIMIT 1", (space, entity, entity)
        ).fetchone() is None
    ]  # fmt: skip
    conn.executemany("DELETE FROM entities WHERE space = ? AND id = ?", [(space, e) for e in orphans])
    conn.executemany("DELETE FROM entity_edges WHERE space = ? AND (a = ? OR b = ?)", [(space, e, e) for e in orphans])
