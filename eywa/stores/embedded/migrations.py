"""Format migrations of the embedded database, recorded in SQLite's ``PRAGMA user_version``.

Tables are created by each store (``CREATE … IF NOT EXISTS``); what a new version changes in
rows that are already stored is a migration here. ``MIGRATIONS`` is ordered: the database's
``user_version`` is the number of migrations it has been through, and ``migrate`` applies
the missing ones on open, each in one transaction with its version bump, so a crash leaves
either the old or the new format. Never edit or reorder an applied migration; append one.

An up-to-date database is only read (no write lock on open). Otherwise the version is read
again inside each migration's write transaction (``BEGIN IMMEDIATE``), so two processes
opening the same directory at once (the API and a worker) apply each migration once.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

from eywa.errors import StoreError
from eywa.ids import entity_id
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.entity_graph import backfill_co_mentions
from eywa.stores.embedded.evidence import recount_usage
from eywa.stores.embedded.ledger import recount_backlog
from eywa.stores.embedded.rederive import INDEX as SIGNALS_VERSION_INDEX

__all__ = ["FORMAT_VERSION", "MIGRATIONS", "migrate"]


def _entity_ids_from_entity_key(conn: sqlite3.Connection) -> None:
    """Re-key entities by ``eywa.ids.entity_key`` (whitespace collapsed, then case-folded).

    Ids used to hash ``name.casefold()`` alone, so "Mary  Ann" and "Mary Ann" were two
    entities. Each entity whose id differs from its name's new id moves to it; two that now
    share an id become one (aliases united, "person" kept), and their mentions follow.
    """
    rows = conn.execute("SELECT id, space, name, kind, aliases FROM entities ORDER BY rowid").fetchall()
    for old_id, space, name, kind, aliases in rows:
        new_id = entity_id(space, name)
        if new_id == old_id:
            continue
        target = conn.execute("SELECT kind, aliases FROM entities WHERE id = ?", (new_id,)).fetchone()
        if target is None:
            conn.execute("UPDATE entities SET id = ? WHERE id = ?", (new_id, old_id))
        else:
            united = sorted(set(json.loads(target[1])) | set(json.loads(aliases)))
            merged_kind = "person" if "person" in (target[0], kind) else target[0]
            conn.execute(
                "UPDATE entities SET aliases = ?, kind = ? WHERE id = ?", (json.dumps(united), merged_kind, new_id)
            )
            conn.execute("DELETE FROM entities WHERE id = ?", (old_id,))
        conn.execute("UPDATE OR IGNORE mentions SET entity_id = ? WHERE entity_id = ?", (new_id, old_id))
        conn.execute("DELETE FROM mentions WHERE entity_id = ?", (old_id,))  # duplicates of moved rows


def _extractor_versions(conn: sqlite3.Connection) -> None:
    """Beliefs and candidates record the extractor's version (``eywa reprocess`` compares it).

    Stores of format 1 have no ``extractor_version`` column; it is added, empty (the version
    that made those rows is unknown, so reprocessing treats them as older). A fresh database
    already has it: its tables were just created with it.
    """
    for table in ("beliefs", "candidates"):
        columns = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}  # noqa: S608 - fixed names
        if "extractor_version" not in columns:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN extractor_version TEXT")  # noqa: S608



def _co_mention_edges(conn: sqlite3.Connection) -> None:
    """Fill ``entity_edges`` (the co-mention graph the graph route reads) from the mentions.

    Level 0 keeps the edges from now on; before, the graph route rebuilt them per read.
    """
    backfill_co_mentions(conn)



def _merge_provenance(conn: sqlite3.Connection) -> None:
    """Identity merges record who accepted them (``author``) and who or what undid them
    (``removed_by``). Stores of format 3 lack both columns; they are added, empty."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(nous_same_as)")}
    for column in ("author", "removed_by"):
        if column not in columns:
            conn.execute(f"ALTER TABLE nous_same_as ADD COLUMN {column} TEXT")  # noqa: S608 - fixed names


def _space_backlog_counts(conn: sqlite3.Connection) -> None:
    """Fill ``space_backlog`` (the counts ``StageLedger.space_backlog`` reads) from the marks.

    Stores of format 4 counted a space's marks on every read; its triggers keep the counts
    from now on. The count replaces whatever the triggers added between the table's creation
    and this migration, in the same transaction as the version bump.
    """
    recount_backlog(conn)


def _delta_stated_starts(conn: sqlite3.Connection) -> None:
    """Deltas record the start their belief states (``Delta.valid_from``: "since 2015").
    Stores of format 5 lack the column; it is added, empty: their deltas report since when
    they were said, as before, and new deltas carry their start. Backfilling from the beliefs
    would make replayed reads (an earlier ``as_of``, merged entities) report the start while
    the stored state, folded without it, does not."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(nous_deltas)")}
    if "valid_from" not in columns:
        conn.execute("ALTER TABLE nous_deltas ADD COLUMN valid_from TEXT")


def _signals_versions(conn: sqlite3.Connection) -> None:
    """Turns record the ``eywa.signals.version`` their signals were detected under. Stores of
    format 6 lack the column; it is added as 0 (older than any recorded version), so
    ``eywa reprocess`` detects their signals again (``eywa.rederive``), with its index on
    (space, version) through which the outdated turns are found and counted."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(evidence)")}
    if "signals_version" not in columns:
        conn.execute("ALTER TABLE evidence ADD COLUMN signals_version INTEGER NOT NULL DEFAULT 0")
    conn.execute(SIGNALS_VERSION_INDEX)


def _space_usage_counts(conn: sqlite3.Connection) -> None:
    """Fill ``space_usage`` (the turns and bytes the space quotas count, ``EvidenceStore.usage``)
    from the stored turns.

    Stores of format 7 and before counted and summed a space's turns in every quota-checked
    write; the triggers of ``evidence.USAGE_SCHEMA`` keep the rows from now on. The count
    replaces whatever the triggers added between the table's creation and this migration, in
    the same transaction as the version bump.
    """
    recount_usage(conn)


def _delta_said_times(conn: sqlite3.Connection) -> None:
    """Deltas record when a start said ahead was said (``Delta.said_at``: "I'm joining Initech
    next month" said on 10 Jun is at 1 Jul). Stores of format 8 lack the column; it is added,
    empty: a dimension replayed from their deltas reports "last said" at the start, as it did,
    and new deltas carry the day said. Backfilling from the cited turns would make a replayed
    read differ from the state stored when it was folded, as for ``valid_from``."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(nous_deltas)")}
    if "said_at" not in columns:
        conn.execute("ALTER TABLE nous_deltas ADD COLUMN said_at TEXT")


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    _entity_ids_from_entity_key,
    _extractor_versions,
    _co_mention_edges,
    _merge_provenance,
    _space_backlog_counts,
    _delta_stated_starts,
    _signals_versions,
    _space_usage_counts,
    _delta_said_times,
)
FORMAT_VERSION = len(MIGRATIONS)


def migrate(db: SqliteDatabase) -> list[str]:
    """Apply the migrations this database has not been through; returns their names.

    Call it after the stores created their tables. A fresh database runs them over empty
    tables, which only records the version.

    Raises:
        StoreError: a migration failed (its transaction is rolled back), or the database
            was written by a newer Eywa (its version is above ``FORMAT_VERSION``).
    """
    applied: list[str] = []
    rows = db.query("PRAGMA user_version")
    if int(rows[0][0]) == FORMAT_VERSION:
        return applied  # the usual case: no write lock taken on open
    for version, step in enumerate(MIGRATIONS, start=1):
        with db.transaction() as conn:
            current = int(conn.execute("PRAGMA user_version").fetchone()[0])
            if current > FORMAT_VERSION:
                raise StoreError(
                    "sqlite", "migrate", f"{db.path} has format {current}; this Eywa reads up to {FORMAT_VERSION}"
                )
            if current >= version:
                continue
            try:
                step(conn)
            except sqlite3.Error as exc:
                raise StoreError("sqlite", "migrate", f"{step.__name__}: {exc}") from exc
            conn.execute(f"PRAGMA user_version = {version:d}")
            applied.append(step.__name__.lstrip("_"))
    return applied
