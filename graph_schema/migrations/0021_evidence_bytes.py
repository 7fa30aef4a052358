"""``bytes`` on every ``:Evidence`` that lacks it (session 26): the size the space quotas count
(``eywa.contract.turn_bytes``: UTF-8 text plus the metadata's JSON text).

Level 0 has stored it on every turn since space quotas came (#11); a turn written before has
none. The quota check and ``EvidenceStore.usage`` now count a space's turns and sum their
``bytes`` from the (space, bytes) index (migration 0022), which holds only the turns that
have it: without this, such a turn would count for nothing. Python, not Cypher, because
Cypher's ``size`` counts characters, not UTF-8 bytes; the value is what a fresh write stores.
"""

from __future__ import annotations

import json

from neo4j import ManagedTransaction

from eywa.contract import turn_bytes
from eywa.stores.neo4j.labels import Label

_EV = Label.EVIDENCE
_CHUNK = 1000
_MISSING = f"""
MATCH (e:{_EV}) WHERE e.bytes IS NULL
RETURN e.id AS id, e.space AS space, e.text AS text, e.metadata AS metadata
"""
_SET = f"""
UNWIND $rows AS row
MATCH (e:{_EV} {{id: row.id, space: row.space}})
SET e.bytes = row.bytes
"""


def migrate(tx: ManagedTransaction) -> None:
    """Set ``bytes`` of each turn without it, from its stored text and metadata."""
    rows = [
        {"id": r["id"], "space": r["space"], "bytes": turn_bytes(r["text"] or "", json.loads(r["metadata"] or "{}"))}
        for r in tx.run(_MISSING).data()
    ]
    for start in range(0, len(rows), _CHUNK):
        tx.run(_SET, rows=rows[start : start + _CHUNK]).consume()
