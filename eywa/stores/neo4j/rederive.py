"""Signals detected again under a newer ``eywa.signals.version``, on Neo4j.

``:Evidence.signals_version`` records the version each turn's signals were detected under
(migration 0023 gave the turns stored before versions existed 0). These functions serve
``Neo4jEvidenceStore``'s ``signals_outdated``, ``count_signals_outdated``,
``entities_mentioned_before`` and ``rederive`` (``eywa.stores.evidence.EvidenceStore`` says
what each promises). The outdated turns are found and counted through the (space,
signals_version) index of migration 0024: a store with none outdated costs an empty seek.

``rederive`` is one write transaction per call, with Level 0's own statements for the
signals, the entity upsert (its lock order, ``level0``), mentions and co-mention weights,
the erasure's take-back of the old weights and its orphan rule (an entity an identity merge
holds stays), people no turn names as one any more made entities (``still_a_person``),
the Level 1 marks with their counts (``ledger.mark_tx``) and the new version.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from eywa.models import Entity, Evidence
from eywa.stores.entity_graph import co_mention_weights
from eywa.stores.evidence import RederivedTurn, still_a_person
from eywa.stores.ledger import DERIVED_STAGES
from eywa.stores.neo4j import level0
from eywa.stores.neo4j.graph import run
from eywa.stores.neo4j.labels import Label, RelType
from eywa.stores.neo4j.ledger import mark_tx
from eywa.stores.neo4j.records import SIGNAL_TIMES, entity_from_props, entity_props, signal_props

__all__ = ["COUNT_OUTDATED", "MENTIONED_BEFORE", "OUTDATED", "rederive_tx"]

_EV, _SIG, _ENT, _P = Label.EVIDENCE, Label.SIGNAL, Label.ENTITY, Label.PENDING

# Through the (space, signals_version) index of migration 0024 (0023 gave older turns 0).
OUTDATED = f"""
MATCH (e:{_EV}) USING INDEX SEEK e:{_EV}(space, signals_version)
WHERE e.space = $space AND e.signals_version < $version
RETURN e.id AS id ORDER BY e.recorded_at, e.position, e.id LIMIT $limit
"""
COUNT_OUTDATED = f"""
MATCH (e:{_EV}) USING INDEX SEEK e:{_EV}(space, signals_version)
WHERE e.space = $space AND e.signals_version < $version RETURN count(e) AS n
"""
MENTIONED_BEFORE = f"""
MATCH (n:{_ENT}) WHERE n.space = $space
  AND EXISTS {{ MATCH (e:{_EV})-[:{RelType.MENTIONS}]->(n) WHERE e.space = $space AND e.recorded_at < $before }}
RETURN properties(n) AS n ORDER BY n.name, n.id
"""
_PRESENT = f"MATCH (e:{_EV}) WHERE e.id IN $ids AND e.space = $space RETURN e.id AS id"
# The old mentions go (returned, to take their weights back) and the old signals with them.
_UNLINK = f"""
MATCH (e:{_EV}) WHERE e.id IN $ids AND e.space = $space
CALL (e) {{
  MATCH (e)-[:{RelType.HAS_SIGNAL}]->(s:{_SIG}) DETACH DELETE s
}}
CALL (e) {{
  MATCH (e)-[m:{RelType.MENTIONS}]->(n:{_ENT}) WHERE n.space = $space
  DELETE m
  RETURN collect(n.id) AS entities
}}
RETURN e.id AS id, entities
"""
_ORPHANS = f"""
MATCH (n:{_ENT}) WHERE n.id IN $ids AND n.space = $space AND NOT EXISTS {{ (:{_EV})-[:{RelType.MENTIONS}]->(n) }}
  AND NOT EXISTS {{ (n)-[:{RelType.SAME_AS}]-() }}
DETACH DELETE n
"""
# The people among $ids with, per turn mentioning them, its speaker and its person signals' names.
_PERSON_EVIDENCE = f"""
MATCH (n:{_ENT}) WHERE n.id IN $ids AND n.space = $space AND n.kind = 'person'
OPTIONAL MATCH (e:{_EV})-[:{RelType.MENTIONS}]->(n)
OPTIONAL MATCH (e)-[:{RelType.HAS_SIGNAL}]->(s:{_SIG} {{kind: 'person'}})
RETURN n.id AS id, collect(DISTINCT e.speaker) AS speakers,
  collect(DISTINCT CASE WHEN s.normalized IS NULL OR s.normalized = '' THEN s.text ELSE s.normalized END) AS names
"""
_UNMAKE_PEOPLE = f"MATCH (n:{_ENT}) WHERE n.id IN $ids AND n.space = $space SET n.kind = 'entity'"
_REASON = f"""
MATCH (p:{_P}) USING INDEX SEEK p:{_P}(space, item, stage)
WHERE p.item IN $ids AND p.space = $space AND p.stage = 'level1' SET p.reason = 'signals'
"""
_VERSION = f"MATCH (e:{_EV}) WHERE e.id IN $ids AND e.space = $space SET e.signals_version = $version"


def rederive_tx(
    tx: ManagedTransaction,
    space: str,
    changed: Sequence[RederivedTurn],
    unchanged: Sequence[str],
    version: int,
    at: datetime,
) -> list[str]:
    """``EvidenceStore.rederive`` inside one write transaction."""
    ids = [t.id for t in changed] + list(unchanged)
    present = {row["id"] for row in run(tx, _PRESENT, ids=ids, space=space)}
    rewritten = [t for t in changed if t.id in present]
    if rewritten:
        _rewrite(tx, space, rewritten, at)
    run(tx, _VERSION, ids=[i for i in ids if i in present], space=space, version=version)
    return [t.id for t in rewritten]


def _rewrite(tx: ManagedTransaction, space: str, turns: Sequence[RederivedTurn], at: datetime) -> None:
    ids = [t.id for t in turns]
    unlinked = run(tx, _UNLINK, ids=ids, space=space)
    old = [(space, row["id"], entity) for row in unlinked for entity in row["entities"]]
    level0.take_back_co_mentions(tx, space, old)
    signals = [level0.with_times(s, SIGNAL_TIMES) for t in turns for s in signal_props(_carrier(space, t))]
    run(tx, f"CALL () {{ {level0.WRITE_SIGNALS} }}", signals=signals)
    pairs = [(t.id, e) for t in turns for e in t.mentions]
    entities, links = level0.mentioned(set(ids), pairs)
    new_weights = co_mention_weights((link["space"], link["evidence_id"], link["entity_id"]) for link in links)
    if entities:
        run(tx, f"CALL () {{ {level0.UPSERT_ENTITIES} }}", entities=[entity_props(entities[k]) for k in sorted(entities)])
    run(
        tx, level0.LINK_MENTIONS, mentions=links,
        weights=[{"space": sp, "a": a, "b": b, "weight": w} for (sp, a, b), w in new_weights.items()],
    )  # fmt: skip
    gone = sorted({e for _, _, e in old} - {link["entity_id"] for link in links})
    if gone:
        run(tx, _ORPHANS, ids=gone, space=space)
    people = {e.id for t in turns for e in t.mentions if e.kind == "person"}
    touched = sorted(({e for _, _, e in old} | {link["entity_id"] for link in links}) - people)
    if touched:
        rows = run(tx, _PERSON_EVIDENCE, ids=touched, space=space)
        gone_people = [r["id"] for r in rows if not still_a_person(space, r["id"], r["speakers"], r["names"])]
        if gone_people:
            run(tx, _UNMAKE_PEOPLE, ids=gone_people, space=space)
    mark_tx(tx, space, DERIVED_STAGES, ids, "signals", at)
    run(tx, _REASON, ids=ids, space=space)


def _carrier(space: str, turn: RederivedTurn) -> Evidence:
    """An ``Evidence`` carrying only what ``signal_props`` reads (id, space, signals)."""
    return Evidence.model_construct(id=turn.id, space=space, signals=turn.signals)


def entities_from_rows(rows: Sequence[Any]) -> list[Entity]:
    """``MENTIONED_BEFORE``'s rows as entities."""
    return [entity_from_props(row["n"]) for row in rows]
