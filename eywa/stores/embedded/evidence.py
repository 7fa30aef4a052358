"""Evidence, signals, entities and mentions in SQLite, with an FTS5 (porter) keyword index
the co-mention edges (``entity_edges``) and the new turns' pending stage marks
(``eywa.stores.ledger``) written in the same transaction as the turns."""

from __future__ import annotations

import functools
import json
import sqlite3
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from eywa.contract import SpaceQuota, SpaceUsage, check_quota, turn_bytes
from eywa.errors import ErasedError, QuotaExceededError, SessionBusyError
from eywa.ids import entity_id, entity_key
from eywa.models import Entity, Evidence, Signal, SignalKind, utc_now
from eywa.signals.version import current_signals_version
from eywa.stores.embedded import rederive as rederive_sql
from eywa.stores.evidence import PriorState, RederivedTurn
from eywa.stores.context import SessionTurn, contexts_around, read_range
from eywa.stores.embedded import ledger as ledger_sql
from eywa.stores.embedded.bm25_index import note_written, read_version_db
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.entity_graph import SCHEMA as ENTITY_GRAPH_SCHEMA
from eywa.stores.embedded.entity_graph import add_co_mentions, link_mentions
from eywa.stores.embedded.group_commit import GroupCommit
from eywa.stores.embedded.records import (
    RECALL_TURN_COLUMNS,
    entity_from_row,
    evidence_from_row,
    evidence_row,
    recall_turn_from_tuple,
    signal_from_row,
    signal_rows,
    to_epoch,
)
from eywa.stores.embedded.speakers import SpeakerMemo
from eywa.stores.entity_graph import co_mention_weights
from eywa.stores.evidence import RecallTurn
from eywa.stores.ledger import TURN_STAGES, JobRecord

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS evidence (
        id TEXT PRIMARY KEY, space TEXT NOT NULL, session TEXT NOT NULL, seq INTEGER NOT NULL,
        speaker TEXT, role TEXT, text TEXT NOT NULL, observed_at REAL NOT NULL,
        recorded_at REAL NOT NULL, content_hash TEXT NOT NULL, metadata TEXT NOT NULL,
        external_id TEXT, author TEXT, signals_version INTEGER NOT NULL DEFAULT 0)""",
    "CREATE INDEX IF NOT EXISTS evidence_session ON evidence(space, session, seq)",
    "CREATE INDEX IF NOT EXISTS evidence_observed ON evidence(space, observed_at)",
    """CREATE TABLE IF NOT EXISTS signals (
        evidence_id TEXT NOT NULL REFERENCES evidence(id), space TEXT NOT NULL,
        idx INTEGER NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL, start INTEGER NOT NULL,
        "end" INTEGER NOT NULL, normalized TEXT NOT NULL, granularity TEXT,
        window_start REAL, window_end REAL, PRIMARY KEY (evidence_id, idx))""",
    "CREATE INDEX IF NOT EXISTS signals_kind ON signals(space, kind, window_start)",
    """CREATE TABLE IF NOT EXISTS entities (
        id TEXT PRIMARY KEY, space TEXT NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL,
        aliases TEXT NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS entities_space ON entities(space)",
    """CREATE TABLE IF NOT EXISTS mentions (
        evidence_id TEXT NOT NULL REFERENCES evidence(id), entity_id TEXT NOT NULL,
        space TEXT NOT NULL, PRIMARY KEY (evidence_id, entity_id))""",
    "CREATE INDEX IF NOT EXISTS mentions_entity ON mentions(space, entity_id)",
    # The keyword index of a turn also holds its neighbours' text (lower-weighted at query
    # time): a one-word reply is found through the question it answers, and vice versa.
    # near_* hold the turns two and three away.
    """CREATE VIRTUAL TABLE IF NOT EXISTS evidence_fts USING fts5(
        id UNINDEXED, space UNINDEXED, speaker, text, next_text, prev_text, near_next, near_prev,
        tokenize='porter unicode61')""",
)

# What a space holds, as the quotas count it: its turns, and their bytes (the stored metadata
# is the JSON text ``turn_bytes`` measures, ``evidence_row``, so SQL sums the same figure).
# Kept by triggers in the statement that inserts, deletes or rewrites a turn, so in its
# transaction, whichever path writes it (Level 0, an import, an erasure, retention, dropping
# a space): the quota check reads one row instead of counting and summing the space's turns
# in every write transaction (which grew with the space). Format 7 (``migrations``) filled
# the table for older stores; ``recount_usage`` is that full count.
_TURN_BYTES = "(length(CAST({0}.text AS BLOB)) + length(CAST({0}.metadata AS BLOB)))"
USAGE_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS space_usage (
        space TEXT PRIMARY KEY, turns INTEGER NOT NULL DEFAULT 0, bytes INTEGER NOT NULL DEFAULT 0)""",
    f"""CREATE TRIGGER IF NOT EXISTS evidence_usage_insert AFTER INSERT ON evidence
    BEGIN
        INSERT OR IGNORE INTO space_usage (space) VALUES (NEW.space);
        UPDATE space_usage SET turns = turns + 1, bytes = bytes + {_TURN_BYTES.format("NEW")}
        WHERE space = NEW.space;
    END""",
    f"""CREATE TRIGGER IF NOT EXISTS evidence_usage_delete AFTER DELETE ON evidence
    BEGIN
        UPDATE space_usage SET turns = turns - 1, bytes = bytes - {_TURN_BYTES.format("OLD")}
        WHERE space = OLD.space;
    END""",
    f"""CREATE TRIGGER IF NOT EXISTS evidence_usage_update AFTER UPDATE OF space, text, metadata ON evidence
    BEGIN
        UPDATE space_usage SET turns = turns - 1, bytes = bytes - {_TURN_BYTES.format("OLD")}
        WHERE space = OLD.space;
        INSERT OR IGNORE INTO space_usage (space) VALUES (NEW.space);
        UPDATE space_usage SET turns = turns + 1, bytes = bytes + {_TURN_BYTES.format("NEW")}
        WHERE space = NEW.space;
    END""",
)
_USAGE = "SELECT turns, bytes FROM space_usage WHERE space = ?"
# The full count the triggers keep (``recount_usage``, ``counted_usage``).
_RECOUNT = f"""SELECT space, count(*), coalesce(sum({_TURN_BYTES.format("evidence")}), 0)
FROM evidence GROUP BY space"""
_COUNTED = f"""SELECT count(*), coalesce(sum({_TURN_BYTES.format("evidence")}), 0)
FROM evidence WHERE space = ?"""


def recount_usage(conn: sqlite3.Connection) -> None:
    """Set every space's ``space_usage`` row from a full count of its turns (the format 7
    migration; the triggers keep the rows from then on)."""
    conn.execute("DELETE FROM space_usage")
    conn.execute(f"INSERT INTO space_usage (space, turns, bytes) {_RECOUNT}")  # noqa: S608 - fixed text


def _usage_of(rows: Sequence[sqlite3.Row] | Sequence[tuple[int, int]]) -> SpaceUsage:
    """The usage ``_USAGE`` read (no row: a space that never held a turn)."""
    if not rows:
        return SpaceUsage(turns=0, bytes=0)
    turns, size = rows[0][0], rows[0][1]
    return SpaceUsage(turns=int(turns), bytes=int(size))


def _check_quota(conn: sqlite3.Connection, new: Sequence[Evidence], quota: SpaceQuota) -> None:
    """``check_quota`` of each space ``new`` adds turns to, against what it holds (``_USAGE``
    through the writing connection, so no other batch can write in between).

    Raises:
        QuotaExceededError: a space would go over ``quota``.
    """
    for space in sorted({e.space for e in new}):
        added = [e for e in new if e.space == space]
        usage = _usage_of(conn.execute(_USAGE, (space,)).fetchall())
        check_quota(space, usage, len(added), sum(turn_bytes(e.text, e.metadata) for e in added), quota)


@dataclass(frozen=True)
class _Batch:
    """One ``add`` call: what ``_write_batch`` writes."""

    evidence: Sequence[Evidence]
    mentions: Sequence[tuple[str, Entity]]
    job: JobRecord | None
    quota: SpaceQuota | None
    at: datetime
    signals_version: int
    numbered: bool = False


def _write_batch(conn: sqlite3.Connection, batch: _Batch) -> list[str]:
    """Write ``batch`` in the open transaction of ``conn``; returns the ids of the new turns.
    A refusal (``ErasedError``, ``QuotaExceededError``, ``SessionBusyError``) is raised
    before its turns are written (its job is rolled back with it)."""
    evidence, job = batch.evidence, batch.job
    if job is not None:  # rolled back with the batch if a turn is refused below
        ledger_sql.add_job_in(conn, job)
    if not evidence:
        return []
    placeholders = ",".join("?" * len(evidence))
    present = {
        row[0]
        for row in conn.execute(
            f"SELECT id FROM evidence WHERE id IN ({placeholders})",  # noqa: S608 - placeholders only
            [e.id for e in evidence],
        )
    }
    new = [e for e in evidence if e.id not in present]
    if batch.numbered:
        _refuse_busy(conn, new)
    for space in sorted({e.space for e in new}):
        ledger_sql.refuse_tombstoned(conn, space, [e.id for e in new if e.space == space])
    if batch.quota is not None:
        _check_quota(conn, new, batch.quota)
    conn.executemany(
        """INSERT INTO evidence (id, space, session, seq, speaker, role, text, observed_at,
           recorded_at, content_hash, metadata, external_id, author, signals_version)
           VALUES (:id, :space, :session, :seq, :speaker, :role, :text, :observed_at,
           :recorded_at, :content_hash, :metadata, :external_id, :author, :signals_version)""",
        [evidence_row(e) | {"signals_version": batch.signals_version} for e in new],
    )
    conn.executemany(
        """INSERT INTO signals VALUES (:evidence_id, :space, :idx, :kind, :text, :start,
           :end, :normalized, :granularity, :window_start, :window_end)""",
        [row for e in new for row in signal_rows(e)],
    )
    _reindex_keyword(conn, new)
    new_ids = {e.id for e in new}
    linked = [(evidence_id, entity) for evidence_id, entity in batch.mentions if evidence_id in new_ids]
    link_mentions(conn, linked)
    add_co_mentions(conn, co_mention_weights((e.space, evidence_id, e.id) for evidence_id, e in linked))
    for space in sorted({e.space for e in new}):
        ledger_sql.mark_in(conn, space, TURN_STAGES, [e.id for e in new if e.space == space], "new", batch.at)
    return [e.id for e in new]


# Where a session continues: one past its highest seq (the top of ``evidence_session``).
_NEXT_SEQ = "SELECT COALESCE(MAX(seq) + 1, 0) FROM evidence WHERE space = ? AND session = ?"


def _refuse_busy(conn: sqlite3.Connection, new: Sequence[Evidence]) -> None:
    """Refuse ``new`` turns, numbered before the write, whose first seq in a session is not
    where the session continues (one past its highest stored seq: the top of the
    ``evidence_session`` index). The database has one writer process, whose ``Memory``
    numbers the batches of one session one after the other (``eywa.session_locks``), so this
    never fires in practice; it keeps ``EvidenceStore.add``'s contract one for both stores.

    Raises:
        SessionBusyError: another batch took the seqs (nothing of the batch is written).
    """
    first: dict[tuple[str, str], int] = {}
    for e in new:
        first[(e.space, e.session)] = min(first.get((e.space, e.session), e.seq), e.seq)
    busy = [
        (space, session)
        for (space, session), seq in sorted(first.items())
        if seq != conn.execute(_NEXT_SEQ, (space, session)).fetchone()[0]
    ]
    if busy:
        raise SessionBusyError(busy[0][0], [session for _, session in busy])


class SqliteEvidenceStore:
    """The embedded ``EvidenceStore``."""

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db
        self._speakers = SpeakerMemo()
        db.ensure_schema(SCHEMA + USAGE_SCHEMA + ENTITY_GRAPH_SCHEMA + ledger_sql.SCHEMA)
        self._writes: GroupCommit[_Batch, list[str]] = GroupCommit(
            db, _write_batch, refusals=(ErasedError, QuotaExceededError, SessionBusyError)
        )

    def add(
        self,
        evidence: Sequence[Evidence],
        mentions: Sequence[tuple[str, Entity]],
        *,
        job: JobRecord | None = None,
        quota: SpaceQuota | None = None,
        numbered: bool = False,
    ) -> list[str]:
        """Write a batch atomically with the new turns' pending marks (and ``job`` when given,
        see ``EvidenceStore.add``); existing ids are skipped. ``quota`` is checked in the
        write transaction, once the new turns are known and before any is written: the
        database has one writer, so concurrent batches are checked one after the other. It
        reads the space's ``space_usage`` row, which triggers keep (``USAGE_SCHEMA``): its
        cost does not grow with the space. ``numbered``: each session's first new seq is
        checked against where the session continues, in the same transaction (``_refuse_busy``).

        Batches of other threads waiting for the writing connection at the same time are
        committed in the same transaction (``group_commit``): this returns once the
        transaction holding this batch is committed; a refused batch leaves nothing and the
        others of its transaction are committed.

        Raises:
            ErasedError: a new turn's id is tombstoned (nothing of the batch is written).
            QuotaExceededError: the new turns would take their space over ``quota``
                (nothing of the batch is written).
            SessionBusyError: ``numbered``, and the seqs of a session were taken since the
                batch was numbered (nothing of the batch is written).
            StoreError: SQLite failed (nothing is written).
        """
        if not evidence and job is None:
            return []
        batch = _Batch(evidence, mentions, job, quota, utc_now(), current_signals_version(), numbered)
        return self._writes.write(batch)

    def signals_outdated(self, space: str, version: int, limit: int) -> list[str]:
        return rederive_sql.outdated(self._db, space, version, limit)

    def count_signals_outdated(self, space: str, version: int) -> int:
        return rederive_sql.count_outdated(self._db, space, version)

    def entities_mentioned_before(self, space: str, before: datetime) -> list[Entity]:
        return rederive_sql.entities_mentioned_before(self._db, space, before)

    def rederive(
        self, space: str, changed: Sequence[RederivedTurn], unchanged: Sequence[str], version: int, at: datetime
    ) -> list[str]:
        """See ``EvidenceStore.rederive``.

        Raises:
            StoreError: SQLite failed (nothing is written).
        """
        return rederive_sql.rederive(self._db, space, changed, unchanged, version, at)

    def existing(self, space: str, ids: Sequence[str]) -> set[str]:
        found: set[str] = set()
        for chunk in _chunks(ids):
            rows = self._db.query(
                f"SELECT id FROM evidence WHERE +space = ? AND id IN ({','.join('?' * len(chunk))})",  # noqa: S608
                [space, *chunk],
            )
            found.update(row["id"] for row in rows)
        return found

    def get(self, space: str, ids: Sequence[str]) -> list[Evidence]:
        if not ids:
            return []
        rows_by_id: dict[str, sqlite3.Row] = {}
        signals: dict[str, list[tuple[int, Signal]]] = defaultdict(list)
        for chunk in _chunks(list(dict.fromkeys(ids))):
            marks = ",".join("?" * len(chunk))
            for row in self._db.query(
                f"SELECT * FROM evidence WHERE +space = ? AND id IN ({marks})", [space, *chunk]  # noqa: S608
            ):
                rows_by_id[row["id"]] = row
            for row in self._db.query(
                f"SELECT * FROM signals WHERE +space = ? AND evidence_id IN ({marks})",  # noqa: S608
                [space, *chunk],
            ):
                signals[row["evidence_id"]].append((row["idx"], signal_from_row(row)))
        result = []
        for evidence_id in ids:
            found = rows_by_id.get(evidence_id)
            if found is not None:
                ordered = tuple(s for _, s in sorted(signals[evidence_id], key=lambda p: p[0]))
                result.append(evidence_from_row(found, ordered))
        return result

    def speakers(self, space: str, ids: Sequence[str]) -> dict[str, str | None]:
        """Read in one snapshot with the version of the turns it was at: those kept in memory
        for that version (``eywa.stores.embedded.speakers``), the others from the table."""
        wanted = list(dict.fromkeys(ids))
        with self._db.snapshot():
            version = read_version_db(self._db)
            found = self._speakers.known(version, space, wanted)
            read: dict[str, str | None] = {}
            for chunk in _chunks([i for i in wanted if i not in found]):
                rows = self._db.tuples(
                    f"SELECT id, speaker FROM evidence WHERE +space = ? AND id IN ({','.join('?' * len(chunk))})",  # noqa: S608
                    [space, *chunk],
                )
                read.update(rows)
        if read:
            self._speakers.keep(version, space, read)
            found.update(read)
        return found

    def next_seq(self, space: str, session: str) -> int:
        rows = self._db.query(
            "SELECT COALESCE(MAX(seq) + 1, 0) AS n FROM evidence WHERE space = ? AND session = ?",
            (space, session),
        )
        return int(rows[0]["n"])

    def prior(self, space: str, ids: Sequence[str], names: Sequence[str], sessions: Sequence[str]) -> PriorState:
        with self._db.snapshot():  # one committed state for the three reads, the writer not waited for
            existing = self.existing(space, ids)
            entities = self._entities_named(space, names)
            next_seqs = dict.fromkeys(sessions, 0)
            for chunk in _chunks(list(next_seqs)):
                rows = self._db.query(
                    "SELECT session, MAX(seq) + 1 AS n FROM evidence"  # noqa: S608
                    f" WHERE space = ? AND session IN ({','.join('?' * len(chunk))}) GROUP BY session",
                    [space, *chunk],
                )
                next_seqs.update((row["session"], int(row["n"])) for row in rows)
        return PriorState(existing, sorted(entities, key=lambda e: (e.name, e.id)), next_seqs)

    def _entities_named(self, space: str, names: Sequence[str]) -> list[Entity]:
        """The entities of ``space`` whose ``entity_key`` is among ``names`` (for ``prior``).

        A space with no more entities than ``names`` is read whole and filtered here: a
        batch of long turns has hundreds of candidate spans (``eywa.batches.name_candidates``),
        and hashing each into an id cost more than reading a small space's entities (the
        LoCoMo file's spaces hold under 200; its Level 0 ran at half the rate); only the rows
        named are made entities (making every row one, then filtering, took 168 us of a
        service bench batch in a 27-entity space, 82 us this way: session 41). A larger space
        is looked up by the spans' ids, so the cost stays that of the batch."""
        (count,) = self._db.query("SELECT COUNT(*) AS n FROM entities WHERE space = ?", (space,))
        if count["n"] <= len(names):
            wanted = {entity_key(name) for name in names}
            rows = self._db.query("SELECT * FROM entities WHERE space = ?", (space,))
            return [entity_from_row(row) for row in rows if entity_key(row["name"]) in wanted]
        entities: list[Entity] = []
        for chunk in _chunks(sorted({entity_id(space, name) for name in names})):
            rows = self._db.query(
                f"SELECT * FROM entities WHERE space = ? AND id IN ({','.join('?' * len(chunk))})",  # noqa: S608
                [space, *chunk],
            )
            entities.extend(entity_from_row(row) for row in rows)
        return entities

    def neighbours(self, space: str, evidence_id: str, before: int, after: int) -> list[Evidence]:
        anchor = self._db.query(
            "SELECT session, seq FROM evidence WHERE +space = ? AND id = ?", (space, evidence_id)
        )
        if not anchor:
            return []
        session, seq = anchor[0]["session"], anchor[0]["seq"]
        rows = self._db.query(
            """SELECT id FROM evidence WHERE space = ? AND session = ? AND seq BETWEEN ? AND ?
               AND id != ? ORDER BY seq""",
            (space, session, seq - before, seq + after, evidence_id),
        )
        return self.get(space, [row["id"] for row in rows])

    def ids(self, space: str | None = None) -> list[str]:
        if space is None:
            return [row["id"] for row in self._db.query("SELECT id FROM evidence ORDER BY rowid")]
        return [
            row["id"]
            for row in self._db.query("SELECT id FROM evidence WHERE space = ? ORDER BY rowid", (space,))
        ]

    def spaces(self) -> list[str]:
        return [row["space"] for row in self._db.query("SELECT DISTINCT space FROM evidence ORDER BY space")]

    def usage(self, space: str) -> SpaceUsage:
        """Turns of ``space`` and their bytes, from its ``space_usage`` row (``USAGE_SCHEMA``)."""
        return _usage_of(self._db.query(_USAGE, (space,)))

    def counted_usage(self, space: str) -> SpaceUsage:
        """``usage`` from a full count and sum of the space's rows (what the triggers keep)."""
        return _usage_of(self._db.query(_COUNTED, (space,)))

    def count(self, space: str) -> int:
        rows = self._db.query("SELECT COUNT(*) AS n FROM evidence WHERE space = ?", (space,))
        return int(rows[0]["n"])

    def count_signals(self, space: str) -> dict[str, int]:
        """Signals of ``space`` by kind (for ``eywa stats``)."""
        rows = self._db.query(
            "SELECT kind, COUNT(*) AS n FROM signals WHERE space = ? GROUP BY kind ORDER BY kind",
            (space,),
        )
        return {row["kind"]: int(row["n"]) for row in rows}

    def entities(self, space: str) -> list[Entity]:
        rows = self._db.query("SELECT * FROM entities WHERE space = ? ORDER BY name", (space,))
        return [entity_from_row(row) for row in rows]

    def entities_named(self, space: str, names: Sequence[str]) -> list[Entity]:
        keys = {entity_key(name) for name in names}
        found: dict[str, Entity] = {}
        for chunk in _chunks(sorted({_named_id(space, key) for key in keys})):
            rows = self._db.query(
                f"SELECT * FROM entities WHERE space = ? AND id IN ({','.join('?' * len(chunk))})",  # noqa: S608
                [space, *chunk],
            )
            found.update((row["id"], entity_from_row(row)) for row in rows)
        # Aliases are rare (Level 0 writes none): only entities that have some are read.
        for row in self._db.query("SELECT * FROM entities WHERE space = ? AND aliases != '[]'", (space,)):
            entity = entity_from_row(row)
            if any(entity_key(alias) in keys for alias in entity.aliases):
                found[entity.id] = entity
        return sorted(found.values(), key=lambda e: (e.name, e.id))

    def mentions(self, space: str, evidence_ids: Sequence[str]) -> dict[str, list[str]]:
        result: dict[str, list[str]] = defaultdict(list)
        for chunk in _chunks(evidence_ids):
            rows = self._db.query(
                f"SELECT evidence_id, entity_id FROM mentions WHERE +space = ? AND evidence_id IN ({','.join('?' * len(chunk))})",  # noqa: S608,E501
                [space, *chunk],
            )
            for row in rows:
                result[row["evidence_id"]].append(row["entity_id"])
        return dict(result)

    def recall_turns(self, space: str, ids: Sequence[str]) -> list[RecallTurn]:
        """The read path's view of turns (no signals), with their mentions."""
        return recall_turns(self._db, space, ids)

    def recall_neighbours(
        self, space: str, ids: Sequence[str], before: int, after: int
    ) -> dict[str, list[RecallTurn]]:
        """The turns around each of ``ids`` in its session, by seq: one outer join finds them
        all (on the session index), a stored anchor without neighbours with none, and
        ``recall_turns`` loads them. (A second statement used to list the stored anchors:
        ~8 us more per recall at 10k.)"""
        around: dict[str, list[str]] = {}
        for chunk in _chunks(list(dict.fromkeys(ids))):
            rows = self._db.tuples(
                f"""SELECT a.id AS anchor, e.id AS id FROM evidence a
                    LEFT JOIN evidence e ON e.space = a.space AND e.session = a.session
                      AND e.seq BETWEEN a.seq - ? AND a.seq + ? AND e.id != a.id
                    WHERE +a.space = ? AND a.id IN ({','.join('?' * len(chunk))})
                    ORDER BY a.id, e.seq""",  # noqa: S608
                [before, after, space, *chunk],
            )
            for anchor, turn in rows:
                found = around.setdefault(anchor, [])
                if turn is not None:  # the anchor alone in its session's window
                    found.append(turn)
        turns = {t.id: t for t in self.recall_turns(space, [i for found in around.values() for i in found])}
        return {anchor: [turns[i] for i in found if i in turns] for anchor, found in around.items()}

    def evidence_mentioning(self, space: str, entity_ids: Sequence[str], limit: int) -> list[str]:
        if not entity_ids:
            return []
        rows = self._db.query(
            f"""SELECT DISTINCT m.evidence_id AS id, e.observed_at FROM mentions m
                JOIN evidence e ON e.id = m.evidence_id
                WHERE m.space = ? AND m.entity_id IN ({','.join('?' * len(entity_ids))})
                ORDER BY e.observed_at DESC LIMIT ?""",  # noqa: S608
            [space, *entity_ids, limit],
        )
        return [row["id"] for row in rows]

    def with_dates_between(self, space: str, start: datetime, end: datetime, limit: int) -> list[str]:
        lo, hi = to_epoch(start), to_epoch(end)
        rows = self._db.query(
            """SELECT id FROM (
                 SELECT evidence_id AS id, window_start AS t FROM signals
                 WHERE space = ? AND kind IN ('date', 'time') AND window_start < ? AND window_end > ?
                 UNION
                 SELECT id, observed_at AS t FROM evidence
                 WHERE space = ? AND observed_at >= ? AND observed_at < ?)
               GROUP BY id ORDER BY MIN(t) LIMIT ?""",
            (space, hi, lo, space, lo, hi, limit),
        )
        return [row["id"] for row in rows]

    def with_date_signals(self, space: str, limit: int) -> list[str]:
        rows = self._db.query(
            """SELECT s.evidence_id AS id FROM signals s JOIN evidence e ON e.id = s.evidence_id
               WHERE s.space = ? AND s.kind = ? AND s.window_start IS NOT NULL
               GROUP BY s.evidence_id ORDER BY MAX(e.observed_at) DESC LIMIT ?""",
            (space, SignalKind.DATE.value, limit),
        )
        return [row["id"] for row in rows]

    def dated(self, space: str, ids: Sequence[str]) -> set[str]:
        """A turn's signals are its own rows (primary key: turn id, index), so the candidates'
        date signals are read on that key: 50 candidates 0.07 against 0.95 ms of CPU for
        loading the turns with every signal (``get``), on the 10k bench store."""
        found: set[str] = set()
        for chunk in _chunks(list(dict.fromkeys(ids))):
            rows = self._db.query(
                f"SELECT DISTINCT evidence_id FROM signals WHERE evidence_id IN ({','.join('?' * len(chunk))})"  # noqa: S608
                " AND kind = ? AND +space = ?",
                [*chunk, SignalKind.DATE.value, space],
            )
            found.update(row[0] for row in rows)
        return found


def _reindex_keyword(conn: sqlite3.Connection, new: Sequence[Evidence]) -> None:
    """(Re)write the FTS rows of the new turns and of their session neighbours.

    Evidence is immutable; the index is derived from it (``eywa.stores.context``), so when
    a turn arrives its neighbours' rows gain its words in the same transaction.
    """
    changed: dict[tuple[str, str], list[int]] = defaultdict(list)
    for e in new:
        changed[(e.space, e.session)].append(e.seq)
    for (space, session), seqs in sorted(changed.items()):
        reindex_session(conn, space, session, seqs)


def reindex_session(conn: sqlite3.Connection, space: str, session: str, changed: Sequence[int]) -> None:
    """Rewrite the FTS rows of the turns of one session within reach of the ``changed`` seqs.

    ``changed`` are seqs of turns just written or just erased; erasure calls this after
    deleting, so the remaining neighbours lose the erased words.
    """
    if not changed:
        return
    lo, hi = read_range(changed)
    stored = conn.execute(
        """SELECT rowid, id, seq, speaker, text FROM evidence
           WHERE space = ? AND session = ? AND seq BETWEEN ? AND ?""",
        (space, session, lo, hi),
    ).fetchall()
    turns = {row["seq"]: SessionTurn(row["id"], row["seq"], row["speaker"], row["text"]) for row in stored}
    rowids = {row["id"]: row["rowid"] for row in stored}
    contexts = contexts_around(turns, changed)
    # The FTS row shares the evidence row's rowid, so it is found without a scan.
    note_written(conn, [rowids[i] for i in contexts])  # the in-memory index follows after commit
    conn.executemany("DELETE FROM evidence_fts WHERE rowid = ?", [(rowids[i],) for i in contexts])
    conn.executemany(
        """INSERT INTO evidence_fts
             (rowid, id, space, speaker, text, next_text, prev_text, near_next, near_prev)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        [
            (rowids[turn.id], turn.id, space, turn.speaker or "", turn.text,
             context.next_text, context.prev_text, context.near_next, context.near_prev)
            for turn in turns.values() if (context := contexts.get(turn.id)) is not None
        ],  # fmt: skip
    )


def recall_turns(db: SqliteDatabase, space: str, ids: Sequence[str]) -> list[RecallTurn]:
    """``EvidenceStore.recall_turns`` on ``db`` (the belief store reads its cited turns
    with it too)."""
    found: dict[str, RecallTurn] = {}
    for chunk in _chunks(list(dict.fromkeys(ids))):
        marks = ",".join("?" * len(chunk))
        mentions: dict[str, list[str]] = defaultdict(list)
        for evidence_id, entity in db.tuples(
            f"SELECT evidence_id, entity_id FROM mentions WHERE +space = ? AND evidence_id IN ({marks})"  # noqa: S608
            " ORDER BY evidence_id, entity_id",
            [space, *chunk],
        ):
            mentions[evidence_id].append(entity)
        for row in db.tuples(
            f"SELECT {RECALL_TURN_COLUMNS} FROM evidence WHERE +space = ? AND id IN ({marks})",  # noqa: S608
            [space, *chunk],
        ):
            found[row[0]] = recall_turn_from_tuple(row, mentions.get(row[0], ()))
    return [found[i] for i in ids if i in found]


@functools.lru_cache(maxsize=4096)
def _named_id(space: str, key: str) -> str:
    """``entity_id`` of a name's key, kept: a recall looks up every name span of its question
    (~28 at the 10k bench, each a SHA-256, ~1.7 us), and the names asked about recur."""
    return entity_id(space, key)


def _chunks(items: Sequence[str], size: int = 500) -> list[list[str]]:
    values = list(items)
    return [values[i : i + size] for i in range(0, len(values), size)]

