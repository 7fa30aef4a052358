"""The stage ledger, job records and tombstones in Neo4j (server mode).

A pending stage is a ``(:Pending {space, item, stage, reason, since, due_at, attempts,
error})`` node (migration 0006: unique on (space, item, stage), indexed by (stage, due_at);
0014: by (space, item)), created in the transaction that stores its item and deleted when the stage is
done. Which extractor did a turn's Level 1 is the ``level1_by`` property of its
``:Evidence`` (bookkeeping, like ``near_text``: ``get`` does not return it). Jobs are
``:Job`` nodes, erased ids ``:Tombstone`` nodes, the vectors' embedder a ``:StoreMeta`` node.

Each space's ``(:Backlog {space, embed, level1})`` node (migrations 0018-0019) counts its
turns not yet embedded and not yet through Level 1, which ``space_backlog`` reads on every
recall's trace. The counts change in the statement that creates or deletes the marks
(``_counted``), so in the same transaction: no crash or failed commit can leave a mark
without its count. The two bulk markings (``mark_outdated``, an embedder switch) recount
their space in their transaction instead. A space's writes all update its one node, so they
take its lock in turn.

The ``*_tx`` functions run inside another store's write transaction (Level 0 marks new turns,
a Level 1 batch clears its turns' ``level1``). Store-wide statements are the only ones without a
space filter: the embedder's meta node, and the list of ``:Space`` nodes whose ``embedder``
differs from a new one (each such space is then marked in a transaction of its own).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Final

from neo4j import ManagedTransaction

from eywa.stores.ledger import (
    DERIVED_STAGES,
    PENDING_STAGES,
    JobRecord,
    MarkReason,
    PendingMark,
    PendingStage,
    SpaceBacklog,
    StageDone,
)
from eywa.stores.neo4j.graph import Neo4jGraph, run
from eywa.stores.neo4j.labels import Label
from eywa.stores.neo4j.records import decodes, required_datetime, rereads

__all__ = [
    "COMPLETE_CHUNK",
    "Neo4jJobRecords",
    "Neo4jStageLedger",
    "Neo4jTombstones",
    "complete_tx",
    "ADD_JOBS",
    "MARK_NEW",
    "job_row",
    "mark_row",
    "mark_tx",
    "pending_query",
    "recount_tx",
    "record_level1_tx",
    "tombstoned_tx",
]

COMPLETE_CHUNK: Final = 1000
"""Most marks one transaction of ``Neo4jStageLedger.complete`` clears. A transaction's
cost grew with the square of the marks it deleted (every probe of ``_counted`` reads through
the transaction's own deletions): on the 2-core test server 1,000 items took 0.31 s, 4,000
2.1 s, 8,000 11.6 s, and clearing ``level1`` then ``nous`` of 8,000 in one transaction 43 s,
past ``EYWA_NEO4J_TRANSACTION_TIMEOUT_S`` (30). Several statements in one transaction cost
the same (41.5 s in chunks of 1,000): only transactions of their own keep it linear."""

_P, _EV, _B, _SPACE = Label.PENDING, Label.EVIDENCE, Label.BELIEF, Label.SPACE
_JOB, _TOMB, _META = Label.JOB, Label.TOMBSTONE, Label.STORE_META

_BK = Label.BACKLOG
# The space's counter node, created when missing and write-locked (a property set, removed
# again by the statement's end) until the transaction ends: a space's mark changes queue.
# A plain SET, so Neo4j's NODE lock comes first: the counts' later ``c.embed = c.embed + …``
# reads the node, which makes Cypher take and give back its NODE_RELATIONSHIP_GROUP_DELETE
# lock around the write, harmless once NODE is held (``level0``'s "Lock order").
_LOCK = f"""MERGE (c:{_BK} {{space: row.space}}) ON CREATE SET c.embed = 0, c.level1 = 0
SET c._lock = true"""


def _counted(change: str) -> str:
    """A change of marks that keeps the spaces' ``:Backlog`` counts in the same statement.

    ``$marks`` are ``{space, items, stages, ...}`` (``mark_row``s); ``change`` creates or
    deletes the marks ``row.stages`` of one ``item``. Each item is probed before and after
    (seeks of the unique (space, item, stage) index): whether it has ``embed_evidence``
    pending, whether it has ``level1`` or ``nous`` pending, and how many of ``row.stages``.
    The differences, summed per space, move that space's counts; ``changed`` is the marks
    made or removed.
    An item must appear once per space in ``$marks`` (``mark_row`` de-duplicates), and a
    row's ``items`` must not be empty (the callers skip empty changes).

    The space's counter node is write-locked first (``_LOCK``), so two transactions changing
    the same space's marks run their probes one after the other: under read committed, two
    concurrent MERGEs of the same mark (a batch re-sent while in flight) would otherwise
    both see it absent and both count it.

    In Level 0's statement this comes last, after the entities are locked: every batch of a
    space takes the counter after the entities, so it closes no cycle (none of the observed
    deadlocks named it), and it is held only from here to the commit. Locking it first would
    queue the whole statement of every batch of the space behind it, a per-space lock.
    """
    def has(stages: str) -> str:
        # A forced seek of the unique (space, item, stage) index: on a small or freshly
        # emptied graph the planner costed a scan of every space's marks as cheaper.
        return (f"MATCH (q:{_P}) USING INDEX SEEK q:{_P}(space, item, stage) "
                f"WHERE q.space = row.space AND q.item = item AND q.stage IN {stages}")  # fmt: skip

    def probes(when: str) -> str:
        return (
            f"COUNT {{ {has('row.stages')} }} AS n{when}, "
            f"EXISTS {{ {has(repr(['embed_evidence']))} }} AS e{when}, "
            f"EXISTS {{ {has(repr(list(DERIVED_STAGES)))} }} AS l{when}"
        )

    return f"""
UNWIND $marks AS row
{_LOCK}
WITH row, c UNWIND row.items AS item
WITH row, c, item, {probes("0")}
CALL (row, item) {{ {change} }}
WITH c, n0, e0, l0, {probes("1")}
WITH c, sum(n1 - n0) AS changed, sum(toInteger(e1) - toInteger(e0)) AS embed,
     sum(toInteger(l1) - toInteger(l0)) AS level1
SET c.embed = c.embed + embed, c.level1 = c.level1 + level1
REMOVE c._lock
"""


MARK_NEW: Final = _counted(f"""
UNWIND row.stages AS stage
MERGE (p:{_P} {{space: row.space, item: item, stage: stage}})
  ON CREATE SET p.reason = row.reason, p.since = row.at, p.due_at = row.at, p.attempts = 0
""")
"""Marks created with their counts, as part of a caller's statement (Level 0's batch write,
inside a ``CALL () {}``): ``$marks`` are ``mark_row``s, one per space."""
_MARK = MARK_NEW + "RETURN abs(sum(changed)) AS changed"
_COMPLETE = _counted(f"""
MATCH (p:{_P}) USING INDEX SEEK p:{_P}(space, item, stage)
WHERE p.space = row.space AND p.item = item AND p.stage IN row.stages DELETE p
""") + (
    "RETURN abs(sum(changed)) AS changed"
)
_TOMBSTONED = f"MATCH (t:{_TOMB}) WHERE t.id IN $ids AND t.space = $space RETURN t.id AS id"
_LEVEL1_BY = f"MATCH (e:{_EV}) WHERE e.id IN $ids AND e.space = $space SET e.level1_by = $done_by"
# Forced seeks, as in ``_counted``.
_FOR_ITEMS = f"""
MATCH (p:{_P}) USING INDEX SEEK p:{_P}(space, item)
WHERE p.item IN $items AND p.space = $space RETURN properties(p) AS p
"""
_UPDATE = f"""
MATCH (p:{_P}) USING INDEX SEEK p:{_P}(space, item, stage)
WHERE p.item IN $items AND p.space = $space AND p.stage = $stage
"""
# Every stage's count in one round trip, each through the (stage, due_at) index.
_BACKLOG = f"""
UNWIND $stages AS stage
CALL (stage) {{ MATCH (p:{_P}) WHERE p.stage = stage RETURN count(p) AS n }}
RETURN stage, n
"""
_SPACE_BACKLOG = f"OPTIONAL MATCH (c:{_BK} {{space: $space}}) RETURN c.embed AS embed, c.level1 AS level1"
# One space's counts from its marks, in the transaction of a bulk marking, its counter
# locked first: counted from the unique (space, item, stage) index alone, every value it
# needs being in the index entry. Hinted to seek: 0014's (space, item) index also matches
# and the planner took it, then read each mark's stage and item from the store.
_RECOUNT = f"""
WITH {{space: $space}} AS row
{_LOCK}
WITH c
CALL (c) {{
  MATCH (p:{_P}) USING INDEX SEEK p:{_P}(space, item, stage)
  WHERE p.space = $space AND p.item IS NOT NULL AND p.stage IS NOT NULL
  WITH p.item AS item, p.stage AS stage
  RETURN count(CASE WHEN stage = 'embed_evidence' THEN 1 END) AS embed,
         count(DISTINCT CASE WHEN stage IN $stages THEN item END) AS level1
}}
SET c.embed = embed, c.level1 = level1
REMOVE c._lock
"""
_LEVEL1_BACKLOG = f"MATCH (c:{_BK}) RETURN coalesce(sum(c.level1), 0) AS n"
_OUTDATED = f"""
MATCH (e:{_EV}) WHERE e.space = $space AND (e.level1_by IS NULL OR e.level1_by <> $done_by)
  AND NOT EXISTS {{ MATCH (q:{_P} {{space: $space, item: e.id, stage: 'level1'}}) }}
WITH e UNWIND $stages AS stage
MERGE (p:{_P} {{space: $space, item: e.id, stage: stage}})
  ON CREATE SET p.reason = 'reprocess', p.since = $at, p.due_at = $at, p.attempts = 0
RETURN count(DISTINCT e) AS n
"""


def pending_query(*, space: bool, due: bool) -> str:
    """``pending``'s statement. With a space, a forced seek of the unique (space, item,
    stage) index from the space: unhinted, a plan costed while the store held few marks
    scanned every space's ``:Pending`` nodes (7,601 label-scan rows for a space's 2,600
    marks beside another's 5,000: an erasure reads its space's embed marks twice). Without
    one, the (stage, due_at) index."""
    where = ["p.stage = $stage"] + (["p.due_at <= $due"] if due else [])
    if space:
        match = f"MATCH (p:{_P}) USING INDEX SEEK p:{_P}(space, item, stage) WHERE p.space = $space AND p.item IS NOT NULL AND "
    else:
        match = f"MATCH (p:{_P}) WHERE "
    return f"{match}{' AND '.join(where)} RETURN properties(p) AS p ORDER BY p.due_at LIMIT $limit"


_EMBEDDER = f"MATCH (m:{_META} {{key: 'embedder'}}) RETURN m.value AS value"
# The spaces whose vectors were not made with $embedder: a space's ``embedder`` (set when a
# switch marked it), else the store's recorded one. A label scan of the ``:Space`` nodes
# only (one per space), never of the turns.
_STALE_SPACES = f"""
OPTIONAL MATCH (m:{_META} {{key: 'embedder'}})
WITH m.value AS recorded
OPTIONAL MATCH (sp:{_SPACE}) WHERE coalesce(sp.embedder, recorded) IS NULL
  OR coalesce(sp.embedder, recorded) <> $embedder
WITH recorded, sp.id AS space ORDER BY space
RETURN recorded, collect(space) AS spaces
"""
# One space's turns and beliefs marked for re-embedding (found through the space indexes),
# and the space stamped with the embedder it is now owed to.
_MARK_SPACE = f"""
CALL () {{
  MATCH (e:{_EV}) WHERE e.space = $space RETURN e.id AS item, 'embed_evidence' AS stage
  UNION ALL
  MATCH (b:{_B}) WHERE b.space = $space RETURN b.id AS item, 'embed_belief' AS stage
}}
MERGE (p:{_P} {{space: $space, item: item, stage: stage}})
  ON CREATE SET p.reason = 'embedder', p.since = $at, p.due_at = $at, p.attempts = 0
"""
_STAMP_SPACE = f"MATCH (sp:{_SPACE} {{id: $space}}) SET sp.embedder = $embedder"
_SET_EMBEDDER = f"MERGE (m:{_META} {{key: 'embedder'}}) SET m.value = $value"
ADD_JOBS: Final = f"""
UNWIND $jobs AS job
MERGE (j:{_JOB} {{id: job.id}})
  ON CREATE SET j.space = job.space, j.evidence_ids = job.evidence_ids, j.submitted_at = job.submitted_at,
    j.author = job.author, j.request_id = job.request_id
"""
"""Jobs created (an existing id is kept), alone or as part of a caller's statement (Level 0's
batch write, inside a ``CALL () {}``, so an acknowledged write commits its job with its
turns): ``$jobs`` are ``job_row``s."""
_GET_JOB = f"MATCH (j:{_JOB} {{id: $id}}) RETURN properties(j) AS j"
_PRUNE_JOBS = f"MATCH (j:{_JOB}) WHERE j.submitted_at < $before DELETE j"
_TOMBSTONE = f"""
UNWIND $ids AS id
MERGE (t:{_TOMB} {{space: $space, id: id}}) ON CREATE SET t.at = $at
"""


def _changed(tx: ManagedTransaction, query: str, /, **params: Any) -> tuple[int, int]:
    """Run a write statement; (nodes created, nodes deleted)."""
    counters = tx.run(query, params).consume().counters
    return counters.nodes_created, counters.nodes_deleted


def mark_row(
    space: str, stages: Sequence[PendingStage], items: Sequence[str], reason: MarkReason | None = None,
    at: datetime | None = None,
) -> dict[str, Any]:
    """One row of ``MARK_NEW`` (the marks ``mark_tx`` would create for these items), or of
    ``_COMPLETE`` (the marks to delete; no reason or time)."""
    return {"space": space, "stages": list(stages), "items": list(dict.fromkeys(items)), "reason": reason, "at": at}


def job_row(job: JobRecord) -> dict[str, Any]:
    """One row of ``ADD_JOBS``."""
    return {
        "id": job.id, "space": job.space, "evidence_ids": list(job.evidence_ids), "submitted_at": job.submitted_at,
        "author": job.author, "request_id": job.request_id,
    }  # fmt: skip


def mark_tx(
    tx: ManagedTransaction, space: str, stages: Sequence[PendingStage], items: Sequence[str],
    reason: MarkReason, at: datetime,
) -> int:  # fmt: skip
    """Create marks inside the caller's transaction; existing marks are kept. Returns marks added."""
    if not items or not stages:
        return 0
    rows = run(tx, _MARK, marks=[mark_row(space, stages, items, reason, at)])
    return int(rows[0]["changed"])


def complete_tx(tx: ManagedTransaction, space: str, stage: PendingStage, items: Sequence[str]) -> int:
    """Delete marks inside the caller's transaction; returns how many existed."""
    if not items:
        return 0
    rows = run(tx, _COMPLETE, marks=[mark_row(space, (stage,), items)])
    return int(rows[0]["changed"])


def recount_tx(tx: ManagedTransaction, space: str) -> None:
    """Set ``space``'s counts from its marks, inside the caller's transaction (a bulk marking)."""
    run(tx, _RECOUNT, space=space, stages=list(DERIVED_STAGES))


def tombstoned_tx(tx: ManagedTransaction, space: str, evidence_ids: Sequence[str]) -> set[str]:
    """The tombstoned subset of ``evidence_ids``, read in the caller's transaction."""
    return {r["id"] for r in run(tx, _TOMBSTONED, space=space, ids=list(evidence_ids))} if evidence_ids else set()


def record_level1_tx(tx: ManagedTransaction, done: StageDone) -> None:
    """Clear ``level1`` of ``done``'s turns and record who did it, inside the caller's transaction."""
    complete_tx(tx, done.space, "level1", done.evidence_ids)
    run(tx, _LEVEL1_BY, space=done.space, ids=list(done.evidence_ids), done_by=done.done_by)


_MARK_KEYS: Final = frozenset({"space", "item", "stage", "reason", "since", "due_at"})


def _marks(rows: Sequence[dict[str, Any]]) -> list[PendingMark]:
    """The marks of ``rows``, without those deleted while the read ran.

    A read sees what other transactions commit while it runs (read committed): a mark that a
    worker completes between the index seek and the property read comes back as an empty
    map. It is no longer pending, so it is left out; reading it as a mark was a KeyError, a
    500 for a client re-sending turns while the workers completed their marks (reproduced:
    4 in 2,324 reads under two writers; ``tests/neo4j/test_ledger_race.py``). The map can
    also be partly read (a KeyError on ``stage``), so every key a mark needs is checked.
    """
    return [_mark(r["p"]) for r in rows if _MARK_KEYS <= r["p"].keys()]


@decodes("Job")
def _job(props: dict[str, Any]) -> JobRecord:
    return JobRecord(
        id=props["id"], space=props["space"], evidence_ids=tuple(props.get("evidence_ids") or ()),
        submitted_at=required_datetime(props["submitted_at"]), author=props.get("author"),
        request_id=props.get("request_id"),
    )  # fmt: skip


@decodes("Pending")
def _mark(props: dict[str, Any]) -> PendingMark:
    return PendingMark(
        space=props["space"], item_id=props["item"], stage=props["stage"], reason=props["reason"],
        since=required_datetime(props["since"]), due_at=required_datetime(props["due_at"]),
        attempts=int(props.get("attempts") or 0), error=props.get("error"),
    )  # fmt: skip


class Neo4jStageLedger:
    """The server ``StageLedger`` on a shared :class:`Neo4jGraph`."""

    def __init__(self, graph: Neo4jGraph) -> None:
        self._graph = graph

    def pending(
        self, stage: PendingStage, *, limit: int, space: str | None = None, due_before: datetime | None = None
    ) -> list[PendingMark]:
        """Marks of ``stage`` due by ``due_before``, earliest first (index on stage, due_at)."""
        if limit <= 0:
            return []
        query = pending_query(space=space is not None, due=due_before is not None)
        rows = self._graph.read("pending", query, stage=stage, space=space, due=due_before, limit=limit)
        return _marks(rows)

    def pending_for(self, space: str, item_ids: Sequence[str]) -> list[PendingMark]:
        """The marks of ``item_ids`` (index on space and item)."""
        if not item_ids:
            return []
        rows = self._graph.read("pending_for", _FOR_ITEMS, space=space, items=list(dict.fromkeys(item_ids)))
        return _marks(rows)

    def mark(self, space: str, stage: PendingStage, item_ids: Sequence[str], reason: MarkReason, at: datetime) -> int:
        """Mark items pending; existing marks are kept."""
        return self._graph.write("mark", mark_tx, space, (stage,), list(item_ids), reason, at)

    def complete(self, space: str, stage: PendingStage, item_ids: Sequence[str]) -> int:
        """Clear the marks, ``COMPLETE_CHUNK`` items per transaction (see the constant)."""
        items = list(item_ids)
        return sum(
            self._graph.write("complete", complete_tx, space, stage, items[start : start + COMPLETE_CHUNK])
            for start in range(0, len(items), COMPLETE_CHUNK)
        )

    def touch(self, space: str, stage: PendingStage, item_ids: Sequence[str], due_at: datetime) -> None:
        """Set the marks' next due time."""
        self._update(space, stage, item_ids, "SET p.due_at = $due", due=due_at)

    def fail(self, space: str, stage: PendingStage, item_ids: Sequence[str], error: str, due_at: datetime) -> None:
        """One more attempt, with its error and the next due time."""
        self._update(space, stage, item_ids, "SET p.attempts = coalesce(p.attempts, 0) + 1, p.error = $error, "
                     "p.due_at = $due", due=due_at, error=error)  # fmt: skip

    def _update(self, space: str, stage: PendingStage, item_ids: Sequence[str], assignment: str, **values: Any) -> None:
        if not item_ids:
            return

        def work(tx: ManagedTransaction) -> None:
            run(tx, _UPDATE + assignment, space=space, stage=stage, items=list(dict.fromkeys(item_ids)), **values)

        self._graph.write("update marks", work)

    def backlog(self) -> dict[PendingStage, int]:
        """Marks per stage: one query (an index count per stage), not one per stage; the
        API runs it before every write while ``EYWA_MAX_EMBED_BACKLOG`` is set."""
        counts: dict[PendingStage, int] = dict.fromkeys(PENDING_STAGES, 0)
        for row in self._graph.read("backlog", _BACKLOG, stages=list(PENDING_STAGES)):
            counts[row["stage"]] = int(row["n"])
        return counts

    def space_backlog(self, space: str) -> SpaceBacklog:
        """Turns of ``space`` not yet embedded / not yet through Level 1: its ``:Backlog``
        node (one seek of its unique space), whatever the backlog."""
        row = self._graph.read("space backlog", _SPACE_BACKLOG, space=space)[0]
        return SpaceBacklog(embed=int(row["embed"] or 0), level1=int(row["level1"] or 0))

    def level1_backlog(self) -> int:
        """Distinct turns with ``level1`` or ``nous`` pending: the spaces' counts summed."""
        return int(self._graph.read("level1 backlog", _LEVEL1_BACKLOG, stages=list(DERIVED_STAGES))[0]["n"])

    def mark_outdated(self, space: str, done_by: str, at: datetime) -> int:
        """Mark ``level1``/``nous`` for the turns whose Level 1 someone else did."""

        def work(tx: ManagedTransaction) -> int:
            rows = run(tx, _OUTDATED, space=space, done_by=done_by, at=at, stages=list(DERIVED_STAGES))
            recount_tx(tx, space)
            return int(rows[0]["n"]) if rows else 0

        return self._graph.write("mark outdated", work)

    def embedder(self) -> str | None:
        """The recorded embedder id."""
        rows = self._graph.read("embedder", _EMBEDDER)
        return str(rows[0]["value"]) if rows else None

    def switch_embedder(self, embedder_id: str, at: datetime) -> int:
        """Record the embedder; every space whose vectors another embedder made has its turns
        and beliefs marked for re-embedding, one transaction per space (see ``_switch_space``).

        A switch cut short (the process stopped between two spaces) is finished by the next
        open: the spaces already marked carry the new embedder and are not marked again,
        and the store's record changes only once every space was marked. Opening with the
        old embedder again marks the spaces that were switched back, since their marks
        would be served by it.
        """
        (row,) = self._graph.read("embedder switch", _STALE_SPACES, embedder=embedder_id)
        if not row["spaces"] and row["recorded"] == embedder_id:
            return 0  # the usual open: one read
        marked = sum(self._switch_space(str(space), embedder_id, at) for space in row["spaces"])
        self._graph.write("switch embedder", run, _SET_EMBEDDER, value=embedder_id)
        return marked

    def _switch_space(self, space: str, embedder_id: str, at: datetime) -> int:
        """Mark one space's turns and beliefs ``embed_*`` (reason ``embedder``) and stamp the
        space with ``embedder_id``, in one transaction; returns the marks added (a mark
        already pending is kept)."""

        def work(tx: ManagedTransaction) -> int:
            created, _ = _changed(tx, _MARK_SPACE, space=space, at=at)
            run(tx, _STAMP_SPACE, space=space, embedder=embedder_id)
            recount_tx(tx, space)
            return created

        return self._graph.write("switch embedder", work)


class Neo4jJobRecords:
    """The server ``JobRecords``."""

    def __init__(self, graph: Neo4jGraph) -> None:
        self._graph = graph

    def add_job(self, job: JobRecord) -> None:
        """Store a job; an existing id is kept."""

        self._graph.write("add job", run, ADD_JOBS, jobs=[job_row(job)])

    @rereads
    def get_job(self, job_id: str) -> JobRecord | None:
        """The job, or None."""
        rows = self._graph.read("get job", _GET_JOB, id=job_id)
        if not rows:
            return None
        return _job(rows[0]["j"])

    def prune_jobs(self, before: datetime) -> int:
        """Delete jobs submitted before ``before``."""

        def work(tx: ManagedTransaction) -> int:
            return _changed(tx, _PRUNE_JOBS, before=before)[1]

        return self._graph.write("prune jobs", work)


class Neo4jTombstones:
    """The server ``Tombstones``."""

    def __init__(self, graph: Neo4jGraph) -> None:
        self._graph = graph

    def add_tombstones(self, space: str, evidence_ids: Sequence[str], at: datetime) -> int:
        """Tombstone ids and clear their derived-stage marks, in one transaction."""
        if not evidence_ids:
            return 0

        def work(tx: ManagedTransaction) -> int:
            created, _ = _changed(tx, _TOMBSTONE, space=space, ids=list(dict.fromkeys(evidence_ids)), at=at)
            for stage in DERIVED_STAGES:
                complete_tx(tx, space, stage, evidence_ids)
            return created

        return self._graph.write("add tombstones", work)

    def tombstoned(self, space: str, evidence_ids: Sequence[str]) -> set[str]:
        """The tombstoned subset of ``evidence_ids``."""
        if not evidence_ids:
            return set()
        return {r["id"] for r in self._graph.read("tombstoned", _TOMBSTONED, space=space, ids=list(evidence_ids))}

