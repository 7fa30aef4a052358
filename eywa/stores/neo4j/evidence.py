"""Evidence, signals, entities and mentions as a Neo4j graph (server-mode ``EvidenceStore``).

One ``add`` call is written in one write transaction (the statements are in ``level0``),
which it shares with the calls made at the same moment by other threads
(``group_commit``: one commit for the group, each call's own outcome): the turns
(``:Evidence``), their ``:Signal`` nodes, ``(:Session)-[:HAS_TURN]->``, ``-[:NEXT]->``
between consecutive turns of a session, the mentioned ``:Entity`` nodes (upserted, aliases
merged), ``-[:MENTIONS]->`` edges and the co-mention weights
(``(:Entity)-[:CO_MENTIONED {space, weight}]->(:Entity)``) the graph route walks.

The same transaction stores each affected turn's keyword context: ``near_text`` (the words
of the turns at seq ± 1) and ``far_text`` (seq ± 2..3), for the new turns and for every
stored turn of their sessions within three seqs, since a new turn changes its neighbours'
context. The texts come from ``eywa.stores.context`` (the builder the embedded store and
erasure use too), computed in Python from one read of the sessions around the batch.
These are index data, like the embedded store's FTS rows, not part of the turn: ``Evidence``
stays immutable and ``get`` does not return them. The full-text index (``evidence_keyword``)
is maintained by Neo4j inside that transaction, so a turn is keyword-searchable as soon as
``add`` returns. The new turns' pending stage marks
(``eywa.stores.ledger``) are created in that transaction too, after checking that no new
id is tombstoned. The batch costs two statements (``level0``): one read, one write, each
``UNWIND`` over parameter lists; every query filters on ``space``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from eywa.contract import SpaceQuota, SpaceUsage, check_quota
from eywa.errors import ErasedError, SessionBusyError
from eywa.ids import entity_id, entity_key
from eywa.models import Entity, Evidence, SignalKind, utc_now
from eywa.stores.bundle import Batch
from eywa.signals.version import current_signals_version
from eywa.stores.evidence import PriorState, RecallTurn, RederivedTurn
from eywa.stores.ledger import TURN_STAGES, JobRecord
from eywa.stores.neo4j import level0, rederive
from eywa.stores.neo4j.group_commit import GroupCommit, Level0Batch, Outcome
from eywa.stores.neo4j.graph import Neo4jGraph, one_parameter, run
from eywa.stores.neo4j.ledger import ADD_JOBS, job_row, mark_row
from eywa.stores.neo4j.labels import Label, RelType
from eywa.stores.neo4j.records import (
    entity_from_props,
    evidence_from_props,
    evidence_props,
    micros,
    projected,
    recall_turn_from_values,
    rereads,
    session_id,
    signal_props,
)

_EV, _SIG, _ENT, _SPACE = Label.EVIDENCE, Label.SIGNAL, Label.ENTITY, Label.SPACE
_CHUNK = 1000

# The stored fields of a turn (a map projection; the index-only context fields are left
# out), times as epoch microseconds, and its signals likewise (``records.micros``).
_TURN_FIELDS = (
    ".id, .space, .session, .seq, .speaker, .role, .text, .content_hash, .metadata, .external_id, .author,"
    f" observed_at: {micros('e.observed_at')}, recorded_at: {micros('e.recorded_at')}"
)
_SIGNALS = f"collect({projected('s', 'window_start', 'window_end')}) AS signals"
_GET = f"""
MATCH (e:{_EV}) WHERE e.id IN $ids AND e.space = $space
OPTIONAL MATCH (e)-[:{RelType.HAS_SIGNAL}]->(s:{_SIG})
RETURN e {{{_TURN_FIELDS}}} AS e, {_SIGNALS}
"""
_EXISTING = f"MATCH (e:{_EV}) WHERE e.id IN $ids AND e.space = $space RETURN e.id AS id"
_SPEAKERS = f"MATCH (e:{_EV}) WHERE e.id IN $ids AND e.space = $space RETURN e.id AS id, e.speaker AS speaker"
_NEXT_SEQ = f"""
MATCH (e:{_EV}) WHERE e.space = $space AND e.session = $session
RETURN coalesce(max(e.seq) + 1, 0) AS n
"""
# A batch's prior state (``prior``): its stored ids, the entities it may name (by id, the
# name's key) and each session's highest seq (the (space, session, seq) index read backwards,
# one entry: ``level0.TOP_SEQ_ORDER``). Its plan is index seeks whatever the store holds:
# never replanned (``level0.REPLAN_SKIP``).
_PRIOR = one_parameter(f"""{level0.REPLAN_SKIP}
CALL () {{ MATCH (e:{_EV}) WHERE e.id IN $ids AND e.space = $space RETURN collect(e.id) AS existing }}
CALL () {{ MATCH (n:{_ENT}) WHERE n.id IN $entity_ids AND n.space = $space RETURN collect(properties(n)) AS entities }}
CALL () {{
  UNWIND $sessions AS session
  CALL (session) {{
    MATCH (e:{_EV}) WHERE e.space = $space AND e.session = session AND e.seq IS NOT NULL
    RETURN e.seq AS seq ORDER BY {level0.TOP_SEQ_ORDER} LIMIT 1
  }}
  RETURN collect([session, seq + 1]) AS seqs
}}
RETURN existing, entities, seqs
""")
_NEIGHBOURS = f"""
MATCH (a:{_EV} {{id: $id, space: $space}})
MATCH (e:{_EV}) WHERE e.space = $space AND e.session = a.session
  AND e.seq >= a.seq - $before AND e.seq <= a.seq + $after AND e.id <> a.id
OPTIONAL MATCH (e)-[:{RelType.HAS_SIGNAL}]->(s:{_SIG})
WITH e, {_SIGNALS} ORDER BY e.seq
RETURN e {{{_TURN_FIELDS}}} AS e, signals
"""
def recall_values(var: str) -> str:
    """Cypher for the read path's columns of the turn ``var`` as one list, in the order
    ``records.recall_turn_from_values`` reads them: no signals, the time as epoch
    microseconds, the entities it mentions. ``var`` is a caller's constant."""
    values = (
        f"{var}.id", f"{var}.session", f"{var}.seq", f"{var}.speaker", micros(f"{var}.observed_at"),
        f"{var}.text", f"{var}.metadata",
        f"[({var})-[:{RelType.MENTIONS}]->(n:{_ENT}) WHERE n.space = $space | n.id]",
    )  # fmt: skip
    return f"[{', '.join(values)}]"


# Both recall reads return one row holding a list: the driver builds a record and a dict
# per row, which cost more client CPU than decoding the values themselves.
_RECALL_TURNS = f"""
MATCH (e:{_EV}) WHERE e.id IN $ids AND e.space = $space
RETURN collect({recall_values('e')}) AS turns
"""
# Each anchor's session neighbours through the (space, session, seq) index, as [anchor,
# turn] pairs by anchor and seq (a turn near two anchors comes once per anchor); an anchor
# without neighbours comes once with a null turn.
_RECALL_NEIGHBOURS = f"""
MATCH (a:{_EV}) WHERE a.id IN $ids AND a.space = $space
OPTIONAL MATCH (e:{_EV}) WHERE e.space = $space AND e.session = a.session
  AND e.seq >= a.seq - $before AND e.seq <= a.seq + $after AND e.id <> a.id
WITH a, e ORDER BY a.id, e.seq
RETURN collect([a.id, CASE WHEN e IS NULL THEN null ELSE {recall_values('e')} END]) AS around
"""
_IDS_OF_SPACE = f"""
MATCH (e:{_EV}) WHERE e.space = $space
RETURN e.id AS id ORDER BY e.recorded_at, e.position, e.id
"""
_SPACES = f"""
MATCH (sp:{_SPACE}) WHERE EXISTS {{ MATCH (e:{_EV}) WHERE e.space = sp.id }}
RETURN sp.id AS space ORDER BY space
"""
_COUNT = f"MATCH (e:{_EV}) WHERE e.space = $space RETURN count(e) AS n"

# What each of $spaces holds (``usage``, and the quota check inside Level 0's transaction):
# the ``turns`` and ``bytes`` its ``:Backlog`` node keeps (``level0._COUNT_USAGE`` adds a
# batch's new turns, the erasure takes its turns off, migration 0025 counted the turns stored
# before): one node read by the unique (space) constraint, whatever the space holds (so its
# plan skips replanning, as Level 0's statements do). A space without the node holds nothing.
_USAGE = f"""{level0.REPLAN_SKIP}
UNWIND $spaces AS space
OPTIONAL MATCH (c:{Label.BACKLOG} {{space: space}})
RETURN space, coalesce(c.turns, 0) AS turns, coalesce(c.bytes, 0) AS bytes
"""
# The full count the counters must equal (tests): the space's turns and their bytes, from the
# (space, bytes) index of migration 0022 (every turn has ``bytes``: Level 0 stores it,
# migration 0021 filled older turns).
_COUNTED_USAGE = f"""{level0.REPLAN_SKIP}
UNWIND $spaces AS space
CALL (space) {{
  MATCH (e:{_EV}) USING INDEX e:{_EV}(space, bytes)
  WHERE e.space = space AND e.bytes IS NOT NULL
  RETURN count(e) AS turns, sum(e.bytes) AS bytes
}}
RETURN space, turns, bytes
"""
_COUNT_SIGNALS = f"""
MATCH (s:{_SIG}) WHERE s.space = $space
RETURN s.kind AS kind, count(s) AS n ORDER BY kind
"""
_ENTITIES = f"MATCH (n:{_ENT}) WHERE n.space = $space RETURN properties(n) AS n ORDER BY n.name, n.id"
# By id (the name's key), and the few entities that carry aliases, checked by the caller:
# those of the space only, through the (space, name) index (without the hint the planner
# scanned every :Entity of every space, so the lookup grew with the other spaces).
_ENTITIES_NAMED = f"""
MATCH (n:{_ENT}) WHERE n.id IN $ids AND n.space = $space RETURN properties(n) AS n
UNION
MATCH (n:{_ENT}) USING INDEX SEEK n:{_ENT}(space, name)
WHERE n.space = $space AND n.name IS NOT NULL AND size(coalesce(n.aliases, [])) > 0
RETURN properties(n) AS n
"""
_MENTIONS = f"""
MATCH (e:{_EV})-[:{RelType.MENTIONS}]->(n:{_ENT})
WHERE e.id IN $ids AND e.space = $space AND n.space = $space
RETURN e.id AS evidence_id, n.id AS entity_id ORDER BY evidence_id, entity_id
"""
_MENTIONING = f"""
MATCH (e:{_EV})-[:{RelType.MENTIONS}]->(n:{_ENT})
WHERE n.id IN $ids AND n.space = $space AND e.space = $space
WITH DISTINCT e
RETURN e.id AS id ORDER BY e.observed_at DESC, e.id LIMIT $limit
"""
# Both seek the signals of the space by kind and window start (migration 0016, hinted):
# without it they scanned every space's signals or turns.
_DATES_BETWEEN = f"""
CALL {{
  MATCH (s:{_SIG}) USING INDEX SEEK s:{_SIG}(space, kind, window_start)
  WHERE s.space = $space AND s.kind IN $kinds AND s.window_start < $hi AND s.window_end > $lo
  RETURN s.evidence_id AS id, s.window_start AS t
  UNION ALL
  MATCH (e:{_EV}) WHERE e.space = $space AND e.observed_at >= $lo AND e.observed_at < $hi
  RETURN e.id AS id, e.observed_at AS t
}}
WITH id, min(t) AS t
RETURN id ORDER BY t, id LIMIT $limit
"""
_WITH_DATE_SIGNALS = f"""
MATCH (e:{_EV})-[:{RelType.HAS_SIGNAL}]->(s:{_SIG}) USING INDEX SEEK s:{_SIG}(space, kind, window_start)
WHERE s.space = $space AND e.space = $space AND s.kind = $kind AND s.window_start IS NOT NULL
WITH DISTINCT e
RETURN e.id AS id ORDER BY e.observed_at DESC, e.id LIMIT $limit
"""
# The candidates among ``$ids`` that carry a date signal (``dated``): seeks on the evidence id.
_DATED = f"""
MATCH (e:{_EV}) WHERE e.id IN $ids AND e.space = $space
AND EXISTS {{ MATCH (e)-[:{RelType.HAS_SIGNAL}]->(s:{_SIG}) WHERE s.kind = $kind }}
RETURN e.id AS id
"""


def _chunks(items: Sequence[str], size: int = _CHUNK) -> list[list[str]]:
    values = list(dict.fromkeys(items))
    return [values[i : i + size] for i in range(0, len(values), size)]


def _add(tx: ManagedTransaction, batches: Sequence[Level0Batch]) -> list[Outcome]:
    """``batches`` (no two turns at one seq of a session: ``_parts``) written as one Level 0
    batch (see ``level0``): one read and one write statement, which also creates the
    batches' jobs (``ledger.job_row``s); with no new turn, the jobs' statement alone. With a
    quota (one for all: ``group_commit``), a third statement checks it (``_check_quota``)
    once the write holds the spaces' ``:Backlog`` locks. Each batch's outcome, in order: its
    new ids (a turn sent by two batches counted as new for the first), or ``SessionBusyError``
    for a ``numbered`` batch whose first new seq in a session is no longer where the session
    continues (``_busy``: another writer added turns to it since the batch was numbered),
    left out of the write while the others are written."""
    merged: dict[str, dict[str, Any]] = {}
    for b in batches:
        for r in b.rows:
            merged.setdefault(r["props"]["id"], r)
    present, erased, sessions, nexts = level0.read_batch(tx, list(merged.values()))
    claimed, outcomes, written = set(present), list[Outcome](), list[Level0Batch]()
    new: list[dict[str, Any]] = []
    for b in batches:
        mine = list({r["props"]["id"]: r for r in b.rows if r["props"]["id"] not in claimed}.values())
        if b.numbered and (busy := _busy(mine, nexts)):
            outcomes.append(SessionBusyError(mine[0]["props"]["space"], busy))
            continue
        for r in mine:
            key = (r["props"]["space"], r["props"]["session"])
            nexts[key] = max(nexts.get(key, 0), r["props"]["seq"] + 1)
        claimed.update(r["props"]["id"] for r in mine)
        outcomes.append([r["props"]["id"] for r in mine])
        written.append(b)
        new += mine
    jobs = [j for b in written for j in b.jobs]
    if not new:
        if jobs:
            run(tx, ADD_JOBS, jobs=jobs)
        return outcomes
    by_space: dict[str, list[str]] = {}
    for r in new:
        by_space.setdefault(r["props"]["space"], []).append(r["props"]["id"])
    for space, ids in sorted(by_space.items()):
        if found := sorted(set(erased.get(space, ())) & set(ids)):
            raise ErasedError(space, tuple(found))
    at = utc_now()
    marks = [mark_row(space, TURN_STAGES, ids, "new", at) for space, ids in sorted(by_space.items())]
    signals = _signals_of(new, written)
    mentions = [m for b in written for m in b.mentions]
    level0.write_batch(tx, new, sessions, signals, mentions, marks, jobs)
    if (quota := batches[0].quota) is not None:
        _check_quota(tx, new, quota)
    return outcomes


def _signals_of(new: Sequence[dict[str, Any]], batches: Sequence[Level0Batch]) -> list[dict[str, Any]]:
    """The signal rows of the ``new`` turns, from the batches that hold them."""
    by_id: dict[str, list[dict[str, Any]]] = {}
    for b in batches:
        for evidence_id, rows in b.signals.items():
            by_id.setdefault(evidence_id, rows)
    return [s for r in new for s in by_id[r["props"]["id"]]]


def _busy(new: Sequence[dict[str, Any]], nexts: dict[tuple[str, str], int]) -> list[str]:
    """The sessions in which a batch's ``new`` turns do not start where the session
    continues (``nexts``, read once the sessions were locked, and moved by the batches
    written before in the transaction): another writer added turns to them since the batch
    was numbered."""
    first: dict[tuple[str, str], int] = {}
    for r in new:
        key = (r["props"]["space"], r["props"]["session"])
        first[key] = min(first.get(key, r["props"]["seq"]), r["props"]["seq"])
    return sorted(session for (space, session), seq in first.items() if seq != nexts.get((space, session), 0))


def _check_quota(tx: ManagedTransaction, new: Sequence[dict[str, Any]], quota: SpaceQuota) -> None:
    """``check_quota`` of each space the ``new`` turns (just written by ``tx``) go to.

    The write statement ended by write-locking each of those spaces' ``:Backlog`` node
    (``ledger.MARK_NEW``), which every Level 0 write of a space with a new turn takes and
    keeps to its commit. So what this reads (read committed: every committed turn, and this
    transaction's own) includes every batch of the space that committed before, and no
    batch can commit a turn of the space before this transaction ends: batches written at
    the same moment, by the threads of one process or by replicas, are checked one after
    the other, each counting the ones before. The usage read includes the batch's own new
    turns, subtracted to report what the space held before it. Raising here rolls the whole
    transaction back: the refused batch leaves no turn, mention, mark or job.

    Cost: one more statement in the transaction, a read of each space's ``:Backlog`` node
    (its ``turns`` and ``bytes``, which the write statement just moved: ``level0._COUNT_USAGE``),
    the same whatever the space holds. The counters hold what the write created, so a turn
    of the batch created meanwhile by the same batch re-sent (counted there, not here) is
    still subtracted below: the check compares what the space holds after this write with
    the quota, which is exact; only the refusal's split between held and new can be off by
    such a turn.

    Raises:
        QuotaExceededError: a space would go over ``quota`` (the transaction rolls back).
    """
    added: dict[str, list[int]] = {}
    for r in new:
        added.setdefault(r["props"]["space"], []).append(int(r["props"]["bytes"]))
    for row in run(tx, _USAGE, spaces=sorted(added)):
        sizes = added[row["space"]]
        held = SpaceUsage(turns=int(row["turns"]) - len(sizes), bytes=int(row["bytes"] or 0) - sum(sizes))
        check_quota(row["space"], held, len(sizes), sum(sizes), quota)


def _add_arguments(
    evidence: Sequence[Evidence], mentions: Sequence[tuple[str, Entity]]
) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]], list[tuple[str, Entity]]]:
    """``_add``'s arguments for a batch: the turns' rows (stamped with the signals version
    they were detected under), their signals by id, the mentions."""
    version = current_signals_version()
    rows = [
        {"props": evidence_props(e, position) | {"signals_version": version}, "session_id": session_id(e.space, e.session)}
        for position, e in enumerate(evidence)
    ]
    return rows, {e.id: signal_props(e) for e in evidence}, list(mentions)


def _add_group(tx: ManagedTransaction, batches: Sequence[Level0Batch]) -> list[Outcome]:
    """The ``batches`` (one quota) written as one batch (``_add``: one read and one write
    statement; see ``group_commit``); each batch's outcome, in order.

    Batches prepared at the same moment for one session can hold different turns at the same
    seq (each numbered after the session's stored turns): those are written one part after
    the other in the transaction (``_parts``), each part seeing the earlier parts' turns, as
    when the batches come one after the other; written as one batch, the later turn took the
    seq's place in the session's context and the group failed (then written again alone).
    A ``numbered`` one of them is refused in its part (its seqs are taken): ``_add``.
    """
    return [outcome for part in _parts(batches) for outcome in _add(tx, part)]


def _parts(batches: Sequence[Level0Batch]) -> list[list[Level0Batch]]:
    """``batches`` cut, in order, before each batch that holds a turn at a seq of its
    session that an earlier batch of the part holds with another turn."""
    parts: list[list[Level0Batch]] = []
    places: dict[tuple[str, str, int], str] = {}
    for b in batches:
        mine = {(r["props"]["space"], r["props"]["session"], r["props"]["seq"]): r["props"]["id"] for r in b.rows}
        if not parts or any(places.get(place, evidence_id) != evidence_id for place, evidence_id in mine.items()):
            parts.append([])
            places = {}
        parts[-1].append(b)
        places.update(mine)
    return parts


def _add_each(tx: ManagedTransaction, arguments: Sequence[tuple[Any, ...]], quota: SpaceQuota | None) -> None:
    """``_add`` of each batch's arguments in turn (with ``quota``), in one transaction."""
    for rows, signals, mentions in arguments:
        _add(tx, [Level0Batch(rows, signals, mentions, [], quota)])


class Neo4jEvidenceStore:
    """The server ``EvidenceStore`` on a shared :class:`Neo4jGraph`.

    Example:
        >>> store = Neo4jEvidenceStore(graph)  # doctest: +SKIP
        >>> store.add(batch.new, batch.mentions)  # doctest: +SKIP
        ['ev_…', …]
    """

    def __init__(self, graph: Neo4jGraph) -> None:
        self._graph = graph
        self._group = GroupCommit(self._write_group, self._write_alone)

    def _write_group(self, batches: Sequence[Level0Batch]) -> list[Outcome]:
        return self._graph.write("add evidence", _add_group, batches)

    def _write_alone(self, batch: Level0Batch) -> list[str]:
        (outcome,) = self._write_group([batch])
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    def add(
        self,
        evidence: Sequence[Evidence],
        mentions: Sequence[tuple[str, Entity]],
        *,
        job: JobRecord | None = None,
        quota: SpaceQuota | None = None,
        numbered: bool = False,
    ) -> list[str]:
        """Write a batch (its pending marks, and ``job`` when given) in one transaction;
        turns whose id exists are skipped (see ``EvidenceStore.add``). ``quota`` is checked
        in that transaction after the space's lock (``_check_quota``: one more statement,
        O(turns of the space)); ``None`` adds nothing. Batches added at the same moment by
        other threads share the transaction (``group_commit``): this returns once it is
        committed, or raises this batch's own error. ``numbered``: each session's first new
        seq is checked against where the session continues, read in the transaction once
        the session is locked (``_busy``; see ``EvidenceStore.add``).

        Raises:
            ErasedError: a new turn's id is tombstoned (nothing written).
            QuotaExceededError: the new turns would take their space over ``quota``
                (nothing written).
            SessionBusyError: ``numbered``, and another writer added turns to a session of
                the batch since it was numbered (nothing written).
            InvalidInputError: a turn's metadata is not JSON-serialisable (nothing written).
            ClosedError: the stores were closed.
            StoreError: Neo4j failed; nothing of the batch was committed.
        """
        jobs = [] if job is None else [job_row(job)]
        if not evidence:
            if jobs:
                self._graph.write("add job", run, ADD_JOBS, jobs=jobs)
            return []
        rows, signals, mentioned = _add_arguments(evidence, mentions)
        return self._group.add(Level0Batch(rows, signals, mentioned, jobs, quota, numbered))

    def rehearse_adds(self, batches: Sequence[Batch], quota: SpaceQuota | None = None) -> None:
        """Run ``add``'s statements on ``batches`` (``quota``'s check too, when given), one
        after the other in one transaction that is rolled back: nothing is stored (no turn,
        mark or backlog count), but Neo4j has planned and cached every statement run
        (``Neo4jGraph.rehearse``; the warm-up, ``eywa.warm_up``). A later batch sees the
        earlier ones' turns, as it would if they had committed.

        Raises:
            ErasedError: a turn of a batch is tombstoned.
            QuotaExceededError: the batches together go over ``quota``.
            ClosedError: the stores were closed.
            StoreError: Neo4j failed.
        """
        arguments = [_add_arguments(evidence, mentions) for evidence, mentions in batches if evidence]
        if arguments:
            self._graph.rehearse("rehearse add evidence", _add_each, arguments, quota)

    def signals_outdated(self, space: str, version: int, limit: int) -> list[str]:
        rows = self._graph.read("signals outdated", rederive.OUTDATED, space=space, version=version, limit=limit)
        return [r["id"] for r in rows]

    def count_signals_outdated(self, space: str, version: int) -> int:
        return int(self._graph.read("count signals outdated", rederive.COUNT_OUTDATED, space=space, version=version)[0]["n"])

    def entities_mentioned_before(self, space: str, before: datetime) -> list[Entity]:
        rows = self._graph.read("entities mentioned before", rederive.MENTIONED_BEFORE, space=space, before=before)
        return rederive.entities_from_rows(rows)

    def rederive(
        self, space: str, changed: Sequence[RederivedTurn], unchanged: Sequence[str], version: int, at: datetime
    ) -> list[str]:
        """See ``EvidenceStore.rederive``: one write transaction (``rederive.rederive_tx``)."""
        return self._graph.write("rederive signals", rederive.rederive_tx, space, changed, unchanged, version, at)

    def existing(self, space: str, ids: Sequence[str]) -> set[str]:
        """The subset of ``ids`` already stored in ``space``."""
        found: set[str] = set()
        for chunk in _chunks(ids):
            found.update(r["id"] for r in self._graph.read("existing", _EXISTING, ids=chunk, space=space))
        return found

    @rereads
    def get(self, space: str, ids: Sequence[str]) -> list[Evidence]:
        """The stored turns for ``ids`` (missing ones left out), in the order asked."""
        by_id: dict[str, Evidence] = {}
        for chunk in _chunks(ids):
            for row in self._graph.read("get evidence", _GET, ids=chunk, space=space):
                by_id[row["e"]["id"]] = evidence_from_props(row["e"], row["signals"])
        return [by_id[i] for i in ids if i in by_id]

    def speakers(self, space: str, ids: Sequence[str]) -> dict[str, str | None]:
        """The speaker of each stored turn of ``ids`` (missing ones left out)."""
        found: dict[str, str | None] = {}
        for chunk in _chunks(list(dict.fromkeys(ids))):
            found.update((r["id"], r["speaker"]) for r in self._graph.read("speakers", _SPEAKERS, ids=chunk, space=space))
        return found

    def next_seq(self, space: str, session: str) -> int:
        """One past the highest seq of ``session`` (0 for a new session)."""
        rows = self._graph.read("next_seq", _NEXT_SEQ, space=space, session=session)
        return int(rows[0]["n"])

    def prior(self, space: str, ids: Sequence[str], names: Sequence[str], sessions: Sequence[str]) -> PriorState:
        """A batch's stored ids, nameable entities and next seqs: one round trip."""
        entity_ids = sorted({entity_id(space, name) for name in names})
        (row,) = self._graph.read("prior", _PRIOR, b={
            "space": space, "ids": list(dict.fromkeys(ids)), "entity_ids": entity_ids,
            "sessions": list(dict.fromkeys(sessions)),
        })  # fmt: skip
        entities = sorted(map(entity_from_props, row["entities"]), key=lambda e: (e.name, e.id))
        next_seqs = dict.fromkeys(sessions, 0)
        next_seqs.update((session, int(n)) for session, n in row["seqs"])
        return PriorState(set(row["existing"]), entities, next_seqs)

    @rereads
    def neighbours(self, space: str, evidence_id: str, before: int, after: int) -> list[Evidence]:
        """Turns of the same session around ``evidence_id`` (itself excluded), by seq: one
        query finds and loads them."""
        rows = self._graph.read(
            "neighbours", _NEIGHBOURS, id=evidence_id, space=space, before=before, after=after
        )
        return [evidence_from_props(r["e"], r["signals"]) for r in rows]

    def ids(self, space: str | None = None) -> list[str]:
        """Evidence ids in insertion order, of one space or (space by space) of all."""
        spaces = [space] if space is not None else self.spaces()
        return [
            r["id"] for s in spaces for r in self._graph.read("ids", _IDS_OF_SPACE, space=s)
        ]

    def spaces(self) -> list[str]:
        """Every space that holds evidence."""
        return [r["space"] for r in self._graph.read("spaces", _SPACES)]

    def usage(self, space: str) -> SpaceUsage:
        """Turns of ``space`` and their bytes (``turn_bytes``), as its ``:Backlog`` node
        counts them (``_USAGE``)."""
        row = self._graph.read("usage", _USAGE, spaces=[space])[0]
        return SpaceUsage(turns=int(row["turns"]), bytes=int(row["bytes"] or 0))

    def counted_usage(self, space: str) -> SpaceUsage:
        """``usage`` from a full count of the space's turns (what the counters must equal)."""
        row = self._graph.read("counted usage", _COUNTED_USAGE, spaces=[space])[0]
        return SpaceUsage(turns=int(row["turns"]), bytes=int(row["bytes"] or 0))

    def count(self, space: str) -> int:
        """Number of turns in ``space``."""
        return int(self._graph.read("count", _COUNT, space=space)[0]["n"])

    def count_signals(self, space: str) -> dict[str, int]:
        """Signals of ``space`` by kind."""
        rows = self._graph.read("count_signals", _COUNT_SIGNALS, space=space)
        return {r["kind"]: int(r["n"]) for r in rows}

    @rereads
    def entities(self, space: str) -> list[Entity]:
        """Every entity of ``space``, by name."""
        return [entity_from_props(r["n"]) for r in self._graph.read("entities", _ENTITIES, space=space)]

    @rereads
    def entities_named(self, space: str, names: Sequence[str]) -> list[Entity]:
        """Entities of ``space`` named, or aliased, by one of ``names`` (``entity_key``)."""
        keys = {entity_key(name) for name in names}
        ids = sorted({entity_id(space, key) for key in keys})
        found = [entity_from_props(r["n"]) for r in self._graph.read("entities_named", _ENTITIES_NAMED, ids=ids, space=space)]
        chosen = {
            e.id: e for e in found
            if e.id in ids or any(entity_key(alias) in keys for alias in e.aliases)
        }  # fmt: skip
        return sorted(chosen.values(), key=lambda e: (e.name, e.id))

    def mentions(self, space: str, evidence_ids: Sequence[str]) -> dict[str, list[str]]:
        """Entity ids mentioned by each of ``evidence_ids``."""
        result: dict[str, list[str]] = {}
        for chunk in _chunks(evidence_ids):
            for row in self._graph.read("mentions", _MENTIONS, ids=chunk, space=space):
                result.setdefault(row["evidence_id"], []).append(row["entity_id"])
        return result

    @rereads
    def recall_turns(self, space: str, ids: Sequence[str]) -> list[RecallTurn]:
        """The read path's view of turns (no signals), with their mentions: one round trip."""
        found: dict[str, RecallTurn] = {}
        for chunk in _chunks(ids):
            (row,) = self._graph.read("recall turns", _RECALL_TURNS, ids=chunk, space=space)
            found.update((t.id, t) for t in map(recall_turn_from_values, row["turns"]))
        return [found[i] for i in ids if i in found]

    @rereads
    def recall_neighbours(
        self, space: str, ids: Sequence[str], before: int, after: int
    ) -> dict[str, list[RecallTurn]]:
        """The turns around each of ``ids`` in its session, by seq: one round trip for all."""
        around: dict[str, list[RecallTurn]] = {}
        for chunk in _chunks(ids):
            (row,) = self._graph.read(
                "recall neighbours", _RECALL_NEIGHBOURS, ids=chunk, space=space, before=before, after=after
            )
            for anchor, turn in row["around"]:
                turns = around.setdefault(anchor, [])
                if turn is not None:
                    turns.append(recall_turn_from_values(turn))
        return around

    def evidence_mentioning(self, space: str, entity_ids: Sequence[str], limit: int) -> list[str]:
        """Evidence ids that mention any of ``entity_ids``, newest first."""
        if not entity_ids or limit <= 0:
            return []
        rows = self._graph.read(
            "evidence_mentioning", _MENTIONING, ids=list(entity_ids), space=space, limit=limit
        )
        return [r["id"] for r in rows]

    def with_dates_between(self, space: str, start: datetime, end: datetime, limit: int) -> list[str]:
        """Evidence observed in [start, end) or with a date/time signal window overlapping it."""
        if limit <= 0:
            return []
        rows = self._graph.read(
            "with_dates_between", _DATES_BETWEEN, space=space, lo=start, hi=end, limit=limit,
            kinds=[SignalKind.DATE.value, SignalKind.TIME.value],
        )  # fmt: skip
        return [r["id"] for r in rows]

    def with_date_signals(self, space: str, limit: int) -> list[str]:
        """Evidence carrying at least one resolved date signal, newest first."""
        if limit <= 0:
            return []
        rows = self._graph.read(
            "with_date_signals", _WITH_DATE_SIGNALS, space=space, kind=SignalKind.DATE.value, limit=limit
        )
        return [r["id"] for r in rows]

    def dated(self, space: str, ids: Sequence[str]) -> set[str]:
        """The stored turns of ``space`` among ``ids`` that carry a date signal."""
        found: set[str] = set()
        for chunk in _chunks(ids):
            rows = self._graph.read("dated", _DATED, ids=chunk, space=space, kind=SignalKind.DATE.value)
            found.update(r["id"] for r in rows)
        return found
