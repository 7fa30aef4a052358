"""Backfill what graph-native reads need from data stored before them (issue #14).

- ``space_key`` on every ``:Evidence`` and ``:Belief`` (``eywa.stores.neo4j.records.
  space_key``): the single-token space the keyword indexes of migration 0009 filter on.
- ``(:Entity)-[:CO_MENTIONED {space, weight}]->(:Entity)``, smaller id to larger, weight =
  the number of turns mentioning both: the co-mention graph the graph route walks, which
  Level 0 keeps from now on.
- ``near_text`` / ``far_text`` of turns stored before migration 0004 (they have none), from
  the shared builder ``eywa.stores.context``, as a fresh write would store them.

Python, not Cypher, because a space key is a SHA-256 and the context texts come from the
builder. Every statement but the listings of spaces and of turns without context matches
within one space.
"""

from __future__ import annotations

from collections import defaultdict

from neo4j import ManagedTransaction

from eywa.stores.context import SessionTurn, contexts_around, read_range
from eywa.stores.neo4j.labels import Label, RelType
from eywa.stores.neo4j.records import space_key

_EV, _B, _ENT = Label.EVIDENCE, Label.BELIEF, Label.ENTITY

_SPACES = f"""
MATCH (n) WHERE (n:{_EV} OR n:{_B}) AND n.space IS NOT NULL
RETURN DISTINCT n.space AS space
"""
_SET_KEYS = (
    f"MATCH (e:{_EV}) WHERE e.space = $space SET e.space_key = $key",
    f"MATCH (b:{_B}) WHERE b.space = $space SET b.space_key = $key",
)
_CO_MENTIONS = f"""
MATCH (a:{_ENT})<-[:{RelType.MENTIONS}]-(e:{_EV})-[:{RelType.MENTIONS}]->(b:{_ENT})
WHERE e.space = $space AND a.space = $space AND b.space = $space AND a.id < b.id
WITH a, b, count(DISTINCT e) AS weight
MERGE (a)-[r:{RelType.CO_MENTIONED}]->(b)
SET r.space = $space, r.weight = weight
"""
_WITHOUT_CONTEXT = f"""
MATCH (e:{_EV}) WHERE e.near_text IS NULL
RETURN e.space AS space, e.session AS session, e.seq AS seq
"""
_SESSION_TURNS = f"""
MATCH (e:{_EV}) WHERE e.space = $space AND e.session = $session AND e.seq >= $lo AND e.seq <= $hi
RETURN e.id AS id, e.seq AS seq, e.speaker AS speaker, e.text AS text
"""
_SET_CONTEXT = f"""
UNWIND $rows AS row
MATCH (e:{_EV} {{id: row.id, space: $space}})
SET e.near_text = row.near_text, e.far_text = row.far_text
"""


def migrate(tx: ManagedTransaction) -> None:
    """Space keys, co-mention edges and missing context, space by space."""
    for row in tx.run(_SPACES).data():
        space = row["space"]
        for statement in _SET_KEYS:
            tx.run(statement, space=space, key=space_key(space)).consume()
        tx.run(_CO_MENTIONS, space=space).consume()
    missing: dict[tuple[str, str], list[int]] = defaultdict(list)
    for row in tx.run(_WITHOUT_CONTEXT).data():
        missing[(row["space"], row["session"])].append(row["seq"])
    for (space, session), seqs in sorted(missing.items()):
        lo, hi = read_range(seqs)
        turns = {
            r["seq"]: SessionTurn(r["id"], r["seq"], r["speaker"], r["text"])
            for r in tx.run(_SESSION_TURNS, space=space, session=session, lo=lo, hi=hi).data()
        }
        rows = [
            {"id": evidence_id, "near_text": c.near_text, "far_text": c.far_text}
            for evidence_id, c in contexts_around(turns, seqs).items()
        ]
        tx.run(_SET_CONTEXT, rows=rows, space=space).consume()
