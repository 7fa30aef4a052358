"""SQLite implementation of ``DimensionStore`` on the shared embedded database.

Times are stored as ISO-8601 UTC strings with microseconds: they round-trip exactly (event
times order deltas, so a float epoch's rounding could reorder two close observations) and
sort lexicographically in chronological order.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Final, Literal

from eywa.errors import StoreError
from eywa.models import Delta, as_utc
from eywa.stores.dimensions import (
    UNCHECKED,
    DeltaSelection,
    DimensionMoved,
    DimensionRecord,
    DimensionView,
    ReadState,
    SameAsEdge,
    same_version,
)
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.ledger import TOMBSTONES_TABLE, tombstoned_in

SCHEMA: tuple[str, ...] = (
    """CREATE TABLE IF NOT EXISTS nous_deltas (
        space TEXT NOT NULL, id TEXT NOT NULL, entity_key TEXT NOT NULL, entity TEXT NOT NULL,
        attribute TEXT NOT NULL, observed TEXT NOT NULL, polarity TEXT NOT NULL,
        modality TEXT NOT NULL, change_signal INTEGER NOT NULL, reliability REAL NOT NULL,
        prior TEXT NOT NULL, posterior TEXT NOT NULL, surprise_bits REAL NOT NULL,
        hazard REAL NOT NULL, at TEXT NOT NULL, recorded_at TEXT NOT NULL,
        belief_id TEXT NOT NULL, evidence_ids TEXT NOT NULL, valid_from TEXT, said_at TEXT,
        PRIMARY KEY (space, id))""",
    "CREATE INDEX IF NOT EXISTS nous_deltas_dim "
    "ON nous_deltas(space, entity_key, attribute, at, id)",
    "CREATE INDEX IF NOT EXISTS nous_deltas_belief ON nous_deltas(space, belief_id)",
    """CREATE TABLE IF NOT EXISTS nous_dimensions (
        space TEXT NOT NULL, entity_key TEXT NOT NULL, attribute TEXT NOT NULL,
        entity TEXT NOT NULL, cardinality TEXT NOT NULL, state TEXT NOT NULL,
        distribution TEXT NOT NULL, mode TEXT, entropy_bits REAL NOT NULL, updated_at TEXT,
        recorded_at TEXT NOT NULL, delta_count INTEGER NOT NULL,
        PRIMARY KEY (space, entity_key, attribute))""",
    """CREATE TABLE IF NOT EXISTS nous_same_as (
        space TEXT NOT NULL, source TEXT NOT NULL, target TEXT NOT NULL, score REAL NOT NULL,
        at TEXT NOT NULL, removed_at TEXT, author TEXT, removed_by TEXT,
        PRIMARY KEY (space, source, target))""",
)

_DELTA_COLUMNS = (
    "space, id, entity_key, entity, attribute, observed, polarity, modality, change_signal, "
    "reliability, prior, posterior, surprise_bits, hazard, at, recorded_at, belief_id, evidence_ids, valid_from, said_at"
)


def _time(value: datetime) -> str:
    return as_utc(value).isoformat(timespec="microseconds")


def _parse(value: str | None) -> datetime | None:
    return None if value is None else as_utc(datetime.fromisoformat(value))


def _required(value: str) -> datetime:
    return as_utc(datetime.fromisoformat(value))


def _delta_params(delta: Delta, entity_key: str) -> tuple[Any, ...]:
    return (
        delta.space, delta.id, entity_key, delta.entity, delta.attribute, delta.observed,
        delta.polarity, delta.modality, int(delta.change_signal), delta.reliability,
        json.dumps(delta.prior), json.dumps(delta.posterior), delta.surprise_bits, delta.hazard,
        _time(delta.at), _time(delta.recorded_at), delta.belief_id,
        json.dumps(list(delta.evidence_ids)), None if delta.valid_from is None else _time(delta.valid_from),
        None if delta.said_at is None else _time(delta.said_at),
    )  # fmt: skip


def _delta(row: sqlite3.Row) -> Delta:
    return Delta(
        id=row["id"], space=row["space"], entity=row["entity"], attribute=row["attribute"],
        observed=row["observed"], polarity=row["polarity"], modality=row["modality"],
        change_signal=bool(row["change_signal"]), prior=json.loads(row["prior"]),
        posterior=json.loads(row["posterior"]), surprise_bits=row["surprise_bits"],
        hazard=row["hazard"], reliability=row["reliability"], at=_required(row["at"]),
        recorded_at=_required(row["recorded_at"]), belief_id=row["belief_id"],
        evidence_ids=tuple(json.loads(row["evidence_ids"])), valid_from=_parse(row["valid_from"]),
        said_at=_parse(row["said_at"]),
    )  # fmt: skip


# A dimension record's columns in the order ``_record_of`` reads them (the read path's tuples).
_RECORD_COLUMNS = (
    "space, entity_key, attribute, entity, cardinality, state, distribution, mode, entropy_bits, updated_at, "
    "recorded_at, delta_count"
)
_RECORD_NAMES: Final = tuple(name.strip() for name in _RECORD_COLUMNS.split(","))


def _record(row: sqlite3.Row) -> DimensionRecord:
    """``_record_of`` of a row read by column name."""
    return _record_of(tuple(row[name] for name in _RECORD_NAMES))


def _record_of(values: tuple[Any, ...]) -> DimensionRecord:
    """The record of a row of ``_RECORD_COLUMNS`` (a plain tuple, as the read path reads it)."""
    space, key, attribute, entity, cardinality, state, distribution, mode, entropy, updated, recorded, count = values
    return DimensionRecord(
        space=space, entity_key=key, entity=entity, attribute=attribute, cardinality=cardinality,
        state=json.loads(state), distribution=json.loads(distribution), mode=mode, entropy_bits=entropy,
        updated_at=_parse(updated), recorded_at=_required(recorded), delta_count=count,
    )  # fmt: skip


class ParsedStates:
    """The read path's dimension records, kept parsed while their rows stay the same.

    Why: a recall lists every state of each entity it names, and each state's JSON (7.6 KB
    on average at 10k synthetic turns, up to 28 KB) was parsed anew (~0.2 ms of the asking
    thread a recall). Exact, not approximate: a record is kept with the row it was made of,
    and given again only for a row read now that is equal to it in every column (the
    state's text compared whole), so any write of the row, by this process or another, is
    seen at the next read; nothing needs emptying. The records are shared between recalls:
    they are frozen, and the read path only reads their dicts. At most ``MAX_KEPT`` are
    kept, the oldest dropped first. A state this process writes or deletes (Nous, an
    erasure's replay) is dropped at once (``forget``), so an erased value's parse is not kept
    in memory after its row changed; one another process changed goes at its next read."""

    MAX_KEPT: Final = 512

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: dict[tuple[str, str, str], tuple[tuple[Any, ...], DimensionRecord]] = {}

    def __contains__(self, key: object) -> bool:
        """Whether a record of (space, entity key, attribute) ``key`` is kept."""
        with self._lock:
            return key in self._kept

    def forget(self, space: str, entity_key: str, attribute: str) -> None:
        """Drop the record kept of that state (written or deleted)."""
        with self._lock:
            self._kept.pop((space, entity_key, attribute), None)

    def record(self, values: tuple[Any, ...]) -> DimensionRecord:
        """The record of a row of ``_RECORD_COLUMNS``: the one kept for an equal row, else made."""
        key = (values[0], values[1], values[2])
        with self._lock:
            kept = self._kept.get(key)
        if kept is not None and kept[0] == values:
            return kept[1]
        made = _record_of(values)
        with self._lock:
            self._kept.pop(key, None)
            if len(self._kept) >= self.MAX_KEPT:
                del self._kept[next(iter(self._kept))]
            self._kept[key] = (values, made)
        return made


def _edge(row: sqlite3.Row) -> SameAsEdge:
    return SameAsEdge(
        space=row["space"], source=row["source"], target=row["target"], score=row["score"],
        at=_required(row["at"]), removed_at=_parse(row["removed_at"]), author=row["author"],
        removed_by=row["removed_by"],
    )  # fmt: skip


class SqliteDimensionStore:
    """``DimensionStore`` on the embedded SQLite database (tables ``nous_*``)."""

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db
        self._parsed = ParsedStates()
        db.ensure_schema((*SCHEMA, TOMBSTONES_TABLE))  # ``save(unless_erased=True)`` reads it

    def save(
        self,
        record: DimensionRecord,
        deltas: Sequence[Delta],
        *,
        unless_erased: bool = False,
        read: ReadState = UNCHECKED,
    ) -> set[str]:
        """Upsert the state and the deltas atomically; existing deltas keep ``recorded_at``
        (with ``unless_erased``, nothing when a delta cites an erased turn: its ids returned).

        Raises:
            StoreError: SQLite refused the write.
        """
        try:
            with self._db.transaction() as conn:
                if read != UNCHECKED:
                    rows = conn.execute(
                        "SELECT * FROM nous_dimensions WHERE space = ? AND entity_key = ? AND attribute = ?",
                        (record.space, record.entity_key, record.attribute),
                    ).fetchall()
                    if not same_version(_record(rows[0]) if rows else None, read):
                        raise DimensionMoved(record.attribute)
                if unless_erased and (erased := cited_erased(conn, record.space, deltas)):
                    return erased
                conn.executemany(
                    f"INSERT INTO nous_deltas ({_DELTA_COLUMNS}) VALUES "
                    f"({', '.join('?' * 20)}) ON CONFLICT (space, id) DO UPDATE SET "
                    "observed = excluded.observed, prior = excluded.prior, "
                    "posterior = excluded.posterior, surprise_bits = excluded.surprise_bits, "
                    "hazard = excluded.hazard, reliability = excluded.reliability, "
                    "valid_from = excluded.valid_from, said_at = excluded.said_at",
                    [_delta_params(d, record.entity_key) for d in deltas],
                )
                conn.execute(
                    "INSERT OR REPLACE INTO nous_dimensions (space, entity_key, attribute, "
                    "entity, cardinality, state, distribution, mode, entropy_bits, updated_at, "
                    "recorded_at, delta_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        record.space, record.entity_key, record.attribute, record.entity,
                        record.cardinality, json.dumps(record.state),
                        json.dumps(record.distribution), record.mode, record.entropy_bits,
                        None if record.updated_at is None else _time(record.updated_at),
                        _time(record.recorded_at), record.delta_count,
                    ),  # fmt: skip
                )
        except sqlite3.Error as exc:
            raise StoreError("sqlite", "save dimension", str(exc)) from exc
        finally:
            self._parsed.forget(record.space, record.entity_key, record.attribute)
        return set()

    def existing_deltas(self, space: str, ids: Sequence[str]) -> set[str]:
        """The subset of ``ids`` already stored in ``space``."""
        found: set[str] = set()
        unique = list(dict.fromkeys(ids))
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            rows = self._db.query(
                "SELECT id FROM nous_deltas WHERE space = ? AND id IN "
                f"({', '.join('?' * len(chunk))})",
                [space, *chunk],
            )
            found.update(row["id"] for row in rows)
        return found

    def deltas(self, space: str, entity_key: str, attribute: str) -> list[Delta]:
        """Deltas of one dimension in event-time order (ties by id)."""
        rows = self._db.query(
            f"SELECT {_DELTA_COLUMNS} FROM nous_deltas WHERE space = ? AND entity_key = ? "
            "AND attribute = ? ORDER BY at, id",
            (space, entity_key, attribute),
        )
        return [_delta(row) for row in rows]

    def deltas_of_beliefs(self, space: str, belief_ids: Sequence[str]) -> list[Delta]:
        """Deltas that came from the given beliefs, in event-time order."""
        return self._deltas_where(space, "belief_id", belief_ids)

    def remove_deltas(self, space: str, ids: Sequence[str]) -> int:
        """Delete deltas; returns how many existed.

        Raises:
            StoreError: SQLite refused the write.
        """
        try:
            with self._db.transaction() as conn:
                return sum(
                    conn.execute(
                        "DELETE FROM nous_deltas WHERE space = ? AND id = ?", (space, delta_id)
                    ).rowcount
                    for delta_id in dict.fromkeys(ids)
                )
        except sqlite3.Error as exc:
            raise StoreError("sqlite", "remove deltas", str(exc)) from exc

    def delete_dimension(self, space: str, entity_key: str, attribute: str, *, read: ReadState = UNCHECKED) -> None:
        """Remove a materialised state (unless ``read`` is unchecked, only if it is still
        ``read``: checked in the delete's transaction).

        Raises:
            DimensionMoved: the stored state is not ``read``.
            StoreError: SQLite refused the write.
        """
        try:
            with self._db.transaction() as conn:
                if read != UNCHECKED:
                    rows = conn.execute(
                        "SELECT * FROM nous_dimensions WHERE space = ? AND entity_key = ? AND attribute = ?",
                        (space, entity_key, attribute),
                    ).fetchall()
                    if not same_version(_record(rows[0]) if rows else None, read):
                        raise DimensionMoved(attribute)
                conn.execute(
                    "DELETE FROM nous_dimensions "
                    "WHERE space = ? AND entity_key = ? AND attribute = ?",
                    (space, entity_key, attribute),
                )
        except sqlite3.Error as exc:
            raise StoreError("sqlite", "delete dimension", str(exc)) from exc
        finally:
            self._parsed.forget(space, entity_key, attribute)

    def get(self, space: str, entity_key: str, attribute: str) -> DimensionRecord | None:
        """The materialised state, or None."""
        rows = self._db.query(
            "SELECT * FROM nous_dimensions WHERE space = ? AND entity_key = ? AND attribute = ?",
            (space, entity_key, attribute),
        )
        return _record(rows[0]) if rows else None

    def dimensions(self, space: str, entity_key: str | None = None) -> list[DimensionRecord]:
        """States of a space or of one entity, by entity then attribute."""
        if entity_key is None:
            rows = self._db.query(
                "SELECT * FROM nous_dimensions WHERE space = ? ORDER BY entity_key, attribute",
                (space,),
            )
        else:
            rows = self._db.query(
                "SELECT * FROM nous_dimensions WHERE space = ? AND entity_key = ? "
                "ORDER BY attribute",
                (space, entity_key),
            )
        return [_record(row) for row in rows]

    def add_same_as(self, edge: SameAsEdge) -> None:
        """Record or re-activate the edge source→target.

        Raises:
            StoreError: SQLite refused the write.
        """
        try:
            with self._db.transaction() as conn:
                conn.execute(
                    "INSERT INTO nous_same_as (space, source, target, score, at, removed_at, author, removed_by) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (space, source, target) DO UPDATE SET "
                    "score = excluded.score, at = excluded.at, removed_at = excluded.removed_at, "
                    "author = excluded.author, removed_by = excluded.removed_by",
                    (
                        edge.space, edge.source, edge.target, edge.score, _time(edge.at),
                        None if edge.removed_at is None else _time(edge.removed_at), edge.author, edge.removed_by,
                    ),  # fmt: skip
                )
        except sqlite3.Error as exc:
            raise StoreError("sqlite", "add same_as", str(exc)) from exc

    def remove_same_as(self, space: str, source: str, target: str, at: datetime, by: str | None = None) -> bool:
        """Deactivate the edge in either direction, ``by`` recorded as ``removed_by``.

        Raises:
            StoreError: SQLite refused the write.
        """
        try:
            with self._db.transaction() as conn:
                cursor = conn.execute(
                    "UPDATE nous_same_as SET removed_at = ?, removed_by = ? WHERE space = ? AND removed_at IS NULL "
                    "AND ((source = ? AND target = ?) OR (source = ? AND target = ?))",
                    (_time(at), by, space, source, target, target, source),
                )
                return cursor.rowcount > 0
        except sqlite3.Error as exc:
            raise StoreError("sqlite", "remove same_as", str(exc)) from exc

    def delete_same_as(self, space: str, keys: Sequence[str]) -> int:
        """Delete the edges (active or undone) with an end in ``keys``.

        Raises:
            StoreError: SQLite refused the write.
        """
        if not keys:
            return 0
        marks = ", ".join("?" * len(keys))
        try:
            with self._db.transaction() as conn:
                cursor = conn.execute(
                    f"DELETE FROM nous_same_as WHERE space = ? AND (source IN ({marks}) OR target IN ({marks}))",  # noqa: S608
                    (space, *keys, *keys),
                )
                return cursor.rowcount
        except sqlite3.Error as exc:
            raise StoreError("sqlite", "delete same_as", str(exc)) from exc

    def recall_dimensions(
        self,
        space: str,
        entity_keys: Sequence[str],
        pairs: Sequence[tuple[str, str]],
        deltas: DeltaSelection = "all",
    ) -> DimensionView:
        """The recall's dimension reads at once, in one snapshot (SQLite has no round trip
        to save: the single reads, one after another); with ``deltas="cited"``, a pair whose
        state lists its cited deltas reads those by id. The states are listed first, and a
        pair of a listed entity takes its state from them (read and parsed once, not once
        more for its cited deltas); they are kept parsed between recalls while their rows
        stay the same (``ParsedStates``)."""
        found: dict[tuple[str, str], list[Delta]] = {}
        cited: set[tuple[str, str]] = set()
        with self._db.snapshot():
            listed = {key: self._listed(space, key) for key in dict.fromkeys(entity_keys)}
            for pair in dict.fromkeys(pairs):
                record = self._state(space, pair, listed) if deltas == "cited" else None
                ids = None if record is None else record.cited
                if ids is None:
                    found[pair] = self.deltas(space, *pair)
                else:
                    found[pair] = self._deltas_by_id(space, ids)
                    cited.add(pair)
            same_as = self.same_as(space)
        return DimensionView(same_as=same_as, dimensions=listed, deltas=found, cited=frozenset(cited))

    def _listed(self, space: str, entity_key: str) -> list[DimensionRecord]:
        """``dimensions(space, entity_key)`` for the read path (``ParsedStates``)."""
        rows = self._db.tuples(
            f"SELECT {_RECORD_COLUMNS} FROM nous_dimensions WHERE space = ? AND entity_key = ? ORDER BY attribute",  # noqa: S608
            (space, entity_key),
        )
        return [self._parsed.record(row) for row in rows]

    def _state(
        self, space: str, pair: tuple[str, str], listed: dict[str, list[DimensionRecord]]
    ) -> DimensionRecord | None:
        """The state of (entity key, attribute) ``pair``: among its entity's ``listed`` ones,
        else read alone (``ParsedStates``)."""
        key, attribute = pair
        if key in listed:
            return next((r for r in listed[key] if r.attribute == attribute), None)
        return self._read_state(space, key, attribute)

    def _read_state(self, space: str, entity_key: str, attribute: str) -> DimensionRecord | None:
        """``get`` for the read path (``ParsedStates``)."""
        rows = self._db.tuples(
            f"SELECT {_RECORD_COLUMNS} FROM nous_dimensions WHERE space = ? AND entity_key = ? AND attribute = ?",  # noqa: S608
            (space, entity_key, attribute),
        )
        return self._parsed.record(rows[0]) if rows else None

    def _deltas_by_id(self, space: str, ids: Sequence[str]) -> list[Delta]:
        """The deltas of ``space`` among ``ids``, in event-time order (ties by id)."""
        return self._deltas_where(space, "id", ids)

    def _deltas_where(self, space: str, column: Literal["id", "belief_id"], values: Sequence[str]) -> list[Delta]:
        """The deltas of ``space`` whose ``column`` is among ``values``, in event-time order
        (ties by id); read in chunks of 500 values, under SQLite's bound on parameters."""
        unique = list(dict.fromkeys(values))
        found: list[Delta] = []
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            rows = self._db.query(
                f"SELECT {_DELTA_COLUMNS} FROM nous_deltas WHERE space = ? AND {column} IN "
                f"({', '.join('?' * len(chunk))})",
                [space, *chunk],
            )
            found.extend(_delta(row) for row in rows)
        return sorted(found, key=lambda d: (d.at, d.id))

    def same_as(self, space: str, include_removed: bool = False) -> list[SameAsEdge]:
        """Merge edges of a space, oldest first."""
        condition = "" if include_removed else " AND removed_at IS NULL"
        rows = self._db.query(
            f"SELECT * FROM nous_same_as WHERE space = ?{condition} ORDER BY at, source, target",
            (space,),
        )
        return [_edge(row) for row in rows]

    def same_as_edge(self, space: str, source: str, target: str) -> SameAsEdge | None:
        """The merge edge ``source``→``target`` (active or undone), by its primary key."""
        rows = self._db.query(
            "SELECT * FROM nous_same_as WHERE space = ? AND source = ? AND target = ?", (space, source, target)
        )
        return _edge(rows[0]) if rows else None


def cited_erased(conn: sqlite3.Connection, space: str, deltas: Sequence[Delta]) -> set[str]:
    """The tombstoned turns among those ``deltas`` cite, read in the caller's transaction."""
    return tombstoned_in(conn, space, sorted({i for d in deltas for i in d.evidence_ids}))
