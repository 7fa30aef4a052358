"""The statements of one Level 0 batch on Neo4j, each an ``UNWIND`` over the whole batch.

``Neo4jEvidenceStore.add`` runs them in one write transaction, in this order: read the
stored turns around the batch in its sessions (one query), derive the neighbour context of
the new turns and of the stored turns within reach (``eywa.stores.context``, in Python),
write the turns with their context, link ``NEXT`` between consecutive turns, refresh the
stored neighbours' context, write the signals, upsert the mentioned entities, link the
mentions and add the co-mention weights (``eywa.stores.entity_graph``). A statement per
kind of write, never per turn: a batch costs a fixed number of round trips.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from neo4j import ManagedTransaction

from eywa.models import Entity
from eywa.stores.context import SessionTurn, TurnContext, contexts_around, read_range
from eywa.stores.entity_graph import co_mention_weights
from eywa.stores.neo4j.graph import run
from eywa.stores.neo4j.labels import Label, RelType
from eywa.stores.neo4j.records import entity_props

__all__ = [
    "Sessions",
    "derive_contexts",
    "link_turns",
    "read_sessions",
    "refresh_contexts",
    "write_mentions",
    "write_signals",
    "write_turns",
]

_EV, _SIG, _ENT, _SES, _SPACE = Label.EVIDENCE, Label.SIGNAL, Label.ENTITY, Label.SESSION, Label.SPACE

# (space, session) -> seq -> turn
Sessions = dict[tuple[str, str], dict[int, SessionTurn]]

_SESSION_TURNS = f"""
UNWIND $ranges AS r
MATCH (e:{_EV}) WHERE e.space = r.space AND e.session = r.session AND e.seq >= r.lo AND e.seq <= r.hi
RETURN r.space AS space, r.session AS session, e.id AS id, e.seq AS seq, e.speaker AS speaker,
  e.text AS text
"""
_MERGE_SPACES = f"UNWIND $spaces AS space MERGE (:{_SPACE} {{id: space}})"
_MERGE_SESSIONS = f"""
UNWIND $sessions AS s
MERGE (ses:{_SES} {{id: s.id}}) ON CREATE SET ses.space = s.space, ses.name = s.name
"""
_CREATE_TURNS = f"""
UNWIND $rows AS row
MATCH (ses:{_SES} {{id: row.session_id}})
MERGE (e:{_EV} {{id: row.props.id}}) ON CREATE SET e += row.props
MERGE (ses)-[:{RelType.HAS_TURN}]->(e)
"""
_LINK_NEXT = f"""
UNWIND $pairs AS pair
MATCH (a:{_EV} {{id: pair.a, space: pair.space}})
MATCH (b:{_EV} {{id: pair.b, space: pair.space}})
MERGE (a)-[:{RelType.NEXT}]->(b)
"""
_SET_CONTEXT = f"""
UNWIND $rows AS row
MATCH (e:{_EV} {{id: row.id, space: row.space}})
SET e.near_text = row.near_text, e.far_text = row.far_text
"""
_CREATE_SIGNALS = f"""
UNWIND $rows AS row
MATCH (e:{_EV} {{id: row.evidence_id, space: row.space}})
MERGE (s:{_SIG} {{id: row.id}}) ON CREATE SET s += row
MERGE (e)-[:{RelType.HAS_SIGNAL}]->(s)
"""
_KNOWN_ENTITIES = f"""
MATCH (n:{_ENT}) WHERE n.id IN $ids AND n.space IN $spaces
RETURN n.id AS id, n.kind AS kind, n.aliases AS aliases
"""
_UPSERT_ENTITIES = f"""
UNWIND $rows AS row
MERGE (n:{_ENT} {{id: row.id}}) ON CREATE SET n.space = row.space, n.name = row.name
SET n.kind = row.kind, n.aliases = row.aliases
"""
_CREATE_MENTIONS = f"""
UNWIND $rows AS row
MATCH (e:{_EV} {{id: row.evidence_id, space: row.space}})
MATCH (n:{_ENT} {{id: row.entity_id, space: row.space}})
MERGE (e)-[:{RelType.MENTIONS}]->(n)
"""
_ADD_CO_MENTIONS = f"""
UNWIND $rows AS row
MATCH (a:{_ENT} {{id: row.a, space: row.space}})
MATCH (b:{_ENT} {{id: row.b, space: row.space}})
MERGE (a)-[r:{RelType.CO_MENTIONED}]->(b)
  ON CREATE SET r.space = row.space, r.weight = row.weight
  ON MATCH SET r.weight = r.weight + row.weight
"""


def read_sessions(tx: ManagedTransaction, new: Sequence[dict[str, Any]]) -> Sessions:
    """The stored turns around the new ones, with the new ones added (one query).

    ``new`` are evidence rows (``{"props": …}``); for each session the range read is
    ``read_range`` of its new seqs.
    """
    changed = _changed_seqs(new)
    ranges = [
        {"space": space, "session": session, "lo": lo, "hi": hi}
        for (space, session), seqs in sorted(changed.items())
        for lo, hi in [read_range(seqs)]
    ]
    sessions: Sessions = {key: {} for key in changed}
    for row in run(tx, _SESSION_TURNS, ranges=ranges):
        turn = SessionTurn(row["id"], row["seq"], row["speaker"], row["text"])
        sessions[(row["space"], row["session"])][turn.seq] = turn
    for r in new:
        p = r["props"]
        sessions[(p["space"], p["session"])][p["seq"]] = SessionTurn(p["id"], p["seq"], p.get("speaker"), p["text"])
    return sessions


def derive_contexts(sessions: Sessions, new: Sequence[dict[str, Any]]) -> dict[str, tuple[str, TurnContext]]:
    """Evidence id -> (space, context) of every turn whose context the new turns change."""
    contexts: dict[str, tuple[str, TurnContext]] = {}
    for (space, session), seqs in _changed_seqs(new).items():
        for evidence_id, context in contexts_around(sessions[(space, session)], seqs).items():
            contexts[evidence_id] = (space, context)
    return contexts


def write_turns(
    tx: ManagedTransaction, new: Sequence[dict[str, Any]], contexts: dict[str, tuple[str, TurnContext]]
) -> None:
    """The ``:Space``, ``:Session`` and ``:Evidence`` nodes (with their context) and ``HAS_TURN``."""
    spaces = sorted({r["props"]["space"] for r in new})
    sessions = {r["session_id"]: {"id": r["session_id"], "space": r["props"]["space"], "name": r["props"]["session"]}
                for r in new}  # fmt: skip
    rows = []
    for r in new:
        _, context = contexts[r["props"]["id"]]
        props = {**r["props"], "near_text": context.near_text, "far_text": context.far_text}
        rows.append({"props": props, "session_id": r["session_id"]})
    run(tx, _MERGE_SPACES, spaces=spaces)
    run(tx, _MERGE_SESSIONS, sessions=[sessions[k] for k in sorted(sessions)])
    run(tx, _CREATE_TURNS, rows=rows)


def link_turns(tx: ManagedTransaction, sessions: Sessions, new: Sequence[dict[str, Any]]) -> None:
    """``NEXT`` from each new turn's predecessor and to its successor (by seq)."""
    pairs: set[tuple[str, str, str]] = set()
    for r in new:
        p = r["props"]
        turns = sessions[(p["space"], p["session"])]
        if (before := turns.get(p["seq"] - 1)) is not None:
            pairs.add((p["space"], before.id, p["id"]))
        if (after := turns.get(p["seq"] + 1)) is not None:
            pairs.add((p["space"], p["id"], after.id))
    if pairs:
        run(tx, _LINK_NEXT, pairs=[{"space": sp, "a": a, "b": b} for sp, a, b in sorted(pairs)])


def refresh_contexts(
    tx: ManagedTransaction, contexts: dict[str, tuple[str, TurnContext]], new_ids: set[str]
) -> None:
    """Rewrite the context of stored turns that the new ones neighbour (index data only)."""
    rows = [
        {"id": evidence_id, "space": space, "near_text": c.near_text, "far_text": c.far_text}
        for evidence_id, (space, c) in sorted(contexts.items())
        if evidence_id not in new_ids
    ]
    if rows:
        run(tx, _SET_CONTEXT, rows=rows)


def write_signals(tx: ManagedTransaction, rows: Sequence[dict[str, Any]]) -> None:
    """The ``:Signal`` nodes of the new turns and their ``HAS_SIGNAL`` edges."""
    if rows:
        run(tx, _CREATE_SIGNALS, rows=list(rows))


def write_mentions(tx: ManagedTransaction, new_ids: set[str], mentions: Iterable[tuple[str, Entity]]) -> None:
    """Upsert the entities the new turns mention, link ``MENTIONS``, add co-mention weights."""
    mentioned: dict[str, Entity] = {}
    links: dict[tuple[str, str], dict[str, str]] = {}
    for evidence_id, entity in mentions:
        if evidence_id not in new_ids:
            continue
        if (previous := mentioned.get(entity.id)) is not None:
            entity = _united(previous, entity)
        mentioned[entity.id] = entity
        links[(evidence_id, entity.id)] = {"evidence_id": evidence_id, "entity_id": entity.id, "space": entity.space}
    if not mentioned:
        return
    run(tx, _UPSERT_ENTITIES, rows=_merged_entities(tx, mentioned))
    run(tx, _CREATE_MENTIONS, rows=[links[k] for k in sorted(links)])
    weights = co_mention_weights((link["space"], link["evidence_id"], link["entity_id"]) for link in links.values())
    if weights:
        rows = [{"space": space, "a": a, "b": b, "weight": w} for (space, a, b), w in weights.items()]
        run(tx, _ADD_CO_MENTIONS, rows=rows)


def _changed_seqs(new: Sequence[dict[str, Any]]) -> dict[tuple[str, str], list[int]]:
    changed: dict[tuple[str, str], list[int]] = {}
    for r in new:
        p = r["props"]
        changed.setdefault((p["space"], p["session"]), []).append(p["seq"])
    return changed


def _united(previous: Entity, entity: Entity) -> Entity:
    """One entity mentioned twice in a batch: aliases united, ``person`` wins."""
    kind = "person" if "person" in (previous.kind, entity.kind) else entity.kind
    aliases = tuple(sorted(set(previous.aliases) | set(entity.aliases)))
    return previous.model_copy(update={"kind": kind, "aliases": aliases})


def _merged_entities(tx: ManagedTransaction, mentioned: dict[str, Entity]) -> list[dict[str, Any]]:
    """Entity rows to write: the batch's entities merged with what the graph already holds
    (original name kept, aliases united and sorted, ``person`` wins over ``entity``)."""
    known = {
        row["id"]: row
        for row in run(
            tx, _KNOWN_ENTITIES, ids=sorted(mentioned), spaces=sorted({e.space for e in mentioned.values()})
        )
    }
    rows = []
    for entity_id in sorted(mentioned):
        entity = mentioned[entity_id]
        row = entity_props(entity)
        if (old := known.get(entity.id)) is not None:
            row["aliases"] = sorted(set(old["aliases"] or ()) | set(entity.aliases))
            row["kind"] = "person" if "person" in (old["kind"], entity.kind) else entity.kind
        rows.append(row)
    return rows
