"""Nous dimensions, deltas and identity merges as a Neo4j graph (server ``DimensionStore``).

``(:Entity)-[:HAS_DIMENSION]->(:Dimension)-[:CHANGED_BY]->(:Delta)-[:FROM]->(:Belief)``.
A ``:Dimension`` node holds the materialised state (``state`` and ``distribution`` as JSON
strings, ``mode``, ``entropy_bits``); each ``:Delta`` node is one immutable update with
its event time ``at`` as a native ``DATETIME``. Identity merges are
``(:Entity)-[:SAME_AS {space, source, target, score, at, removed_at}]->(:Entity)`` edges,
read by a seek of their (space) index (migration 0015, hinted); undoing one sets ``removed_at``
and keeps the edge for audit.

Entities are addressed by ``entity_key`` (see ``eywa.ids.entity_key``); the
``:Entity`` node of a key is the one ``eywa.ids.entity_id`` names. A dimension links to
its entity only when that entity was mentioned; a merge edge creates missing entity nodes,
since an edge needs both ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

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
from eywa.stores.neo4j.graph import Neo4jGraph, run
from eywa.stores.neo4j.labels import Label, RelType
from eywa.stores.neo4j.ledger import tombstoned_tx
from eywa.stores.neo4j.records import (
    delta_from_props,
    delta_props,
    dimension_from_props,
    dimension_id,
    dimension_props,
    projected,
    rereads,
    same_as_from_props,
)
from eywa.ids import entity_id

_DIM, _DELTA, _ENT, _B = Label.DIMENSION, Label.DELTA, Label.ENTITY, Label.BELIEF

_SAVE_DIMENSION = f"""
MERGE (d:{_DIM} {{id: $props.id}}) SET d += $props
WITH d
OPTIONAL MATCH (n:{_ENT} {{id: $entity_id, space: $props.space}})
FOREACH (x IN CASE WHEN n IS NULL THEN [] ELSE [n] END | MERGE (x)-[:{RelType.HAS_DIMENSION}]->(d))
"""
_SAVE_DELTAS = f"""
UNWIND $rows AS row
MERGE (x:{_DELTA} {{id: row.id}})
  ON CREATE SET x += row
  ON MATCH SET x.observed = row.observed, x.prior = row.prior, x.posterior = row.posterior,
    x.reliability = row.reliability, x.valid_from = row.valid_from, x.said_at = row.said_at,
    x.surprise_bits = row.surprise_bits, x.hazard = row.hazard
WITH x, row
OPTIONAL MATCH (b:{_B} {{id: row.belief_id, space: row.space}})
FOREACH (y IN CASE WHEN b IS NULL THEN [] ELSE [b] END | MERGE (x)-[:{RelType.FROM}]->(y))
"""
_LINK_DELTAS = f"""
MATCH (d:{_DIM} {{id: $id, space: $space}})
MATCH (x:{_DELTA}) WHERE x.space = $space AND x.entity_key = $entity_key AND x.attribute = $attribute
MERGE (d)-[:{RelType.CHANGED_BY}]->(x)
"""
_EXISTING = f"MATCH (x:{_DELTA}) WHERE x.space = $space AND x.id IN $ids RETURN x.id AS id"
_DELTAS = f"""
MATCH (x:{_DELTA}) WHERE x.space = $space AND x.entity_key = $entity_key AND x.attribute = $attribute
RETURN {projected('x', 'at', 'recorded_at', 'valid_from', 'said_at')} AS x ORDER BY x.at, x.id
"""
_DELTAS_OF_BELIEFS = f"""
MATCH (x:{_DELTA}) WHERE x.space = $space AND x.belief_id IN $ids
RETURN properties(x) AS x ORDER BY x.at, x.id
"""
_REMOVE_DELTAS = f"""
MATCH (x:{_DELTA}) WHERE x.space = $space AND x.id IN $ids
WITH collect(x) AS found
FOREACH (x IN found | DETACH DELETE x)
RETURN size(found) AS n
"""
_DELETE_DIMENSION = f"MATCH (d:{_DIM} {{id: $id, space: $space}}) DETACH DELETE d"
_GET = f"MATCH (d:{_DIM} {{id: $id}}) WHERE d.space = $space RETURN {projected('d', 'updated_at', 'recorded_at')} AS d"
# ``_GET`` once the node is write-locked (a save that checks what its caller read).
_LOCK_GET = f"""
MATCH (d:{_DIM} {{id: $id}}) WHERE d.space = $space
SET d.space = d.space
RETURN {projected('d', 'updated_at', 'recorded_at')} AS d
"""
# A space's dimensions, or one entity's (through the (space, entity_key) index): two
# statements, so that neither carries the other's predicate.
_DIMENSIONS = f"""
MATCH (d:{_DIM}) WHERE d.space = $space
RETURN {projected('d', 'updated_at', 'recorded_at')} AS d ORDER BY d.entity_key, d.attribute
"""
_ENTITY_DIMENSIONS = _DIMENSIONS.replace("WHERE d.space = $space", "WHERE d.space = $space AND d.entity_key = $entity_key")
_ADD_SAME_AS = f"""
MERGE (s:{_ENT} {{id: $source_id}})
  ON CREATE SET s.space = $space, s.name = $source, s.kind = 'entity', s.aliases = []
MERGE (t:{_ENT} {{id: $target_id}})
  ON CREATE SET t.space = $space, t.name = $target, t.kind = 'entity', t.aliases = []
MERGE (s)-[r:{RelType.SAME_AS}]->(t)
SET r.space = $space, r.source = $source, r.target = $target, r.score = $score, r.at = $at,
  r.removed_at = $removed_at, r.author = $author, r.removed_by = $removed_by
"""
_REMOVE_SAME_AS = f"""
MATCH (s:{_ENT})-[r:{RelType.SAME_AS}]->(:{_ENT}) USING INDEX SEEK r:{RelType.SAME_AS}(space)
WHERE s.space = $space AND r.space = $space AND r.removed_at IS NULL
  AND ((r.source = $a AND r.target = $b) OR (r.source = $b AND r.target = $a))
SET r.removed_at = $at, r.removed_by = $by
RETURN count(r) AS n
"""
_DELETE_SAME_AS = f"""
MATCH (:{_ENT})-[r:{RelType.SAME_AS}]->(:{_ENT}) USING INDEX SEEK r:{RelType.SAME_AS}(space)
WHERE r.space = $space AND (r.source IN $keys OR r.target IN $keys)
DELETE r
RETURN count(*) AS n
"""
# The erasure keeps an entity node while a merge edge holds it (``_ORPHANS``); once the edges
# are gone, an end without mentions goes too.
_DELETE_BARE_ENTITIES = f"""
MATCH (n:{_ENT}) WHERE n.id IN $ids AND n.space = $space
  AND NOT EXISTS {{ ()-[:{RelType.MENTIONS}]->(n) }} AND NOT EXISTS {{ (n)-[:{RelType.SAME_AS}]-() }}
DETACH DELETE n
"""
_SAME_AS = f"""
MATCH (s:{_ENT})-[r:{RelType.SAME_AS}]->(:{_ENT}) USING INDEX SEEK r:{RelType.SAME_AS}(space)
WHERE s.space = $space AND r.space = $space AND ($all OR r.removed_at IS NULL)
RETURN {projected('r', 'at', 'removed_at')} AS r ORDER BY r.at, r.source, r.target
"""

# One edge by its two ends' ids (the ``Entity.id`` constraint's seeks).
_SAME_AS_EDGE = f"""
MATCH (:{_ENT} {{id: $source_id}})-[r:{RelType.SAME_AS}]->(:{_ENT} {{id: $target_id}})
WHERE r.space = $space
RETURN {projected('r', 'at', 'removed_at')} AS r
"""

# ``_SAME_AS`` (active edges), ``_ENTITY_DIMENSIONS`` per key and ``_DELTAS`` per pair in one
# statement, each part through its index; the orders are restored in Python.
_RECALL_HEAD = f"""
CALL () {{
  MATCH (s:{_ENT})-[r:{RelType.SAME_AS}]->(:{_ENT}) USING INDEX SEEK r:{RelType.SAME_AS}(space)
  WHERE s.space = $space AND r.space = $space AND r.removed_at IS NULL
  RETURN collect({projected('r', 'at', 'removed_at')}) AS same_as
}}
CALL () {{
  UNWIND $keys AS key
  MATCH (d:{_DIM}) WHERE d.space = $space AND d.entity_key = key
  RETURN collect({projected('d', 'updated_at', 'recorded_at')}) AS dimensions
}}
"""
_RECALL = _RECALL_HEAD + f"""
CALL () {{
  UNWIND $pairs AS pair
  MATCH (x:{_DELTA}) WHERE x.space = $space AND x.entity_key = pair[0] AND x.attribute = pair[1]
  RETURN collect({projected('x', 'at', 'recorded_at', 'valid_from', 'said_at')}) AS deltas
}}
RETURN same_as, dimensions, deltas, [] AS cited
"""
# ``deltas="cited"``: a pair whose :Dimension lists ``cited`` delta ids reads those by the
# unique id index (its other deltas are never touched); a pair without the list reads every
# delta through the (space, entity_key, attribute) index, as ``_RECALL``. The two lists are
# made first and read apart: a branch per pair (``UNION``) had the planner seek every delta
# of the pair before it looked at the list.
_RECALL_CITED = _RECALL_HEAD + f"""
CALL () {{
  UNWIND $pairs AS pair
  OPTIONAL MATCH (d:{_DIM} {{id: pair[2]}})
  WITH pair, CASE WHEN d.space = $space THEN d.cited END AS listed
  RETURN collect(CASE WHEN listed IS NULL THEN pair END) AS whole,
    reduce(ids = [], part IN collect(listed) | ids + part) AS ids,
    collect(CASE WHEN listed IS NOT NULL THEN pair END) AS cited
}}
CALL (ids) {{
  UNWIND ids AS id
  MATCH (x:{_DELTA} {{id: id}}) WHERE x.space = $space
  RETURN collect({projected('x', 'at', 'recorded_at', 'valid_from', 'said_at')}) AS by_id
}}
CALL (whole) {{
  UNWIND whole AS pair
  MATCH (x:{_DELTA}) WHERE x.space = $space AND x.entity_key = pair[0] AND x.attribute = pair[1]
  RETURN collect({projected('x', 'at', 'recorded_at', 'valid_from', 'said_at')}) AS by_pair
}}
RETURN same_as, dimensions, by_id + by_pair AS deltas, cited
"""


def _save(
    tx: ManagedTransaction,
    record: DimensionRecord,
    rows: list[dict[str, Any]],
    cited: list[str] | None,
    read: ReadState,
) -> set[str]:
    """The state and deltas; when ``cited`` is given, nothing if any of those turns is
    tombstoned (returned); unless ``read`` is unchecked, ``DimensionMoved`` if the stored
    state (read once its node is write-locked) is not ``read``."""
    props = dimension_props(record)
    if read != UNCHECKED:
        stored = run(tx, _LOCK_GET, id=props["id"], space=record.space)
        if not same_version(dimension_from_props(stored[0]["d"]) if stored else None, read):
            raise DimensionMoved(record.attribute)
    if cited is not None and (erased := tombstoned_tx(tx, record.space, cited)):
        return erased
    run(tx, _SAVE_DIMENSION, props=props, entity_id=entity_id(record.space, record.entity))
    run(tx, _SAVE_DELTAS, rows=rows)
    run(
        tx, _LINK_DELTAS, id=props["id"], space=record.space, entity_key=record.entity_key,
        attribute=record.attribute,
    )  # fmt: skip
    return set()


def _delete(tx: ManagedTransaction, id: str, space: str, attribute: str, read: ReadState) -> None:
    """The state ``id``; unless ``read`` is unchecked, only if the stored state (read once its
    node is write-locked) is ``read`` (``DimensionMoved`` otherwise)."""
    if read != UNCHECKED:
        stored = run(tx, _LOCK_GET, id=id, space=space)
        if not same_version(dimension_from_props(stored[0]["d"]) if stored else None, read):
            raise DimensionMoved(attribute)
    run(tx, _DELETE_DIMENSION, id=id, space=space)


def _count(tx: ManagedTransaction, query: str, /, **params: Any) -> int:
    return int(run(tx, query, **params)[0]["n"])


def _delete_same_as(tx: ManagedTransaction, space: str, keys: list[str]) -> int:
    removed = _count(tx, _DELETE_SAME_AS, space=space, keys=keys)
    run(tx, _DELETE_BARE_ENTITIES, space=space, ids=[entity_id(space, k) for k in keys])
    return removed


class Neo4jDimensionStore:
    """The server ``DimensionStore`` on a shared :class:`Neo4jGraph`."""

    def __init__(self, graph: Neo4jGraph) -> None:
        self._graph = graph

    def save(
        self,
        record: DimensionRecord,
        deltas: Sequence[Delta],
        *,
        unless_erased: bool = False,
        read: ReadState = UNCHECKED,
    ) -> set[str]:
        """Upsert the state and deltas in one transaction; existing deltas keep ``recorded_at``
        (with ``unless_erased``, nothing when a delta cites an erased turn: its ids returned).

        Raises:
            InvalidInputError: the state is not JSON-serialisable.
            ClosedError: the stores were closed.
            StoreError: Neo4j failed; nothing was committed.
        """
        rows = [delta_props(d, record.entity_key) for d in deltas]
        cited = sorted({i for d in deltas for i in d.evidence_ids}) if unless_erased else None
        erased: set[str] = self._graph.write("save dimension", _save, record, rows, cited, read)
        return erased

    def existing_deltas(self, space: str, ids: Sequence[str]) -> set[str]:
        """The subset of delta ``ids`` already stored in ``space``."""
        if not ids:
            return set()
        return {r["id"] for r in self._graph.read("existing deltas", _EXISTING, space=space, ids=list(set(ids)))}

    @rereads
    def deltas(self, space: str, entity_key: str, attribute: str) -> list[Delta]:
        """Deltas of one dimension in event-time order (ties by id)."""
        rows = self._graph.read("deltas", _DELTAS, space=space, entity_key=entity_key, attribute=attribute)
        return [delta_from_props(r["x"]) for r in rows]

    @rereads
    def deltas_of_beliefs(self, space: str, belief_ids: Sequence[str]) -> list[Delta]:
        """Deltas that came from the given beliefs, in event-time order."""
        if not belief_ids:
            return []
        rows = self._graph.read("deltas of beliefs", _DELTAS_OF_BELIEFS, space=space, ids=list(set(belief_ids)))
        return [delta_from_props(r["x"]) for r in rows]

    def remove_deltas(self, space: str, ids: Sequence[str]) -> int:
        """Delete deltas (erasure); returns how many existed.

        Raises:
            ClosedError: the stores were closed.
            StoreError: Neo4j failed.
        """
        if not ids:
            return 0
        return self._graph.write("remove deltas", _count, _REMOVE_DELTAS, space=space, ids=list(set(ids)))

    def delete_dimension(self, space: str, entity_key: str, attribute: str, *, read: ReadState = UNCHECKED) -> None:
        """Remove a materialised state (its deltas stay until removed); unless ``read`` is
        unchecked, only if the stored state, read once its node is write-locked, is ``read``.

        Raises:
            DimensionMoved: the stored state is not ``read``.
            ClosedError: the stores were closed.
            StoreError: Neo4j failed.
        """
        self._graph.write("delete dimension", _delete, dimension_id(space, entity_key, attribute), space, attribute, read)

    @rereads
    def get(self, space: str, entity_key: str, attribute: str) -> DimensionRecord | None:
        """The materialised state, or None if the dimension was never observed."""
        rows = self._graph.read("get dimension", _GET, id=dimension_id(space, entity_key, attribute), space=space)
        return dimension_from_props(rows[0]["d"]) if rows else None

    @rereads
    def dimensions(self, space: str, entity_key: str | None = None) -> list[DimensionRecord]:
        """States of a space (or of one entity), by entity then attribute."""
        if entity_key is None:
            rows = self._graph.read("list dimensions", _DIMENSIONS, space=space)
        else:
            rows = self._graph.read("list dimensions", _ENTITY_DIMENSIONS, space=space, entity_key=entity_key)
        return [dimension_from_props(r["d"]) for r in rows]

    @rereads
    def recall_dimensions(
        self,
        space: str,
        entity_keys: Sequence[str],
        pairs: Sequence[tuple[str, str]],
        deltas: DeltaSelection = "all",
    ) -> DimensionView:
        """Merge edges, the keys' states and the pairs' deltas (or their cited ones) in one
        round trip."""
        keys, wanted = list(dict.fromkeys(entity_keys)), list(dict.fromkeys(pairs))
        (row,) = self._graph.read(
            "recall dimensions", _RECALL_CITED if deltas == "cited" else _RECALL, space=space, keys=keys,
            pairs=[[key, attribute, dimension_id(space, key, attribute)] for key, attribute in wanted],
        )  # fmt: skip
        edges = sorted(row["same_as"], key=lambda r: (r.get("at") or 0, r.get("source") or "", r.get("target") or ""))
        dimensions: dict[str, list[DimensionRecord]] = {key: [] for key in keys}
        for props in sorted(row["dimensions"], key=lambda d: (d.get("entity_key") or "", d.get("attribute") or "")):
            dimensions.setdefault(props.get("entity_key") or "", []).append(dimension_from_props(props))
        found: dict[tuple[str, str], list[Delta]] = {pair: [] for pair in wanted}
        for props in sorted(row["deltas"], key=lambda x: (x.get("at") or 0, x.get("id") or "")):
            pair = (props.get("entity_key") or "", props.get("attribute") or "")
            found.setdefault(pair, []).append(delta_from_props(props))
        cited = frozenset((str(p[0]), str(p[1])) for p in row["cited"])
        return DimensionView(
            same_as=[same_as_from_props(r) for r in edges], dimensions=dimensions, deltas=found, cited=cited
        )

    def add_same_as(self, edge: SameAsEdge) -> None:
        """Record (or re-activate) the merge edge source→target.

        Raises:
            ClosedError: the stores were closed.
            StoreError: Neo4j failed.
        """
        self._graph.write(
            "add same_as", run, _ADD_SAME_AS,
            space=edge.space, source=edge.source, target=edge.target,
            source_id=entity_id(edge.space, edge.source), target_id=entity_id(edge.space, edge.target),
            score=edge.score, at=as_utc(edge.at),
            removed_at=None if edge.removed_at is None else as_utc(edge.removed_at),
            author=edge.author, removed_by=edge.removed_by,
        )  # fmt: skip

    def remove_same_as(self, space: str, source: str, target: str, at: datetime, by: str | None = None) -> bool:
        """Deactivate the edge in either direction (``by`` as ``removed_by``); False when no
        active edge existed.

        Raises:
            ClosedError: the stores were closed.
            StoreError: Neo4j failed.
        """
        changed = self._graph.write(
            "remove same_as", _count, _REMOVE_SAME_AS, space=space, a=source, b=target, at=as_utc(at), by=by
        )
        return changed > 0

    def delete_same_as(self, space: str, keys: Sequence[str]) -> int:
        """Delete the edges (active or undone) with an end in ``keys``.

        Raises:
            ClosedError: the stores were closed.
            StoreError: Neo4j failed.
        """
        if not keys:
            return 0
        return self._graph.write("delete same_as", _delete_same_as, space, list(keys))

    @rereads
    def same_as(self, space: str, include_removed: bool = False) -> list[SameAsEdge]:
        """Merge edges of a space (active ones unless ``include_removed``), oldest first."""
        rows = self._graph.read("same_as", _SAME_AS, space=space, all=include_removed)
        return [same_as_from_props(r["r"]) for r in rows]

    @rereads
    def same_as_edge(self, space: str, source: str, target: str) -> SameAsEdge | None:
        """The merge edge ``source``→``target`` (active or undone), found from its ends.

        Raises:
            ClosedError: the stores were closed.
            StoreError: Neo4j failed.
        """
        rows = self._graph.read(
            "same_as edge", _SAME_AS_EDGE, space=space,
            source_id=entity_id(space, source), target_id=entity_id(space, target),
        )  # fmt: skip
        return same_as_from_props(rows[0]["r"]) if rows else None
