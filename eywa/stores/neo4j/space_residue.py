"""What the Neo4j store keeps of a space beyond its turns, and letting it go after an
erasure (``ErasureStore.release`` / ``remains``, ``eywa.stores.erasure``).

Level 0 makes a ``:Space`` node, a ``:Session`` node per session (with the caller's session
name) and the ``:Backlog`` counters, and a job-recording write a ``:Job`` node (with the
turn ids); none of them cites a turn, so the erasure cascade, which follows what the turns
left, never reached them and a dropped space kept them all. ``release`` deletes sessions left
without turns and, once the space holds no turn, its jobs, counters and space node.

Beside concurrent writes: Level 0 write-locks a stored session before adding a turn to it
and the ``:Backlog`` node last (``level0``, ``ledger._LOCK``); ``release`` takes the same
locks in the same order and checks again once it holds them, so a session that received a
turn, or a space that did, keeps what it has (a deleted node is never one a committed turn
hangs from). The audit trail stays by design: ``:Erasure``, ``:Tombstone``, ``:Correction``
and ``:AccessEvent`` nodes.
"""

from __future__ import annotations

from typing import Final

from neo4j import ManagedTransaction

from eywa.stores.neo4j.graph import run
from eywa.stores.neo4j.labels import Label, RelType

__all__ = ["KINDS", "REMAINS", "release"]

KINDS: Final = {
    Label.EVIDENCE: "turns", Label.SIGNAL: "signals", Label.ENTITY: "entities", Label.BELIEF: "beliefs",
    Label.CANDIDATE: "candidates", Label.DIMENSION: "dimensions", Label.DELTA: "deltas", Label.PENDING: "pending",
    Label.BACKLOG: "counters", Label.JOB: "jobs", Label.SESSION: "sessions",
}  # fmt: skip
"""Every label whose nodes carry a ``space`` and are no audit trail, by the kind
``remains`` names (the embedded store's names where it keeps the kind)."""

_PER_KIND = " UNION ALL ".join(
    f"MATCH (n:{label}) WHERE n.space = $space RETURN '{kind}' AS kind, count(n) AS n" for label, kind in KINDS.items()
)
REMAINS: Final = f"""
CALL () {{ {_PER_KIND} UNION ALL MATCH (n:{Label.SPACE} {{id: $space}}) RETURN 'space' AS kind, count(n) AS n }}
RETURN kind, n
"""
"""Nodes per kind holding ``$space`` (each label's own index), the ``:Space`` node by id."""

# Sessions without turns, write-locked before the check that counts (a turn being added holds
# the lock until it commits, and is seen once the lock is had).
_EMPTY_SESSIONS = f"""
MATCH (ses:{Label.SESSION}) WHERE ses.space = $space AND NOT EXISTS {{ (ses)-[:{RelType.HAS_TURN}]->() }}
SET ses.space = ses.space
WITH ses WHERE NOT EXISTS {{ (ses)-[:{RelType.HAS_TURN}]->() }}
DELETE ses
RETURN count(*) AS n
"""
# The space-wide nodes, once the :Backlog lock is had and no turn of the space is stored.
_LOCK_BACKLOG = f"MATCH (c:{Label.BACKLOG} {{space: $space}}) SET c.space = c.space"
_HOLDS_TURNS = f"MATCH (e:{Label.EVIDENCE}) WHERE e.space = $space RETURN e.id AS id LIMIT 1"
_SPACE_NODES = f"""
CALL () {{ MATCH (j:{Label.JOB}) WHERE j.space = $space RETURN j AS n
  UNION ALL MATCH (c:{Label.BACKLOG} {{space: $space}}) RETURN c AS n
  UNION ALL MATCH (s:{Label.SPACE} {{id: $space}}) RETURN s AS n }}
DETACH DELETE n
RETURN count(*) AS n
"""


def release(tx: ManagedTransaction, space: str) -> int:
    """The bookkeeping nodes of ``space`` nothing uses any more, deleted in ``tx`` (module
    docstring); returns how many went."""
    gone = int(run(tx, _EMPTY_SESSIONS, space=space)[0]["n"])
    run(tx, _LOCK_BACKLOG, space=space)
    if run(tx, _HOLDS_TURNS, space=space):
        return gone
    return gone + int(run(tx, _SPACE_NODES, space=space)[0]["n"])
