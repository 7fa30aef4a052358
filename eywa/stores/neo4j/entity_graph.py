"""The co-mention graph on Neo4j (the server ``EntityGraph``): one query per walk.

``(:Entity)-[:CO_MENTIONED {space, weight}]->(:Entity)`` edges are written by Level 0
(``level0.write_batch``). ``neighbours`` walks up to two hops in one parameterised query:
each reached entity expands to its ``limit`` heaviest edges, then the same query places the
candidate turns itself (each turn's nearest mentioned entity, as
``eywa.stores.entity_graph.reach_from`` places them: only the turns in reach come back, with
their distance, rather than every mention of every candidate, which was most of a recall's
bytes) and reads the subjects of the candidate active beliefs, which ``reach_from`` places
against the distances exactly as the embedded store does. A caller's stop rule (``until``) is
not asked: every candidate is placed in the same one query, since a second round trip to the
server would cost more than the candidates' mentions and subjects it could leave unread.
"""

from __future__ import annotations

from collections.abc import Sequence

from eywa.stores.entity_graph import MAX_HOPS, Reach, Unsettled, reach_from
from eywa.stores.neo4j.graph import Neo4jGraph
from eywa.stores.neo4j.labels import Label, RelType

__all__ = ["Neo4jEntityGraph"]

_EV, _B, _ENT, _CO = Label.EVIDENCE, Label.BELIEF, Label.ENTITY, RelType.CO_MENTIONED
_WALK = f"""
CALL () {{
  MATCH (s:{_ENT}) WHERE s.id IN $starts AND s.space = $space AND $hops >= 1
  CALL (s) {{
    MATCH (s)-[r:{_CO}]-(n:{_ENT}) WHERE r.space = $space
    RETURN n ORDER BY r.weight DESC, n.id LIMIT $limit
  }}
  RETURN collect(DISTINCT n) AS first
}}
WITH [n IN first WHERE NOT n.id IN $starts] AS first
CALL (first) {{
  UNWIND CASE WHEN $hops >= 2 THEN first ELSE [] END AS m
  CALL (m) {{
    MATCH (m)-[r:{_CO}]-(n:{_ENT}) WHERE r.space = $space
    RETURN n.id AS reached ORDER BY r.weight DESC, reached LIMIT $limit
  }}
  RETURN collect(DISTINCT reached) AS second
}}
CALL (first, second) {{
  WITH [n IN first | n.id] AS near
  UNWIND $evidence_ids AS evidence_id
  MATCH (e:{_EV} {{id: evidence_id}})-[:{RelType.MENTIONS}]->(n:{_ENT}) WHERE e.space = $space
  WITH evidence_id,
    min(CASE WHEN n.id IN $starts THEN 0 WHEN n.id IN near THEN 1 WHEN n.id IN second THEN 2 END) AS hops
  WHERE hops IS NOT NULL
  RETURN collect([evidence_id, hops]) AS placed
}}
CALL () {{
  UNWIND $belief_ids AS belief_id
  MATCH (b:{_B} {{id: belief_id}}) WHERE b.space = $space AND b.status = 'active'
  RETURN collect([belief_id, b.subject]) AS subjects
}}
RETURN [n IN first | n.id] AS first, second, placed, subjects
"""


class Neo4jEntityGraph:
    """The server ``EntityGraph`` on the shared :class:`Neo4jGraph`."""

    def __init__(self, graph: Neo4jGraph) -> None:
        self._graph = graph

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
        """See ``EntityGraph.neighbours`` (the walk is written out for ``MAX_HOPS`` = 2;
        ``until`` is not asked: every candidate is placed, in the walk's one query).

        Raises:
            ClosedError: the stores were closed.
            StoreError: Neo4j failed.
        """
        starts = sorted(set(entity_ids))
        (row,) = self._graph.read(
            "graph neighbours", _WALK,
            space=space, starts=starts, hops=min(hops, MAX_HOPS) if limit > 0 else 0, limit=max(limit, 0),
            evidence_ids=list(dict.fromkeys(evidence_ids)), belief_ids=list(dict.fromkeys(belief_ids)),
        )  # fmt: skip
        distances = {e: 0 for e in starts}
        for hop, reached in ((1, row["first"]), (2, row["second"])):
            for entity in reached:
                distances.setdefault(entity, hop)
        beliefs = reach_from(space, distances, {}, {b: subject for b, subject in row["subjects"]}).beliefs
        return Reach(entities=distances, evidence={i: int(hops) for i, hops in row["placed"]}, beliefs=beliefs)
