"""The server ``SpaceCatalog``: the counts of a page of spaces in one Cypher statement.

Every part matches ``n.space IN $spaces`` on the label's index that starts with ``space``
(the later properties of a composite index stated as present, which every node of the
label has, so the planner may seek it; Erasure records through migration 0017's index).
The stage ledger's part reads each asked space's ``:Backlog`` counts (one node per space,
kept with the marks), as ``space_backlog`` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from eywa.stores.neo4j.graph import Neo4jGraph
from eywa.stores.neo4j.labels import Label
from eywa.stores.spaces import SpaceCounts, counts_from_rows

__all__ = ["Neo4jSpaceCatalog"]

_COUNTS = f"""
MATCH (e:{Label.EVIDENCE}) WHERE e.space IN $spaces AND e.session IS NOT NULL AND e.seq IS NOT NULL
WITH e.space AS space, count(*) AS turns,
     count(CASE WHEN e.recorded_at >= $recorded_from AND e.recorded_at < $recorded_to THEN 1 END) AS recorded
UNWIND [['turns', turns], ['recorded', recorded]] AS pair
RETURN space, pair[0] AS key, pair[1] AS n
UNION ALL
MATCH (b:{Label.BELIEF}) WHERE b.space IN $spaces AND b.status IS NOT NULL
RETURN b.space AS space, 'belief_' + b.status AS key, count(*) AS n
UNION ALL
MATCH (c:{Label.CANDIDATE}) WHERE c.space IN $spaces AND c.status IS NOT NULL
RETURN c.space AS space, 'candidate_' + c.status AS key, count(*) AS n
UNION ALL
MATCH (d:{Label.DIMENSION}) WHERE d.space IN $spaces AND d.entity_key IS NOT NULL
RETURN d.space AS space, 'dimensions' AS key, count(*) AS n
UNION ALL
MATCH (r:{Label.ERASURE}) WHERE r.space IN $spaces AND r.at IS NOT NULL
RETURN r.space AS space, 'erasures' AS key, count(*) AS n
UNION ALL
MATCH (c:{Label.BACKLOG}) WHERE c.space IN $spaces
UNWIND [['embed', c.embed], ['level1', c.level1]] AS pair
RETURN c.space AS space, pair[0] AS key, pair[1] AS n
"""


class Neo4jSpaceCatalog:
    """The server ``SpaceCatalog`` on a shared :class:`Neo4jGraph`."""

    def __init__(self, graph: Neo4jGraph) -> None:
        self._graph = graph

    def counts(self, spaces: Sequence[str], recorded_from: datetime, recorded_to: datetime) -> dict[str, SpaceCounts]:
        """The counts of each of ``spaces`` in one round trip (see the module docstring)."""
        if not spaces:
            return {}
        rows = self._graph.read(
            "space counts", _COUNTS, spaces=list(spaces),
            recorded_from=recorded_from, recorded_to=recorded_to,
        )  # fmt: skip
        return counts_from_rows(spaces, ((str(r["space"]), str(r["key"]), int(r["n"])) for r in rows))
