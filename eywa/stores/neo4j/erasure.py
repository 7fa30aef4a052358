"""The erasure steps in Neo4j (server-mode ``ErasureStore``, see ``eywa.stores.erasure``).

``begin`` is one write transaction: the ``:Erasure`` node (erased ids and keyed content
hashes as lists, never content), ``:Tombstone`` nodes, the ``:Evidence`` nodes detached and
deleted with their ``:Signal`` nodes (``HAS_SIGNAL``, ``MENTIONS``, ``NEXT``,
``SUPPORTED_BY`` and ``CITES`` go with them), the ``near_text``/``far_text`` of the turns
around them rebuilt from the shared builder (``eywa.stores.context``, the same function
Level 0 uses), ``CO_MENTIONED`` weights taken back, entities left without mentions removed,
the erased ids taken out of the ``:Job`` nodes listing them, and ``embed_evidence`` marks so the vector stage drops the erased vectors and rebuilds the
ones of the turns next to them. The full-text index follows the nodes inside the transaction.

A selection of more than ``ERASE_CHUNK`` turns is not one transaction: one over a whole
10,000-turn space ran a 2 GB Neo4j out of heap, so no large space could be erased. The first
transaction records the erasure ``pending`` and tombstones every id; the turns then go in
transactions of ``ERASE_CHUNK`` (crash point ``erasure_chunk_removed`` after each). Every
step is idempotent: the record and tombstones are merged, a chunk works on the turns still
stored and rebuilds its neighbours' context from the turns not tombstoned, so counts and
weights are taken back once. A crash between chunks leaves a ``pending`` record that the
next open finishes (``resume_erasures``); until ``forget`` returns (or that open), a read may
still find the turns of chunks not yet removed.

The HMAC secret is a ``:StoreMeta {key: 'erasure_secret'}`` node, created once per
deployment (``MERGE``, so concurrent first uses agree) unless one is configured.
"""

from __future__ import annotations

import json
import secrets
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from datetime import datetime
from typing import Any, Final

from neo4j import ManagedTransaction

from eywa import crashpoints
from eywa.stores.context import SessionTurn, contexts_around, read_range
from eywa.stores.erasure import ErasedTurn, ErasureRecord, ErasureSelector, ErasureState
from eywa.stores.ledger import DERIVED_STAGES
from eywa.stores.neo4j.graph import Neo4jGraph, run
from eywa.stores.neo4j.labels import Label, RelType
from eywa.stores.neo4j.ledger import complete_tx, mark_tx
from eywa.stores.neo4j.level0 import LOCK_SESSIONS, take_back_co_mentions
from eywa.stores.neo4j.records import decodes, required_datetime, rereads, session_id, to_datetime
from eywa.stores.neo4j.space_residue import REMAINS, release

__all__ = ["ERASE_CHUNK", "Neo4jErasureStore"]

ERASE_CHUNK: Final = 1_000
"""Turns removed per transaction when an erasure selects more (module docstring)."""
_COUNTS: Final = ("turns", "signals", "mentions", "entities")

_EV, _SIG, _ENT, _ER = Label.EVIDENCE, Label.SIGNAL, Label.ENTITY, Label.ERASURE
_TOMB, _META = Label.TOMBSTONE, Label.STORE_META

_SECRET = f"""
MERGE (m:{_META} {{key: 'erasure_secret'}}) ON CREATE SET m.value = $candidate
RETURN m.value AS value
"""
_SELECT = f"""
MATCH (e:{_EV}) WHERE e.space = $space
  AND ($ids IS NULL OR e.id IN $ids)
  AND ($external IS NULL OR e.external_id IN $external)
  AND ($speaker IS NULL OR e.speaker = $speaker)
  AND ($session IS NULL OR e.session = $session)
  AND ($before IS NULL OR e.observed_at < $before)
  AND ($recorded_before IS NULL OR e.recorded_at < $recorded_before)
RETURN e.id AS id ORDER BY e.position, e.seq
"""
_HASHES = f"""
MATCH (e:{_EV}) WHERE e.space = $space AND ($ids IS NULL OR e.id IN $ids)
RETURN e.id AS id, e.content_hash AS hash
"""
_RECORD = f"""
MERGE (r:{_ER} {{id: $id}})
  ON CREATE SET r.space = $space, r.at = $at, r.author = $author, r.selector = $selector,
    r.state = 'pending', r.turn_ids = $turn_ids, r.content_macs = $macs,
    r.belief_ids = $belief_ids, r.candidate_ids = $candidate_ids, r.counts = '{{}}'
"""
_TOMBSTONE = f"UNWIND $ids AS id MERGE (t:{_TOMB} {{space: $space, id: id}}) ON CREATE SET t.at = $at"
_DOOMED = f"""
MATCH (e:{_EV}) WHERE e.id IN $ids AND e.space = $space
OPTIONAL MATCH (e)-[:{RelType.MENTIONS}]->(n:{_ENT})
RETURN e.id AS id, e.session AS session, e.seq AS seq, collect(n.id) AS entities
"""
_SESSION_TURNS = f"""
UNWIND $ranges AS r
MATCH (e:{_EV}) WHERE e.space = r.space AND e.session = r.session AND e.seq >= r.lo AND e.seq <= r.hi
  AND NOT EXISTS {{ MATCH (t:{_TOMB} {{space: e.space, id: e.id}}) }}  // erased (this step or a later chunk)
RETURN r.session AS session, e.id AS id, e.seq AS seq, e.speaker AS speaker, e.text AS text
"""
_DELETE_TURNS = f"""
MATCH (e:{_EV}) WHERE e.id IN $ids AND e.space = $space
OPTIONAL MATCH (e)-[:{RelType.HAS_SIGNAL}]->(s:{_SIG})
WITH e, collect(s) AS signals
FOREACH (s IN signals | DETACH DELETE s)
WITH e, size(signals) AS n, coalesce(e.bytes, 0) AS size
DETACH DELETE e
RETURN count(*) AS turns, sum(n) AS signals, sum(size) AS bytes
"""
# The removed turns taken off their space's usage counters (``level0._COUNT_USAGE``), last in
# the transaction, after ``mark_tx`` took the same ``:Backlog`` node's lock, as Level 0 takes it
# last (README "Server backends", lock order).
_TAKE_USAGE = f"""
MATCH (c:{Label.BACKLOG} {{space: $space}})
SET c.turns = coalesce(c.turns, 0) - $turns, c.bytes = coalesce(c.bytes, 0) - $bytes
"""
# Erased ids out of the jobs that list them (migration 0026 indexes ``:Job`` by space): a job
# kept the ids of turns erased after it was submitted; it keeps its other turns.
_DROP_FROM_JOBS = f"""
MATCH (j:{Label.JOB}) WHERE j.space = $space AND any(i IN j.evidence_ids WHERE i IN $ids)
SET j.evidence_ids = [i IN j.evidence_ids WHERE NOT i IN $ids]
"""
_ORPHANS = f"""
MATCH (n:{_ENT}) WHERE n.id IN $ids AND n.space = $space AND NOT EXISTS {{ (:{_EV})-[:{RelType.MENTIONS}]->(n) }}
  AND NOT EXISTS {{ (n)-[:{RelType.SAME_AS}]-() }}
DETACH DELETE n
RETURN count(*) AS n
"""
_SET_CONTEXT = f"""
UNWIND $rows AS row
MATCH (e:{_EV} {{id: row.id, space: $space}})
SET e.near_text = row.near_text, e.far_text = row.far_text
"""
_FINISH = f"""
MATCH (r:{_ER} {{id: $id}}) SET r.state = 'done', r.counts = $counts, r.done_at = $at, r.done_by = $origin
"""
_PROGRESS = f"MATCH (r:{_ER} {{id: $id}}) WHERE r.state = 'pending' SET r.counts = $counts"
_GET = f"MATCH (r:{_ER} {{id: $id}}) RETURN properties(r) AS r"
# Listing: one statement per shape, so each seeks its index. A ``$space IS NULL OR …``
# filter cannot be planned as a seek (the plan is made before the parameter is known), so it
# scanned every space's records. With a space: migration 0017's (space, at) index (``at``
# stated present, as every record has it), the state filtered on the space's records; without
# one, by state: 0010's (state, at) index; neither: every record (an operator's audit).
_LIST_RETURN = "RETURN properties(r) AS r ORDER BY r.at, r.id"
_LIST_SPACE = f"""
MATCH (r:{_ER}) WHERE r.space = $space AND r.at IS NOT NULL AND ($state IS NULL OR r.state = $state)
{_LIST_RETURN}
"""
_LIST_STATE = f"MATCH (r:{_ER}) WHERE r.state = $state AND r.at IS NOT NULL {_LIST_RETURN}"
_LIST_ALL = f"MATCH (r:{_ER}) {_LIST_RETURN}"
# Finished by another process since a time, for the local-mode vector sweep
# (``eywa.stores.qdrant.local``): 0010's (state, at) index seeks the done records, ``done_at``
# and ``done_by`` (the finishing store's origin; none before this release) are filtered on them.
_DONE_ELSEWHERE = f"""
MATCH (r:{_ER}) WHERE r.state = 'done' AND r.at IS NOT NULL AND ($since IS NULL OR r.done_at >= $since)
  AND coalesce(r.done_by, '') <> $origin
RETURN properties(r) AS r ORDER BY r.done_at, r.id
"""


class Neo4jErasureStore:
    """The server ``ErasureStore`` on a shared :class:`Neo4jGraph`."""

    def __init__(self, graph: Neo4jGraph, secret: bytes | None = None) -> None:
        self._graph = graph
        self._secret = secret
        self._origin = secrets.token_hex(8)  # this store's mark on the erasures it finishes

    def secret(self) -> bytes:
        """The configured secret, else the deployment's ``:StoreMeta`` one (created once).

        Raises:
            StoreError: Neo4j failed.
        """
        if self._secret is None:
            rows = self._graph.write("erasure secret", run, _SECRET, candidate=secrets.token_hex(32))
            self._secret = bytes.fromhex(rows[0]["value"])
        return self._secret

    def select(self, space: str, selector: ErasureSelector) -> list[str]:
        """Ids of the turns of ``space`` matching every given field, in stored order."""
        rows = self._graph.read(
            "select erasure", _SELECT, space=space,
            ids=list(selector.evidence_ids) if selector.evidence_ids is not None else None,
            external=list(selector.external_ids) if selector.external_ids is not None else None,
            speaker=selector.speaker, session=selector.session, before=selector.before,
            recorded_before=selector.recorded_before,
        )  # fmt: skip
        return [r["id"] for r in rows]

    def content_hashes(self, space: str, evidence_ids: Sequence[str] | None = None) -> dict[str, str]:
        ids = list(evidence_ids) if evidence_ids is not None else None
        return {r["id"]: r["hash"] for r in self._graph.read("content hashes", _HASHES, space=space, ids=ids)}

    def begin(self, record: ErasureRecord) -> dict[str, int]:
        """Record, tombstone and remove the turns, and rebuild what borrows their words, in
        one transaction.

        Raises:
            StoreError: Neo4j failed; nothing of the step was committed.
        """
        ids = [t.evidence_id for t in record.turns]
        if len(ids) <= ERASE_CHUNK:
            return self._graph.write("begin erasure", _begin, record)
        self._graph.write("record erasure", _record_pending, record)
        counts = dict.fromkeys(_COUNTS, 0)
        for start in range(0, len(ids), ERASE_CHUNK):
            removed = self._graph.write("erase turns", _remove, record, ids[start : start + ERASE_CHUNK])
            counts = {key: counts[key] + removed[key] for key in _COUNTS}
            crashpoints.reached("erasure_chunk_removed")
        return counts

    def progress(self, erasure_id: str, counts: Mapping[str, int]) -> None:
        self._graph.write("erasure progress", run, _PROGRESS, id=erasure_id, counts=json.dumps(dict(counts), sort_keys=True))

    def finish(self, erasure_id: str, counts: Mapping[str, int], at: datetime) -> None:
        self._graph.write(
            "finish erasure", run, _FINISH, id=erasure_id, counts=json.dumps(dict(counts), sort_keys=True), at=at,
            origin=self._origin,
        )  # fmt: skip

    def release(self, space: str) -> int:
        """Sessions left without turns and, once ``space`` holds no turn, its jobs, counters
        and space node, in one transaction (``space_residue``).

        Raises:
            StoreError: Neo4j failed.
        """
        return self._graph.write("release space", release, space)

    def remains(self, space: str) -> dict[str, int]:
        """Nodes per kind still holding ``space`` beside its audit trail (``space_residue``)."""
        return {r["kind"]: int(r["n"]) for r in self._graph.read("space remains", REMAINS, space=space) if r["n"]}

    def scrub(self) -> bool:
        """Nothing a client can do: Neo4j keeps a deleted node's property bytes in its store
        files until the record is reused, and the whole transaction in its transaction logs
        until they are pruned (``db.tx_log.rotation.retention_policy``). What an operator
        does about it is in README "Erasure"."""
        return True

    def atomic(self) -> AbstractContextManager[None]:
        """No shared transaction across stores here: each step is its own, and idempotent."""
        return nullcontext()

    @rereads
    def get(self, erasure_id: str) -> ErasureRecord | None:
        rows = self._graph.read("get erasure", _GET, id=erasure_id)
        return _record(rows[0]["r"]) if rows else None

    @rereads
    def erasures(self, space: str | None = None, state: ErasureState | None = None) -> list[ErasureRecord]:
        query = _LIST_SPACE if space is not None else _LIST_ALL if state is None else _LIST_STATE
        return [_record(r["r"]) for r in self._graph.read("list erasures", query, space=space, state=state)]

    @rereads
    def done_elsewhere_since(self, since: datetime | None) -> list[ErasureRecord]:
        """Every space's erasures that another store object (another process) finished at
        or after ``since`` (all of them when None), in the order they finished: what a
        process keeping vectors of its own (local-mode Qdrant) has to delete in its copy.
        Its own erasures deleted its points themselves (``finish_vectors``), and a point put
        back after one is left to the read path, which hydrates it to nothing.

        Raises:
            StoreError: Neo4j failed.
        """
        rows = self._graph.read("erasures done elsewhere", _DONE_ELSEWHERE, since=since, origin=self._origin)
        return [_record(r["r"]) for r in rows]


@decodes("Erasure")
def _record(props: dict[str, Any]) -> ErasureRecord:
    return ErasureRecord(
        id=props["id"], space=props["space"], at=required_datetime(props["at"]), author=props.get("author"),
        selector=ErasureSelector.model_validate_json(props["selector"]), state=props["state"],
        turns=tuple(ErasedTurn(evidence_id=i, content_mac=m)
                    for i, m in sorted(zip(props["turn_ids"], props["content_macs"], strict=True))),
        belief_ids=tuple(props["belief_ids"]), candidate_ids=tuple(props["candidate_ids"]),
        counts=json.loads(props["counts"]), done_at=to_datetime(props.get("done_at")),
    )  # fmt: skip


def _lock_sessions(tx: ManagedTransaction, space: str, sessions: Iterable[str]) -> None:
    """Write-lock the sessions (by name) before reading their turns, as Level 0 does
    (``level0.LOCK_SESSIONS``): a batch writing a turn beside an erased one either committed
    before this read (its context is rebuilt here) or reads after this commits."""
    run(tx, LOCK_SESSIONS, sessions=sorted({session_id(space, s) for s in sessions}))


def _begin(tx: ManagedTransaction, record: ErasureRecord) -> dict[str, int]:
    """The whole of ``begin`` in one transaction (a selection of at most ``ERASE_CHUNK``);
    the sessions are locked first, before the marks' counter (``_remove``), in the
    order Level 0 takes them."""
    ids = [t.evidence_id for t in record.turns]
    _lock_sessions(tx, record.space, (r["session"] for r in run(tx, _DOOMED, space=record.space, ids=ids)))
    _record_pending(tx, record)
    return _remove(tx, record, [t.evidence_id for t in record.turns])


def _record_pending(tx: ManagedTransaction, record: ErasureRecord) -> None:
    """The ``pending`` record and every id's tombstone. The derived stages' marks are cleared
    with each chunk's turns (``_remove``): all of them here made this transaction's cost grow
    with the square of the selection (``ledger.COMPLETE_CHUNK``), and a 10,000-turn
    ``drop_space`` failed at ``EYWA_NEO4J_TRANSACTION_TIMEOUT_S``. A mark left until its chunk
    is harmless: Level 1 finds the tombstone and writes nothing."""
    space, ids = record.space, [t.evidence_id for t in record.turns]
    run(
        tx, _RECORD, id=record.id, space=space, at=record.at, author=record.author,
        selector=record.selector.model_dump_json(), turn_ids=ids, macs=[t.content_mac for t in record.turns],
        belief_ids=list(record.belief_ids), candidate_ids=list(record.candidate_ids),
    )  # fmt: skip
    run(tx, _TOMBSTONE, space=space, ids=ids, at=record.at)


def _remove(tx: ManagedTransaction, record: ErasureRecord, ids: Sequence[str]) -> dict[str, int]:
    """Remove the turns among ``ids`` still stored (tombstoned already), with what borrows
    their words; returns what was removed."""
    space, ids = record.space, list(ids)
    doomed = run(tx, _DOOMED, space=space, ids=ids)
    counts = dict.fromkeys(_COUNTS, 0) | {"mentions": sum(len(d["entities"]) for d in doomed)}
    if not doomed:
        return counts
    _lock_sessions(tx, space, (d["session"] for d in doomed))  # a chunk's own; ``_begin`` locked them already
    take_back_co_mentions(tx, space, ((space, d["id"], entity) for d in doomed for entity in d["entities"]))
    by_session: dict[str, list[int]] = defaultdict(list)
    for d in doomed:
        by_session[d["session"]].append(d["seq"])
    ranges = [{"space": space, "session": s, "lo": lo, "hi": hi}
              for s, seqs in sorted(by_session.items()) for lo, hi in [read_range(seqs)]]  # fmt: skip
    sessions: dict[str, dict[int, SessionTurn]] = defaultdict(dict)
    for row in run(tx, _SESSION_TURNS, ranges=ranges):
        sessions[row["session"]][row["seq"]] = SessionTurn(row["id"], row["seq"], row["speaker"], row["text"])
    deleted = run(tx, _DELETE_TURNS, space=space, ids=ids)
    run(tx, _DROP_FROM_JOBS, space=space, ids=ids)
    counts["turns"], counts["signals"] = int(deleted[0]["turns"]), int(deleted[0]["signals"] or 0)
    entities = sorted({e for d in doomed for e in d["entities"]})
    counts["entities"] = int(run(tx, _ORPHANS, space=space, ids=entities)[0]["n"]) if entities else 0
    rows, beside = [], []
    for session, seqs in sorted(by_session.items()):
        turns = sessions[session]
        for evidence_id, context in contexts_around(turns, seqs).items():
            rows.append({"id": evidence_id, "near_text": context.near_text, "far_text": context.far_text})
        beside += [turns[n].id for s in seqs for n in (s - 1, s + 1) if n in turns]
    if rows:
        run(tx, _SET_CONTEXT, space=space, rows=rows)
    for stage in DERIVED_STAGES:  # the counter after the sessions, as Level 0 takes them
        complete_tx(tx, space, stage, ids)
    mark_tx(tx, space, ("embed_evidence",), [*ids, *beside], "reprocess", record.at)
    run(tx, _TAKE_USAGE, space=space, turns=counts["turns"], bytes=int(deleted[0]["bytes"] or 0))
    return counts
