"""The co-mention graph as an SQLite adjacency table (the embedded ``EntityGraph``).

``entity_edges(space, a, b, weight)`` holds one row per pair of co-mentioned entities
(``a < b``), written by ``SqliteEvidenceStore.add`` in the Level 0 transaction through
:func:`add_co_mentions`. A walk reads the edges of one frontier per hop and keeps, in Python
(``_heaviest``), each entity's ``limit`` heaviest edges. With a stop rule
(``Unsettled``) the candidates' mentions and subjects are read a prefix at a time, as many as
the rule asks for: the walk is done once, and each read is one more statement.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from eywa.models import Entity
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.entity_graph import MAX_HOPS, EdgeKey, Reach, Unsettled, co_mention_weights, reach_from

__all__ = ["SCHEMA", "SqliteEntityGraph", "add_co_mentions", "backfill_co_mentions", "link_mentions", "take_back_co_mentions"]

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS entity_edges (
        space TEXT NOT NULL, a TEXT NOT NULL, b TEXT NOT NULL, weight INTEGER NOT NULL,
        PRIMARY KEY (space, a, b)) WITHOUT ROWID""",
    "CREATE INDEX IF NOT EXISTS entity_edges_b ON entity_edges(space, b)",
)

_ADD = """INSERT INTO entity_edges (space, a, b, weight) VALUES (?, ?, ?, ?)
          ON CONFLICT (space, a, b) DO UPDATE SET weight = weight + excluded.weight"""
# Both directions of the frontier's edges; each node's ``limit`` heaviest are kept in Python
# (``_heaviest``). An SQL window (ROW_NUMBER over each node's edges) kept the same ones at
# about twice the CPU: two temporary B-trees per hop, ~6 µs per edge read.
_EXPAND = """
SELECT a AS node, b AS other, weight FROM entity_edges WHERE space = ? AND a IN ({marks})
UNION ALL
SELECT b AS node, a AS other, weight FROM entity_edges WHERE space = ? AND b IN ({marks})
"""
_BACKFILL = """
INSERT INTO entity_edges (space, a, b, weight)
SELECT x.space, x.entity_id, y.entity_id, COUNT(*) FROM mentions x
JOIN mentions y ON y.evidence_id = x.evidence_id AND y.space = x.space AND y.entity_id > x.entity_id
GROUP BY x.space, x.entity_id, y.entity_id
"""
_CHUNK = 400


def add_co_mentions(conn: sqlite3.Connection, weights: Mapping[EdgeKey, int]) -> None:
    """Add a batch's co-mention increments (``co_mention_weights``) inside its transaction."""
    conn.executemany(_ADD, [(space, a, b, w) for (space, a, b), w in weights.items()])


def take_back_co_mentions(conn: sqlite3.Connection, space: str, links: Iterable[tuple[str, str, str]]) -> None:
    """Take back, inside the caller's transaction, the co-mention weights that the mentions
    ``links`` ((space, evidence id, entity id), removed from ``space``'s turns: an erasure, a
    re-derivation) added; an edge left at no weight is deleted."""
    conn.executemany(
        "UPDATE entity_edges SET weight = weight - ? WHERE space = ? AND a = ? AND b = ?",
        [(w, sp, a, b) for (sp, a, b), w in co_mention_weights(links).items()],
    )
    conn.execute("DELETE FROM entity_edges WHERE space = ? AND weight <= 0", (space,))


def backfill_co_mentions(conn: sqlite3.Connection) -> None:
    """Rebuild every edge from the stored mentions (the format migration that adds edges)."""
    conn.execute("DELETE FROM entity_edges")
    conn.execute(_BACKFILL)


class SqliteEntityGraph:
    """The embedded ``EntityGraph`` over ``entity_edges``, ``mentions`` and ``beliefs``."""

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db
        db.ensure_schema(SCHEMA)

    def neighbours(
        self,
        space: str,
        entity_ids: Sequence[str],
        hops: int,
        limit: int,
        evidence_ids: Sequence[str] = (),
        belief_ids: Sequence[str] = (),
        until: Unsettled | None = None,
    ) -> Reach:
        """See ``EntityGraph.neighbours``.

        Raises:
            ClosedError: the database was closed.
            StoreError: SQLite failed.
        """
        distances = {e: 0 for e in entity_ids}
        frontier = sorted(distances)
        for hop in range(1, min(hops, MAX_HOPS) + 1):
            if not frontier or limit <= 0:
                break
            reached = sorted({other for other in self._expand(space, frontier, limit) if other not in distances})
            distances.update((e, hop) for e in reached)
            frontier = reached
        if until is None:
            return reach_from(
                space, distances, self._mentions(space, evidence_ids), self._active_subjects(space, belief_ids)
            )
        turns, beliefs = list(dict.fromkeys(evidence_ids)), list(dict.fromkeys(belief_ids))
        mentions: dict[str, list[str]] = {}
        subjects: dict[str, str] = {}
        turns_read = beliefs_read = 0
        reach = reach_from(space, distances, mentions, subjects)
        more_turns, more_beliefs = until(reach, 0, 0)
        while (more_turns > 0 and turns_read < len(turns)) or (more_beliefs > 0 and beliefs_read < len(beliefs)):
            if more_turns > 0 and turns_read < len(turns):
                mentions.update(self._mentions(space, turns[turns_read : turns_read + more_turns]))
                turns_read = min(turns_read + more_turns, len(turns))
            if more_beliefs > 0 and beliefs_read < len(beliefs):
                subjects.update(self._active_subjects(space, beliefs[beliefs_read : beliefs_read + more_beliefs]))
                beliefs_read = min(beliefs_read + more_beliefs, len(beliefs))
            reach = reach_from(space, distances, mentions, subjects)
            more_turns, more_beliefs = until(reach, turns_read, beliefs_read)
        return reach

    def _expand(self, space: str, frontier: Sequence[str], limit: int) -> set[str]:
        found: set[str] = set()
        for start in range(0, len(frontier), _CHUNK):
            chunk = list(frontier[start : start + _CHUNK])
            marks = ",".join("?" * len(chunk))
            rows = self._db.tuples(_EXPAND.format(marks=marks), [space, *chunk, space, *chunk])
            found.update(_heaviest(rows, limit))
        return found

    def _mentions(self, space: str, evidence_ids: Sequence[str]) -> dict[str, list[str]]:
        found: dict[str, list[str]] = defaultdict(list)
        ids = list(dict.fromkeys(evidence_ids))
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            rows = self._db.tuples(
                f"SELECT evidence_id, entity_id FROM mentions WHERE +space = ? "  # noqa: S608 - marks only
                f"AND evidence_id IN ({','.join('?' * len(chunk))})",
                [space, *chunk],
            )
            for evidence_id, entity in rows:
                found[evidence_id].append(entity)
        return found

    def _active_subjects(self, space: str, belief_ids: Sequence[str]) -> dict[str, str]:
        found: dict[str, str] = {}
        ids = list(dict.fromkeys(belief_ids))
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            rows = self._db.tuples(
                f"SELECT id, subject FROM beliefs WHERE +space = ? AND status = 'active' "  # noqa: S608
                f"AND id IN ({','.join('?' * len(chunk))})",
                [space, *chunk],
            )
            found.update(rows)
        return found


def _heaviest(rows: Iterable[tuple[str, str, int]], limit: int) -> set[str]:
    """The other ends of each node's ``limit`` heaviest edges, ties broken by the other
    end's id (ascending: Python orders strings by code point as SQLite's BINARY collation
    orders their UTF-8 bytes)."""
    edges: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for node, other, weight in rows:
        edges[node].append((-weight, other))
    found: set[str] = set()
    for ranked in edges.values():
        ranked.sort()
        found.update(other for _, other in ranked[:limit])
    return found


@dataclass
class _Held:
    """An entity as ``link_mentions`` folds its links into it: stored, or to insert."""

    id: str
    space: str
    name: str  # of the entity to insert (a stored one keeps its own)
    kind: str
    aliases: list[str]
    stored: bool
    changed: bool = False


def link_mentions(conn: sqlite3.Connection, links: Sequence[tuple[str, Entity]]) -> None:
    """Link each (evidence id, entity) of ``links``, in order, inside the caller's
    transaction: the entity is created, or merged into the stored one (aliases united,
    ``person`` wins), and the mention is written. Level 0 and ``rederive`` both link through it.

    A statement per link (read the entity, write it, write the mention) was most of a Level 0
    transaction's statements, and under concurrent requests each one costs the writing thread
    the GIL back while it holds the one writing connection; so the stored entities are read
    with one query per 400 ids, the links folded in Python, and the rows written with one
    ``executemany`` per statement.
    """
    if not links:
        return
    held: dict[str, _Held] = {}
    ids = sorted({entity.id for _, entity in links})
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start : start + _CHUNK]
        for row in conn.execute(
            f"SELECT id, space, kind, aliases FROM entities WHERE id IN ({','.join('?' * len(chunk))})",  # noqa: S608
            chunk,
        ):
            held[row["id"]] = _Held(row["id"], row["space"], "", row["kind"], json.loads(row["aliases"]), stored=True)
    for _, entity in links:
        found = held.get(entity.id)
        if found is None or found.space != entity.space:  # a row of another space: the insert fails, as it did
            held[entity.id] = _Held(entity.id, entity.space, entity.name, entity.kind, list(entity.aliases), stored=False)
            continue
        found.aliases = sorted(set(found.aliases) | set(entity.aliases))
        found.kind = "person" if "person" in (found.kind, entity.kind) else entity.kind
        found.changed = True
    conn.executemany(
        "INSERT INTO entities VALUES (?, ?, ?, ?, ?)",
        [(h.id, h.space, h.name, h.kind, json.dumps(h.aliases)) for h in held.values() if not h.stored],
    )
    conn.executemany(
        "UPDATE entities SET aliases = ?, kind = ? WHERE id = ? AND space = ?",
        [(json.dumps(h.aliases), h.kind, h.id, h.space) for h in held.values() if h.stored and h.changed],
    )
    conn.executemany(
        "INSERT OR IGNORE INTO mentions VALUES (?, ?, ?)", [(evidence_id, e.id, e.space) for evidence_id, e in links]
    )
