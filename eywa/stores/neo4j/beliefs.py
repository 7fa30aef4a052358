"""Beliefs and refused candidates as a Neo4j graph (server-mode ``BeliefStore``).

A belief is a ``:Belief`` node with ``-[:SUPPORTED_BY {span, score, anchors}]->`` edges to
the ``:Evidence`` it rests on, ``-[:ABOUT]->`` the ``:Entity`` of its subject (when that
entity is known in the space), ``-[:SUPERSEDES]->`` the belief it replaced, and, when its
value names a known entity, ``(subject)-[:RELATED_TO {attribute, belief}]->(value)`` for
graph traversal. A refused candidate is a ``:Candidate`` node with
``-[:CITES]->(:Evidence)``. The belief keyword index (``belief_statement``) is Neo4j's;
retracted beliefs are filtered out of it at query time.

Support links are edges, so a link to evidence that is not stored in the belief's space is
not kept (Level 1 only cites stored turns; the validator refuses other citations).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from neo4j import ManagedTransaction

from eywa.models import Belief, BeliefStatus, Candidate, CandidateStatus, utc_now
from eywa.stores.beliefs import BeliefCites, BeliefLine, RecallBelief, without_erased
from eywa.stores.ledger import StageDone
from eywa.stores.neo4j.evidence import recall_values
from eywa.stores.neo4j.graph import Neo4jGraph, run
from eywa.stores.neo4j.ledger import mark_tx, record_level1_tx, tombstoned_tx
from eywa.stores.neo4j.labels import Label, RelType
from eywa.stores.neo4j.records import (
    belief_cites_from_values,
    belief_from_props,
    belief_line_from_values,
    belief_props,
    candidate_from_props,
    candidate_props,
    projected,
    recall_belief_from_values,
    rereads,
    support_props,
)
from eywa.ids import entity_id

_B, _C, _EV, _ENT = Label.BELIEF, Label.CANDIDATE, Label.EVIDENCE, Label.ENTITY

_PRESENT_BELIEFS = f"MATCH (b:{_B}) WHERE b.id IN $ids RETURN b.id AS id"
_PRESENT_CANDIDATES = f"MATCH (c:{_C}) WHERE c.id IN $ids RETURN c.id AS id"
_CREATE_BELIEFS = f"UNWIND $rows AS row MERGE (b:{_B} {{id: row.id}}) ON CREATE SET b += row"
_CREATE_SUPPORT = f"""
UNWIND $rows AS row
MATCH (b:{_B} {{id: row.belief_id, space: row.space}})
MATCH (e:{_EV} {{id: row.evidence_id, space: row.space}})
MERGE (b)-[r:{RelType.SUPPORTED_BY}]->(e)
SET r.span = row.span, r.score = row.score, r.anchors = row.anchors
"""
# The entities the beliefs are about (subjects, and values naming one), write-locked first
# with a plain SET of their stored space, in id order ($entities sorted), before either
# MERGE links them: ``level0``'s "Lock order". A MERGE that creates a relationship locks
# NODE_RELATIONSHIP_GROUP_DELETE before NODE, so without this a belief's ABOUT held the
# former and waited for NODE while a Level 0 batch, past its entity upsert, held NODE and
# waited for the former at its MENTIONS: a deadlock on the one entity node.
_CREATE_ABOUT = f"""
CALL () {{
  UNWIND $entities AS row
  MATCH (n:{_ENT} {{id: row.id, space: row.space}})
  SET n.space = row.space
}}
UNWIND $rows AS row
MATCH (b:{_B} {{id: row.belief_id, space: row.space}})
MATCH (n:{_ENT} {{id: row.subject_id, space: row.space}})
MERGE (b)-[:{RelType.ABOUT}]->(n)
WITH b, n, row WHERE row.value_id IS NOT NULL
MATCH (v:{_ENT} {{id: row.value_id, space: row.space}}) WHERE v <> n
MERGE (n)-[r:{RelType.RELATED_TO} {{belief: row.belief_id}}]->(v)
SET r.attribute = row.attribute, r.space = row.space
"""
_CREATE_SUPERSEDES = f"""
UNWIND $rows AS row
MATCH (n:{_B} {{id: row.new_id, space: row.space}})
MATCH (o:{_B} {{id: row.old_id, space: row.space}})
MERGE (n)-[:{RelType.SUPERSEDES}]->(o)
"""
_CREATE_CANDIDATES = f"""
UNWIND $rows AS row
MERGE (c:{_C} {{id: row.id}}) ON CREATE SET c += row
WITH c, row
UNWIND row.evidence_ids AS evidence_id
MATCH (e:{_EV} {{id: evidence_id, space: row.space}})
MERGE (c)-[:{RelType.CITES}]->(e)
"""
# Hydration: a prefix binds ``b``; this tail adds support edges and the superseded belief.
_HYDRATE = f"""
OPTIONAL MATCH (b)-[r:{RelType.SUPPORTED_BY}]->(e:{_EV}) WHERE e.space = $space
WITH b, collect(CASE WHEN e IS NULL THEN null ELSE
  {{evidence_id: e.id, span: r.span, score: r.score, anchors: r.anchors}} END) AS support
OPTIONAL MATCH (b)-[:{RelType.SUPERSEDES}]->(o:{_B}) WHERE o.space = $space
WITH b, support, min(o.id) AS supersedes
RETURN {projected('b', 'valid_from', 'valid_to', 'event_at', 'recorded_at')} AS b, support, supersedes
ORDER BY coalesce(b.event_at, b.recorded_at), b.id
"""
_GET_MANY = f"MATCH (b:{_B}) WHERE b.id IN $ids AND b.space = $space" + _HYDRATE
# The read path's view of active beliefs: statement, subject, cited ids, and the cited turns
# (``evidence.recall_values``) through the id constraint, in the same round trip; one row
# of lists (a record per row cost the driver more than the values).
# The reads of given beliefs (``_RECALL``, ``_CITES``, ``_LINES``) seek them by id (hinted):
# a plan made while the store held few beliefs scanned the (space, status) index instead, and
# still did right after 20,000 active beliefs were added (40,202 db hits against 469).
_RECALL = f"""
MATCH (b:{_B}) USING INDEX SEEK b:{_B}(id) WHERE b.id IN $ids AND b.space = $space AND b.status = 'active'
CALL (b) {{
  UNWIND coalesce(b.evidence_ids, []) AS evidence_id
  MATCH (e:{_EV} {{id: evidence_id}}) WHERE e.space = $space
  RETURN collect({recall_values('e')}) AS cited
}}
RETURN collect([b.id, b.statement, b.subject, b.evidence_ids, cited]) AS beliefs
"""
# ``_RECALL`` without the turns: the ids of a belief's cited turns still stored.
_CITES = f"""
MATCH (b:{_B}) USING INDEX SEEK b:{_B}(id) WHERE b.id IN $ids AND b.space = $space AND b.status = 'active'
CALL (b) {{
  UNWIND coalesce(b.evidence_ids, []) AS evidence_id
  MATCH (e:{_EV} {{id: evidence_id}}) WHERE e.space = $space
  RETURN collect(e.id) AS stored
}}
RETURN collect([b.id, b.subject, b.evidence_ids, stored]) AS beliefs
"""
# The columns of a ``BeliefLine``, as one list per belief.
_LINE = "[b.id, b.subject, b.attribute, b.statement, b.value, b.evidence_ids]"
# Each asked subject's active beliefs with one of the attributes, through the (space,
# subject_key, attribute) index, in event-time order (``_HYDRATE``'s): one row of
# [asked subject, line] pairs.
_ABOUT = f"""
UNWIND $subjects AS asked
CALL (asked) {{
  MATCH (b:{_B}) WHERE b.space = $space AND b.subject_key = asked[1] AND b.attribute IN $attributes
    AND b.status = 'active'
  RETURN b ORDER BY coalesce(b.event_at, b.recorded_at), b.id
}}
RETURN collect([asked[0], {_LINE}]) AS lines
"""
_LINES = f"""
MATCH (b:{_B}) USING INDEX SEEK b:{_B}(id) WHERE b.id IN $ids AND b.space = $space AND b.status = 'active' AND b.attribute IN $attributes
RETURN collect({_LINE}) AS lines
"""
# The beliefs of a space, filtered by what the caller gives: one fixed statement per
# combination (``_filtered``), so that each names only its own predicates and the planner
# seeks the (space, subject_key, attribute) index rather than scanning every :Belief.
_FILTERS = {"subject": "b.subject_key = $subject", "attribute": "b.attribute = $attribute", "status": "b.status = $status"}


def _filtered(given: Sequence[str]) -> str:
    """The listing statement for the filters ``given`` (names from ``_FILTERS``, never input)."""
    where = " AND ".join(["b.space = $space", *(_FILTERS[name] for name in given)])
    return f"MATCH (b:{_B}) WHERE {where}" + _HYDRATE


_CANDIDATES = f"""
MATCH (c:{_C}) WHERE c.space = $space AND ($status IS NULL OR c.status = $status)
RETURN properties(c) AS c ORDER BY c.recorded_at, c.id
"""
_SUPERSEDE_CHECK = f"""
MATCH (o:{_B} {{id: $old, space: $space}}), (n:{_B} {{id: $new, space: $space}})
RETURN EXISTS {{ (n)-[:{RelType.SUPERSEDES}]->(o) }} AS linked
"""
_SUPERSEDE = f"""
MATCH (o:{_B} {{id: $old, space: $space}}), (n:{_B} {{id: $new, space: $space}})
MERGE (n)-[:{RelType.SUPERSEDES}]->(o)
WITH o WHERE o.status = 'active'
SET o.status = 'superseded'
"""
_SUPERSEDED_BY = f"""
MATCH (n:{_B})-[:{RelType.SUPERSEDES}]->(o:{_B} {{id: $id, space: $space}})
WHERE n.space = $space RETURN n.id AS id ORDER BY id
"""
_SET_STATUS = f"""
MATCH (b:{_B}) WHERE b.space = $space AND b.id IN $ids
SET b.status = $status RETURN count(b) AS n
"""
_CITING = f"""
MATCH (b:{_B})-[:{RelType.SUPPORTED_BY}]->(e:{_EV})
WHERE e.id IN $ids AND e.space = $space AND b.space = $space
RETURN DISTINCT b.id AS id ORDER BY id
"""
_GET_CANDIDATES = f"MATCH (c:{_C}) WHERE c.id IN $ids AND c.space = $space RETURN properties(c) AS c"
_CANDIDATES_CITING = f"""
MATCH (c:{_C}) WHERE c.space = $space AND any(x IN c.evidence_ids WHERE x IN $ids)
RETURN c.id AS id ORDER BY id
"""
_NAMING = f"""
MATCH (b:{_B}) WHERE b.space = $space AND any(x IN b.evidence_ids WHERE x IN $ids)
RETURN b.id AS id ORDER BY id
"""
# The cited turns write-locked before a batch reads their tombstones: an erasure that
# deletes one either committed first (its tombstone is then read) or waits for the batch to
# commit (and then finds its beliefs by ``_NAMING``).
_LOCK_CITED = f"""
UNWIND $ids AS id
MATCH (e:{_EV} {{id: id, space: $space}})
SET e.space = e.space
"""
# A belief's ``RELATED_TO`` edge joins two entities, not the belief: DETACH leaves it, with
# the belief's id and the relation it stated (an erased "Pia lives in Grellport" stayed as
# Pia -> Grellport {belief}). It hangs off the entity the belief is ABOUT (``_CREATE_ABOUT``).
_DELETE_BELIEFS = f"""
MATCH (b:{_B}) WHERE b.space = $space AND b.id IN $ids
CALL (b) {{
  MATCH (b)-[:{RelType.ABOUT}]->(:{_ENT})-[r:{RelType.RELATED_TO}]->() WHERE r.belief = b.id
  DELETE r
}}
DETACH DELETE b
"""
_CANDIDATE_STATUS = f"""
MATCH (c:{_C}) WHERE c.space = $space AND c.id IN $ids SET c.status = $status RETURN count(c) AS n
"""
_DELETE_CANDIDATES = f"MATCH (c:{_C}) WHERE c.space = $space AND c.id IN $ids DETACH DELETE c"
_BY_REASON = f"""
MATCH (c:{_C}) WHERE c.space = $space UNWIND c.reasons AS reason
RETURN reason, count(*) AS n ORDER BY reason
"""
_COUNTS = f"""
MATCH (b:{_B}) WHERE b.space = $space RETURN 'belief_' + b.status AS key, count(*) AS n
UNION ALL
MATCH (c:{_C}) WHERE c.space = $space RETURN 'candidate_' + c.status AS key, count(*) AS n
"""
_IDS = f"MATCH (b:{_B}) WHERE b.space = $space RETURN b.id AS id ORDER BY id"


def _link_rows(beliefs: Sequence[Belief]) -> dict[str, list[dict[str, Any]]]:
    """Edge parameter lists (support, about/related, supersedes) for new beliefs."""
    support = [
        {"belief_id": b.id, "space": b.space, **support_props(link)} for b in beliefs for link in b.support
    ]
    about = [
        {
            "belief_id": b.id, "space": b.space, "attribute": b.attribute,
            "subject_id": entity_id(b.space, b.subject),
            "value_id": entity_id(b.space, b.value) if b.value else None,
        }  # fmt: skip
        for b in beliefs
    ]
    supersedes = [
        {"new_id": b.id, "old_id": b.supersedes, "space": b.space}
        for b in beliefs
        if b.supersedes is not None
    ]
    return {"support": support, "about": about, "supersedes": supersedes}


def _about_entities(about: Sequence[dict[str, Any]]) -> list[dict[str, str]]:
    """The entities ``about`` rows link (subjects and named values), once each, by id."""
    ids = {(r["subject_id"], r["space"]) for r in about} | {
        (r["value_id"], r["space"]) for r in about if r["value_id"] is not None
    }
    return [{"id": entity, "space": space} for entity, space in sorted(ids)]


def _add(
    tx: ManagedTransaction, beliefs: Sequence[Belief], candidates: Sequence[Candidate], done: StageDone | None
) -> tuple[list[str], list[str]]:
    beliefs, candidates = without_erased(beliefs, candidates, partial(_lock_then_tombstoned, tx))
    present = {r["id"] for r in run(tx, _PRESENT_BELIEFS, ids=[b.id for b in beliefs])}
    new_beliefs = list({b.id: b for b in beliefs if b.id not in present}.values())
    if new_beliefs:
        run(tx, _CREATE_BELIEFS, rows=[belief_props(b) for b in new_beliefs])
        links = _link_rows(new_beliefs)
        run(tx, _CREATE_SUPPORT, rows=links["support"])
        run(tx, _CREATE_ABOUT, rows=links["about"], entities=_about_entities(links["about"]))
        run(tx, _CREATE_SUPERSEDES, rows=links["supersedes"])
    present = {r["id"] for r in run(tx, _PRESENT_CANDIDATES, ids=[c.id for c in candidates])}
    new_candidates = list({c.id: c for c in candidates if c.id not in present}.values())
    if new_candidates:
        run(tx, _CREATE_CANDIDATES, rows=[candidate_props(c) for c in new_candidates])
    at = utc_now()
    by_space: dict[str, list[str]] = {}
    for belief in new_beliefs:
        by_space.setdefault(belief.space, []).append(belief.id)
    for space, ids in sorted(by_space.items()):
        mark_tx(tx, space, ("embed_belief",), ids, "new", at)
    if done is not None:
        record_level1_tx(tx, done)
    return [b.id for b in new_beliefs], [c.id for c in new_candidates]


def _lock_then_tombstoned(tx: ManagedTransaction, space: str, evidence_ids: list[str]) -> set[str]:
    """The tombstoned subset of ``evidence_ids``, read once the stored ones are write-locked
    (``_LOCK_CITED``)."""
    run(tx, _LOCK_CITED, space=space, ids=sorted(evidence_ids))
    return tombstoned_tx(tx, space, evidence_ids)


def _supersede(tx: ManagedTransaction, space: str, old: str, new: str) -> bool:
    rows = run(tx, _SUPERSEDE_CHECK, space=space, old=old, new=new)
    if not rows or rows[0]["linked"]:
        return False
    run(tx, _SUPERSEDE, space=space, old=old, new=new)
    return True


def _set_status(tx: ManagedTransaction, space: str, ids: list[str], status: BeliefStatus) -> int:
    return int(run(tx, _SET_STATUS, space=space, ids=ids, status=status)[0]["n"])


def _delete(tx: ManagedTransaction, space: str, belief_ids: list[str], candidate_ids: list[str]) -> None:
    run(tx, _DELETE_BELIEFS, space=space, ids=belief_ids)
    run(tx, _DELETE_CANDIDATES, space=space, ids=candidate_ids)


class Neo4jBeliefStore:
    """The server ``BeliefStore`` on a shared :class:`Neo4jGraph`."""

    def __init__(self, graph: Neo4jGraph) -> None:
        self._graph = graph

    def add(
        self, beliefs: Sequence[Belief], candidates: Sequence[Candidate], done: StageDone | None = None
    ) -> tuple[list[str], list[str]]:
        """Write beliefs (with their edges), candidates and the ledger's bookkeeping (new
        beliefs' ``embed_belief`` marks, ``done``'s cleared ``level1``) in one transaction.

        Raises:
            ClosedError: the stores were closed.
            StoreError: Neo4j failed; nothing was committed.
        """
        if not beliefs and not candidates and done is None:
            return [], []
        return self._graph.write("add beliefs", _add, list(beliefs), list(candidates), done)

    @rereads
    def get(self, space: str, belief_id: str) -> Belief | None:
        """One belief of ``space``, or None."""
        found = self.get_many(space, [belief_id])
        return found[0] if found else None

    @rereads
    def recall_beliefs(self, space: str, belief_ids: Sequence[str]) -> list[RecallBelief]:
        """The active beliefs among ``belief_ids`` with their cited turns, in the order
        asked: one round trip, no support spans or reports."""
        if not belief_ids:
            return []
        ids = list(dict.fromkeys(belief_ids))
        (row,) = self._graph.read("recall beliefs", _RECALL, ids=ids, space=space)
        found = {b.id: b for b in map(recall_belief_from_values, row["beliefs"])}
        return [found[i] for i in ids if i in found]

    @rereads
    def belief_cites(self, space: str, belief_ids: Sequence[str]) -> list[BeliefCites]:
        """The active beliefs among ``belief_ids`` with the ids of their stored cited turns,
        in the order asked: ``recall_beliefs``' round trip without decoding the turns."""
        if not belief_ids:
            return []
        ids = list(dict.fromkeys(belief_ids))
        (row,) = self._graph.read("belief cites", _CITES, ids=ids, space=space)
        found = {b.id: b for b in map(belief_cites_from_values, row["beliefs"])}
        return [found[i] for i in ids if i in found]

    @rereads
    def beliefs_about(
        self, space: str, subjects: Sequence[str], attributes: Sequence[str]
    ) -> dict[str, list[BeliefLine]]:
        """Each subject's active beliefs with one of ``attributes``, in event-time order:
        one round trip for every subject (matched on ``subject_key``, as ``beliefs``)."""
        found: dict[str, list[BeliefLine]] = {subject: [] for subject in subjects}
        if not found or not attributes:
            return found
        (row,) = self._graph.read(
            "beliefs about", _ABOUT, space=space, attributes=list(dict.fromkeys(attributes)),
            subjects=[[subject, subject.casefold()] for subject in found],
        )  # fmt: skip
        for subject, values in row["lines"]:
            found[subject].append(belief_line_from_values(values))
        return found

    @rereads
    def belief_lines(self, space: str, belief_ids: Sequence[str], attributes: Sequence[str]) -> list[BeliefLine]:
        """The active beliefs among ``belief_ids`` with one of ``attributes``, in the order
        asked: one round trip, one row of lists."""
        ids = list(dict.fromkeys(belief_ids))
        if not ids or not attributes:
            return []
        (row,) = self._graph.read(
            "belief lines", _LINES, ids=ids, space=space, attributes=list(dict.fromkeys(attributes))
        )
        by_id = {line.id: line for line in map(belief_line_from_values, row["lines"])}
        return [by_id[i] for i in ids if i in by_id]

    @rereads
    def get_many(self, space: str, belief_ids: Sequence[str]) -> list[Belief]:
        """The beliefs of ``space`` among ``belief_ids``, in the order asked."""
        if not belief_ids:
            return []
        ids = list(dict.fromkeys(belief_ids))
        rows = self._graph.read("get beliefs", _GET_MANY, ids=ids, space=space)
        by_id = {b.id: b for b in map(self._belief, rows)}
        return [by_id[i] for i in ids if i in by_id]

    @rereads
    def beliefs(
        self,
        space: str,
        subject: str | None = None,
        attribute: str | None = None,
        status: BeliefStatus | None = "active",
    ) -> list[Belief]:
        """Beliefs by subject (case-insensitive), attribute and status, in event-time order."""
        params = {"subject": None if subject is None else subject.casefold(), "attribute": attribute, "status": status}
        given = [name for name, value in params.items() if value is not None]
        rows = self._graph.read("list beliefs", _filtered(given), space=space, **{name: params[name] for name in given})
        return [self._belief(row) for row in rows]

    @rereads
    def candidates(self, space: str, status: CandidateStatus | None = "rejected") -> list[Candidate]:
        """Refused candidates of ``space`` (status None = both kinds), oldest first."""
        rows = self._graph.read("list candidates", _CANDIDATES, space=space, status=status)
        return [candidate_from_props(r["c"]) for r in rows]

    def supersede(self, space: str, old_id: str, new_id: str) -> bool:
        """Record ``new SUPERSEDES old`` and mark ``old`` superseded; idempotent.

        Raises:
            ClosedError: the stores were closed.
            StoreError: Neo4j failed.
        """
        if old_id == new_id:
            return False
        return self._graph.write("supersede", _supersede, space, old_id, new_id)

    def superseded_by(self, space: str, belief_id: str) -> list[str]:
        """Ids of the beliefs that supersede ``belief_id``."""
        return [r["id"] for r in self._graph.read("superseded_by", _SUPERSEDED_BY, space=space, id=belief_id)]

    def set_status(self, space: str, belief_ids: Sequence[str], status: BeliefStatus) -> int:
        """Change the status of beliefs; returns how many matched.

        Raises:
            ClosedError: the stores were closed.
            StoreError: Neo4j failed.
        """
        if not belief_ids:
            return 0
        return self._graph.write("set status", _set_status, space, list(dict.fromkeys(belief_ids)), status)

    def set_candidate_status(self, space: str, candidate_ids: Sequence[str], status: CandidateStatus) -> int:
        """Change the status of candidates; returns how many exist.

        Raises:
            ClosedError: the stores were closed.
            StoreError: Neo4j failed.
        """
        if not candidate_ids:
            return 0
        ids = list(dict.fromkeys(candidate_ids))
        rows = self._graph.write("candidate status", run, _CANDIDATE_STATUS, space=space, ids=ids, status=status)
        return int(rows[0]["n"])

    @rereads
    def beliefs_citing(self, space: str, evidence_ids: Sequence[str]) -> list[Belief]:
        """Beliefs with a ``SUPPORTED_BY`` edge to any of ``evidence_ids``, any status."""
        if not evidence_ids:
            return []
        rows = self._graph.read("beliefs_citing", _CITING, space=space, ids=list(evidence_ids))
        return self.get_many(space, [r["id"] for r in rows])

    def beliefs_naming(self, space: str, evidence_ids: Sequence[str]) -> list[str]:
        """Ids of beliefs whose ``evidence_ids`` name any of ``evidence_ids`` (a scan of the
        space's beliefs, edges or not)."""
        if not evidence_ids:
            return []
        return [r["id"] for r in self._graph.read("beliefs naming", _NAMING, space=space, ids=list(evidence_ids))]

    def candidates_citing(self, space: str, evidence_ids: Sequence[str]) -> list[str]:
        """Ids of candidates that cite any of ``evidence_ids``."""
        if not evidence_ids:
            return []
        rows = self._graph.read("candidates_citing", _CANDIDATES_CITING, space=space, ids=list(evidence_ids))
        return [r["id"] for r in rows]


    @rereads
    def get_candidates(self, space: str, candidate_ids: Sequence[str]) -> list[Candidate]:
        """The candidates of ``space`` among ``candidate_ids``, in the order asked."""
        if not candidate_ids:
            return []
        ids = list(dict.fromkeys(candidate_ids))
        rows = self._graph.read("get candidates", _GET_CANDIDATES, ids=ids, space=space)
        by_id = {c.id: c for c in (candidate_from_props(r["c"]) for r in rows)}
        return [by_id[i] for i in ids if i in by_id]

    def delete(self, space: str, belief_ids: Sequence[str], candidate_ids: Sequence[str]) -> None:
        """Remove beliefs and candidates with all their edges, in one transaction.

        Raises:
            ClosedError: the stores were closed.
            StoreError: Neo4j failed; nothing was removed.
        """
        if belief_ids or candidate_ids:
            self._graph.write("delete beliefs", _delete, space, list(belief_ids), list(candidate_ids))

    def count_by_reason(self, space: str) -> dict[str, int]:
        """How many refused candidates carry each reason code."""
        return {r["reason"]: int(r["n"]) for r in self._graph.read("count_by_reason", _BY_REASON, space=space)}

    def counts(self, space: str) -> dict[str, int]:
        """Beliefs and candidates per status (``belief_<status>``, ``candidate_<status>``)."""
        return {r["key"]: int(r["n"]) for r in self._graph.read("counts", _COUNTS, space=space)}

    def ids(self, space: str) -> list[str]:
        """All belief ids of ``space``."""
        return [r["id"] for r in self._graph.read("belief ids", _IDS, space=space)]

    @staticmethod
    def _belief(row: dict[str, Any]) -> Belief:
        return belief_from_props(row["b"], row["support"], row["supersedes"])
