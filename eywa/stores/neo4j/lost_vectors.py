"""At connect: find the vectors the Qdrant collections lost, and mark their items for
embedding again (the server counterpart of ``eywa.stores.embedded.lost_vectors``).

The collections (``eywa_evidence``, ``eywa_belief``) are derived from the turns and beliefs
in Neo4j, and the stage ledger's ``embed_*`` marks say which items still owe their vector:
every item without one is counted as embedded. A collection that loses points behind the
ledger's back (a Qdrant volume lost or recreated, a collection dropped by hand, local mode's
folder deleted) leaves the ledger saying those items are embedded, so nothing embeds them
again and the vector and person routes silently find nothing.

So each connect compares, per kind, the collection's exact point count with the items the
ledger counts as embedded: the label's node count (Neo4j's count store) less the kind's
``embed_*`` marks whose item exists (the (stage, due_at) index, one id seek per mark: none
in a drained store). When the collection holds fewer, the items without a point are marked
``embed_*`` again (reason ``lost``): the reconciler (``eywa reconcile``, the API's pass, the
workers) embeds them. A collection with no point at all marks every unmarked item without
asking Qdrant; otherwise Qdrant is asked which ids of each space it lacks, in chunks.

A count cannot see every loss (stale points of deleted items can make up for lost ones):
``eywa repair-vectors`` checks every id. Points are never fewer than the items counted in a
healthy store, also while other processes write: an item and its mark are written together,
and the mark is cleared only after its vector is upserted.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Final, Literal

from eywa.stores.ledger import PendingStage
from eywa.stores.neo4j.graph import Neo4jGraph
from eywa.stores.neo4j.labels import Label
from eywa.stores.neo4j.ledger import Neo4jStageLedger
from eywa.stores.vectors import ShardShortfall, VectorKind, VectorStore

__all__ = ["mark_lost_vectors"]

_P: Final = Label.PENDING
_DERIVED: Final[tuple[tuple[VectorKind, Literal[Label.EVIDENCE, Label.BELIEF], PendingStage], ...]] = (
    ("evidence", Label.EVIDENCE, "embed_evidence"),
    ("belief", Label.BELIEF, "embed_belief"),
)
"""The kinds whose points are derived from a label, the label, and its embed stage."""
_CHUNK: Final = 2_000
"""Ids per lookup (Neo4j page, Qdrant ``missing``) when a collection is short."""


def _embedded_query(label: Label) -> str:
    """Nodes of ``label`` less the ``$stage`` marks of existing ones."""
    return f"""
CALL () {{ MATCH (x:{label}) RETURN count(x) AS rows }}
CALL () {{
  MATCH (p:{_P}) WHERE p.stage = $stage
  MATCH (x:{label} {{id: p.item}}) WHERE x.space = p.space
  RETURN count(x) AS marked
}}
RETURN rows - marked AS n
"""


def _unmarked_query(label: Label) -> str:
    """A page of the (space, id) of ``label``'s nodes without a ``$stage`` mark, by id."""
    return f"""
MATCH (x:{label}) WHERE x.id > $after
  AND NOT EXISTS {{ MATCH (p:{_P} {{space: x.space, item: x.id, stage: $stage}}) }}
RETURN x.space AS space, x.id AS id ORDER BY x.id LIMIT $limit
"""


def mark_lost_vectors(graph: Neo4jGraph, vectors: VectorStore, at: datetime) -> list[ShardShortfall]:
    """Mark for embedding the items whose points the collections lost; one entry per short
    collection (none in the usual connect: three reads per kind).

    Raises:
        StoreError: Neo4j or Qdrant failed.
    """
    ledger = Neo4jStageLedger(graph)
    found: list[ShardShortfall] = []
    for kind, label, stage in _DERIVED:
        points = vectors.count(kind)
        expected = int(graph.read("embedded count", _embedded_query(label), stage=stage)[0]["n"])
        if points >= expected:
            continue
        marked = 0
        for space, ids in _unmarked(graph, label, stage):
            lacking = ids if points == 0 else sorted(vectors.missing(kind, ids))
            if lacking:
                marked += ledger.mark(space, stage, lacking, "lost", at)
        found.append(ShardShortfall(kind=kind, expected=expected, points=points, marked=marked))
    return found


def _unmarked(graph: Neo4jGraph, label: Label, stage: PendingStage) -> Iterator[tuple[str, list[str]]]:
    """(space, ids) groups of ``label``'s nodes without a ``stage`` mark, a page at a time.

    Raises:
        StoreError: Neo4j failed.
    """
    after = ""
    query = _unmarked_query(label)
    while True:
        rows = graph.read("unmarked items", query, stage=stage, after=after, limit=_CHUNK)
        if not rows:
            return
        by_space: dict[str, list[str]] = {}
        for row in rows:
            by_space.setdefault(str(row["space"]), []).append(str(row["id"]))
        yield from sorted(by_space.items())
        after = str(rows[-1]["id"])
