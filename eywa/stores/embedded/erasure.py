"""The erasure steps in the embedded SQLite database (``eywa.stores.erasure``).

``begin`` is one SQLite transaction: the record, tombstones, the turns with their signals,
mentions and FTS rows, the neighbours' FTS context rebuilt (``reindex_session``, the same
function the writes use), co-mention weights taken back, orphan entities removed, the erased ids
taken out of the job rows listing them, and the ``embed_evidence`` marks that make the vector stage drop the erased vectors and rebuild the
neighbours' ones. The HMAC secret lives in ``<data dir>/erasure.key`` (mode 0600), outside
the database, so a copy of the database alone does not let anyone test guesses against the
record's hashes.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from datetime import datetime
from pathlib import Path
from typing import Protocol

from eywa.errors import StoreError
from eywa.stores.embedded import ledger as ledger_sql
from eywa.stores.embedded import space_residue
from eywa.stores.embedded.bm25_index import note_written
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.entity_graph import take_back_co_mentions
from eywa.stores.embedded.evidence import reindex_session
from eywa.stores.embedded.records import from_epoch, to_epoch
from eywa.stores.erasure import ErasedTurn, ErasureRecord, ErasureSelector, ErasureState
from eywa.stores.ledger import DERIVED_STAGES

__all__ = ["SCHEMA", "SECRET_FILE", "SqliteErasureStore"]

SECRET_FILE = "erasure.key"
SCHEMA = (
    """CREATE TABLE IF NOT EXISTS erasures (
        id TEXT PRIMARY KEY, space TEXT NOT NULL, at REAL NOT NULL, author TEXT,
        selector TEXT NOT NULL, state TEXT NOT NULL, belief_ids TEXT NOT NULL,
        candidate_ids TEXT NOT NULL, counts TEXT NOT NULL, done_at REAL)""",
    "CREATE INDEX IF NOT EXISTS erasures_state ON erasures(state, at)",
    "CREATE INDEX IF NOT EXISTS erasures_space ON erasures(space, at)",  # a space's records, its counts
    """CREATE TABLE IF NOT EXISTS erased_turns (
        erasure_id TEXT NOT NULL, space TEXT NOT NULL, evidence_id TEXT NOT NULL,
        content_mac TEXT NOT NULL, PRIMARY KEY (erasure_id, evidence_id))""",
)
_CHUNK = 400
_SECRET_BYTES = 32
_FTS_TABLES = ("evidence_fts", "belief_fts")


def _create_secret(path: Path) -> None:
    """A new random key at ``path``, whole or not at all: written and fsynced under a
    temporary name, then hard-linked to ``path`` (which fails, harmlessly, when another
    process made it first).

    Raises:
        OSError: the file cannot be written (a full disk, a read-only directory).
    """
    temporary = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(_SECRET_BYTES))
            out.flush()
            os.fsync(out.fileno())
        with suppress(FileExistsError):  # another process made it between the check and here
            os.link(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def _chunks(items: Sequence[str]) -> list[list[str]]:
    values = list(dict.fromkeys(items))
    return [values[i : i + _CHUNK] for i in range(0, len(values), _CHUNK)]


def _marks(n: int) -> str:
    return ",".join("?" * n)


class InMemoryCopy(Protocol):
    """A copy of a keyword index kept in memory (``bm25_index``, ``belief_index``)."""

    def scrub(self) -> None:
        """Hold none of what the erasure just committed took out of the table."""


class SqliteErasureStore:
    """The embedded ``ErasureStore``. ``copies``: the in-memory copies of the keyword
    indexes, scrubbed with the files (``scrub``)."""

    def __init__(self, db: SqliteDatabase, secret: bytes | None = None, copies: Sequence[InMemoryCopy] = ()) -> None:
        self._db = db
        self._secret = secret
        self._copies = tuple(copies)
        db.ensure_schema(SCHEMA)
        if secret is None:
            # Made (or read) at open, while the directory is writable: made at the first
            # erasure, it failed that erasure when the disk had filled since. A directory
            # where it cannot be made now (read-only, full) is told at first use, as before.
            with suppress(StoreError):
                self.secret()

    def secret(self) -> bytes:
        """The configured secret, else ``<data dir>/erasure.key`` (created 0600 at open, or
        on first use when it could not be then).

        The file is written under a temporary name, flushed to disk and linked into place, so
        a full disk or a crash never leaves a short key under the name (an empty file was read
        back as an empty secret, and every later record keyed with it).

        Raises:
            StoreError: the key file cannot be read or created, or does not hold 32 bytes in hex.
        """
        if self._secret is not None:
            return self._secret
        path = Path(self._db.path).parent / SECRET_FILE
        try:
            if not path.exists():
                _create_secret(path)
            secret = bytes.fromhex(path.read_text().strip())
        except (OSError, ValueError) as exc:
            raise StoreError("sqlite", "erasure secret", f"{path}: {exc}") from exc
        if len(secret) != _SECRET_BYTES:
            raise StoreError(
                "sqlite", "erasure secret",
                f"{path} holds {len(secret)} bytes, not {_SECRET_BYTES} (cut short?): restore it from a backup, "
                "or remove it if no erasure was ever recorded in this directory",
            )  # fmt: skip
        self._secret = secret
        return secret

    def select(self, space: str, selector: ErasureSelector) -> list[str]:
        """Ids of the turns of ``space`` matching every given field, in stored order."""
        where, params = ["space = ?"], [space]
        if selector.speaker is not None:
            where.append("speaker = ?")
            params.append(selector.speaker)
        if selector.session is not None:
            where.append("session = ?")
            params.append(selector.session)
        if selector.before is not None:
            where.append("observed_at < ?")
            params.append(to_epoch(selector.before))  # type: ignore[arg-type]
        if selector.recorded_before is not None:
            where.append("recorded_at < ?")
            params.append(to_epoch(selector.recorded_before))  # type: ignore[arg-type]
        for column, values in (("id", selector.evidence_ids), ("external_id", selector.external_ids)):
            if values is not None:
                where.append(f"{column} IN (SELECT value FROM json_each(?))")
                params.append(json.dumps(list(values)))
        sql = f"SELECT id FROM evidence WHERE {' AND '.join(where)} ORDER BY rowid"  # noqa: S608 - fixed fragments
        return [row["id"] for row in self._db.query(sql, params)]

    def content_hashes(self, space: str, evidence_ids: Sequence[str] | None = None) -> dict[str, str]:
        if evidence_ids is None:
            rows = self._db.query("SELECT id, content_hash FROM evidence WHERE space = ?", (space,))
            return {row["id"]: row["content_hash"] for row in rows}
        found: dict[str, str] = {}
        for chunk in _chunks(evidence_ids):
            rows = self._db.query(
                f"SELECT id, content_hash FROM evidence WHERE +space = ? AND id IN ({_marks(len(chunk))})",  # noqa: S608
                [space, *chunk],
            )
            found.update({row["id"]: row["content_hash"] for row in rows})
        return found

    def begin(self, record: ErasureRecord) -> dict[str, int]:
        """Record, tombstone and remove the turns, and rebuild what borrows their words, in
        one transaction (``eywa.stores.erasure``).

        Raises:
            StoreError: SQLite failed; nothing of the step was committed.
        """
        space, ids = record.space, [t.evidence_id for t in record.turns]
        counts = {"turns": 0, "signals": 0, "mentions": 0, "entities": 0}
        with self._db.transaction() as conn:
            conn.execute(
                """INSERT OR IGNORE INTO erasures VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, '{}', NULL)""",
                (record.id, space, to_epoch(record.at), record.author, record.selector.model_dump_json(),
                 json.dumps(list(record.belief_ids)), json.dumps(list(record.candidate_ids))),
            )  # fmt: skip
            conn.executemany(
                "INSERT OR IGNORE INTO erased_turns VALUES (?, ?, ?, ?)",
                [(record.id, space, t.evidence_id, t.content_mac) for t in record.turns],
            )
            conn.executemany(
                "INSERT OR IGNORE INTO tombstones (space, evidence_id, at) VALUES (?, ?, ?)",
                [(space, i, to_epoch(record.at)) for i in ids],
            )
            for stage in DERIVED_STAGES:
                ledger_sql.complete_in(conn, space, stage, ids)
            for chunk in _chunks(ids):
                counts = _add(counts, _erase_chunk(conn, space, chunk, record.at))
        return counts

    def progress(self, erasure_id: str, counts: Mapping[str, int]) -> None:
        with self._db.transaction() as conn:
            conn.execute(
                "UPDATE erasures SET counts = ? WHERE id = ? AND state = 'pending'",
                (json.dumps(dict(counts), sort_keys=True), erasure_id),
            )

    def finish(self, erasure_id: str, counts: Mapping[str, int], at: datetime) -> None:
        with self._db.transaction() as conn:
            conn.execute(
                "UPDATE erasures SET state = 'done', counts = ?, done_at = ? WHERE id = ?",
                (json.dumps(dict(counts), sort_keys=True), to_epoch(at), erasure_id),
            )

    def release(self, space: str) -> int:
        """The jobs, Level 1 runs and counters of ``space`` once it holds no turn
        (``space_residue.release``; the embedded store keeps no session rows).

        Raises:
            StoreError: SQLite failed.
        """
        with self._db.transaction() as conn:
            return space_residue.release(conn, space)

    def remains(self, space: str) -> dict[str, int]:
        """Rows per kind still holding ``space`` beside its audit trail (``space_residue``)."""
        with self._db.transaction() as conn:
            return space_residue.remains(conn, space)

    def scrub(self) -> bool:
        """Leave no copy of erased words in the database's files: merge each keyword index
        into one segment (FTS5 keeps a deleted row's terms in its segments, and writes them
        again in its delete markers, until the segments holding them are merged), then
        checkpoint the WAL and truncate it (``SqliteDatabase.checkpoint``). Freed pages were
        zeroed as they were freed (``secure_delete``). The in-memory copies of the keyword
        indexes forget the erased terms and beliefs too (before, the evidence copy kept the
        erased words as terms without a row, and the belief copy its stale version with the
        erased beliefs, until a rebuild). Returns whether the checkpoint completed (a reader
        on an older snapshot can hold it off; ``close`` does it then).

        Cost: both merges rewrite their whole index, once per erasure (README "Erasure").

        Raises:
            StoreError: SQLite failed; nothing of the erasure is undone, its record stays
                ``pending`` and the resume that finishes it scrubs again (idempotent).
        """
        with self._db.transaction() as conn:
            note_written(conn, [])  # no row changes: the in-memory index follows the new version
            for table in _FTS_TABLES:
                conn.execute(f"INSERT INTO {table}({table}) VALUES ('optimize')")  # noqa: S608 - constants
        for copy in self._copies:
            copy.scrub()
        return self._db.checkpoint()

    @contextmanager
    def atomic(self) -> Iterator[None]:
        """One SQLite transaction around the whole graph part of an erasure: the stores'
        own transactions join it, so a reader never sees turns gone but beliefs left."""
        with self._db.transaction():
            yield

    def get(self, erasure_id: str) -> ErasureRecord | None:
        rows = self._db.query("SELECT * FROM erasures WHERE id = ?", (erasure_id,))
        return self._record(rows[0]) if rows else None

    def erasures(self, space: str | None = None, state: ErasureState | None = None) -> list[ErasureRecord]:
        rows = self._db.query(
            "SELECT * FROM erasures WHERE (? IS NULL OR space = ?) AND (? IS NULL OR state = ?) ORDER BY at, id",
            (space, space, state, state),
        )
        return [self._record(row) for row in rows]

    def _record(self, row: sqlite3.Row) -> ErasureRecord:
        turns = self._db.query(
            "SELECT evidence_id, content_mac FROM erased_turns WHERE erasure_id = ? ORDER BY evidence_id",
            (row["id"],),
        )
        at = from_epoch(row["at"])
        assert at is not None  # noqa: S101 - NOT NULL column
        return ErasureRecord(
            id=row["id"], space=row["space"], at=at, author=row["author"],
            selector=ErasureSelector.model_validate_json(row["selector"]), state=row["state"],
            turns=tuple(ErasedTurn(evidence_id=t["evidence_id"], content_mac=t["content_mac"]) for t in turns),
            belief_ids=tuple(json.loads(row["belief_ids"])), candidate_ids=tuple(json.loads(row["candidate_ids"])),
            counts=json.loads(row["counts"]), done_at=from_epoch(row["done_at"]),
        )  # fmt: skip


def _add(a: dict[str, int], b: Mapping[str, int]) -> dict[str, int]:
    return {k: a.get(k, 0) + b.get(k, 0) for k in {*a, *b}}


def _erase_chunk(conn: sqlite3.Connection, space: str, ids: list[str], at: datetime) -> dict[str, int]:
    """Remove up to ``_CHUNK`` turns inside the caller's transaction (repeatable: gone rows
    are simply not found again)."""
    marks = _marks(len(ids))
    stored = conn.execute(
        f"SELECT rowid, id, session, seq FROM evidence WHERE +space = ? AND id IN ({marks})",  # noqa: S608
        [space, *ids],
    ).fetchall()
    mentions = conn.execute(
        f"SELECT evidence_id, entity_id FROM mentions WHERE +space = ? AND evidence_id IN ({marks})",  # noqa: S608
        [space, *ids],
    ).fetchall()
    take_back_co_mentions(conn, space, ((space, m["evidence_id"], m["entity_id"]) for m in mentions))
    counts = {"turns": len(stored), "mentions": len(mentions)}
    counts["signals"] = conn.execute(
        f"DELETE FROM signals WHERE +space = ? AND evidence_id IN ({marks})", [space, *ids]  # noqa: S608
    ).rowcount
    conn.execute(f"DELETE FROM mentions WHERE +space = ? AND evidence_id IN ({marks})", [space, *ids])  # noqa: S608
    # Which extractor read the turn: an erased id's row would outlive its turn (Neo4j keeps it on the node).
    conn.execute(f"DELETE FROM level1_runs WHERE space = ? AND evidence_id IN ({marks})", [space, *ids])  # noqa: S608
    ledger_sql.drop_erased_from_jobs(conn, space, ids)
    note_written(conn, [row["rowid"] for row in stored])  # the in-memory index follows after commit
    conn.executemany("DELETE FROM evidence_fts WHERE rowid = ?", [(row["rowid"],) for row in stored])
    conn.execute(f"DELETE FROM evidence WHERE +space = ? AND id IN ({marks})", [space, *ids])  # noqa: S608
    touched = sorted({m["entity_id"] for m in mentions})
    orphans = [
        entity for entity in touched
        if conn.execute("SELECT 1 FROM mentions WHERE space = ? AND entity_id = ? LIMIT 1", (space, entity)).fetchone()
        is None
    ]  # fmt: skip
    conn.executemany("DELETE FROM entities WHERE space = ? AND id = ?", [(space, e) for e in orphans])
    conn.executemany(
        "DELETE FROM entity_edges WHERE space = ? AND (a = ? OR b = ?)", [(space, e, e) for e in orphans]
    )
    counts["entities"] = len(orphans)
    by_session: dict[str, list[int]] = defaultdict(list)
    for row in stored:
        by_session[row["session"]].append(row["seq"])
    beside: list[str] = []
    for session, seqs in sorted(by_session.items()):
        reindex_session(conn, space, session, seqs)
        near = [n for s in seqs for n in (s - 1, s + 1)]
        beside += [
            row[0]
            for row in conn.execute(
                f"SELECT id FROM evidence WHERE space = ? AND session = ? AND seq IN ({_marks(len(near))})",  # noqa: S608
                [space, session, *near],
            )
        ]
    # Erased ids lose their vectors; the turns on either side get theirs rebuilt (the erased
    # turn was the reply in one's vector and the turn before in the other's).
    ledger_sql.mark_in(conn, space, ("embed_evidence",), [*ids, *beside], "reprocess", at)
    return counts
