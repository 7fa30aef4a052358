"""The two statements of one Level 0 batch on Neo4j, each ``UNWIND`` over the whole batch.

``Neo4jEvidenceStore.add`` runs them in one write transaction: one read finds which turns
are stored or tombstoned and the stored turns around the batch in its sessions; the neighbour
context of the new turns and of the stored turns within reach is derived in Python
(``eywa.stores.context``); one write statement then writes the turns with their context,
links ``NEXT`` between consecutive turns, refreshes the stored neighbours' context, writes
the signals, upserts the mentioned entities (kind and aliases merged in Cypher), links the
mentions, adds the co-mention weights (``eywa.stores.entity_graph``), creates the pending
marks and, for an API write, the batch's Level 1 job. A batch costs two statements in one
transaction whatever its size; none is per turn or per session, and the job is no
transaction of its own.

Both statements (and ``EvidenceStore.prior``'s read) run with ``CYPHER replan=skip``: their
plans are unique-constraint and composite-index seeks whatever the store holds, an empty
one included (``tests/neo4j/test_level0_plans.py`` checks that no label is scanned), so
replanning them when the store's statistics move, as Neo4j does at most every
``dbms.cypher.min_replan_interval`` per cached plan, gains nothing. While a store grows,
that replanning was most of Neo4j's busy time for one-turn batches (thread dumps: 17 of 22
samples were planning): the write statement's ten subqueries cost far more to plan than a
small batch costs to run, and each parameter-size bucket Neo4j tells apart is a plan of its
own. Times are sent as ``records.epoch_parts``, not as Python datetimes.

One plan each. Neo4j 5.26 caches a plan per statement text and per size class of each list
parameter (0, 1, 2-10, 11-100… elements), so the write statement, whose dozen lists (the
turns, pairs, stored neighbours, signals, entities, mentions, co-mention weights…) change
length from batch to batch, had a plan per combination of size classes that came, each
planned when it first came: a single writer's 400 batches of four turns cached 15 plans of
the three statements, and the JVM spent 32-44 ms of CPU per batch instead of 15-17 while
they were being made. The three statements (and ``EvidenceStore.prior``'s) take their
values in one map parameter (``graph.one_parameter``: ``$b.turns`` …), which the plan cache
does not look into: one plan each whatever the batch, and the warm-up's first rehearsal
plans every later shape.

Lock order. Writers to one space mention the same entities, so they queue on them; the
order in which a batch locks an entity is what keeps that queue from deadlocking. Neo4j
5.26 guards a node with two lock kinds: ``NODE`` and ``NODE_RELATIONSHIP_GROUP_DELETE``
(NRGD). A plain ``SET`` takes ``NODE`` only. A ``SET`` whose right-hand side reads the node
(the kind and alias merge below) makes Cypher lock the node first, NRGD then ``NODE``, and
give that lock back after the write: the transaction keeps ``NODE`` (the write's own) but
not NRGD. Creating a relationship to the node (the ``MENTIONS`` of a new turn, a
``CO_MENTIONED``) takes NRGD again, exclusively for a ``MERGE`` that creates, shared for a
``CREATE`` (``MENTIONS`` was a ``MERGE`` when the cycle below was found; it is a
``CREATE`` now: see "A new turn's links"). So with the merging ``SET`` first, a batch past it held ``NODE`` and asked for
NRGD at its ``MENTIONS`` while a second batch, in its own merging ``SET``, held NRGD and
asked for ``NODE``: a cycle on one entity node, whatever order the entities came in
(``Neo.TransientError.Transaction.DeadlockDetected``, retried by the driver after about a
second; 40-50 retries per 960 four-turn batches of eight writers to one space). The upsert
(``UPSERT_ENTITIES``) therefore takes each entity's ``NODE`` lock with a plain ``SET``
(the Neo4j manual's idiom for a write lock before a dependent read) before anything else
touches it, in entity id order ($entities is sorted): a batch then asks for an entity's NRGD
only while it holds the entity's ``NODE``, which no other batch can, and a second batch
waits for ``NODE`` holding nothing of that entity. The other nodes two batches can share
are safe as they are: a session is write-locked by the batch's read before anything else
(``_CLAIM_SESSIONS``, below), a stored neighbouring turn is touched (its ``NEXT`` created,
its context set) only under its session's lock, and the space's ``:Backlog`` counter is
locked last, by a plain ``SET`` (``ledger._LOCK``). A Level 1
belief links entities too (``beliefs._CREATE_ABOUT``) and locks them the same way first.
``tests/neo4j/test_level0_lock_order.py`` replays both cycles.

A new turn's links. The write statement creates (``CREATE``) the ``HAS_TURN``, ``NEXT``,
``HAS_SIGNAL`` and ``MENTIONS`` relationships of the turns it creates itself (those still
flagged ``_COUNTING``), rather than merging them: a turn created in the statement has no
relationship yet, and a ``MERGE`` first looked for one (an ``Expand(Into)`` over the
session's, the neighbour's or the entity's relationships). PROFILE of the bench's
four-turn batches (session 42): the write statement's db hits 662-796 → 477-521, and a
single writer's JVM CPU per batch 19.2-19.5 → 16.2-17.1 ms (docs/latency.md, "Session 42"). A turn the statement did not
create (another transaction's, committed while this one waited on the id's constraint)
already has its links from that transaction, and gets none here.
``tests/neo4j/test_level0_plans.py`` checks both the plan and the links' counts.

Erasure beside Level 0. A turn's context holds its neighbours' words, and neither Level 0
nor the erasure (``eywa.stores.neo4j.erasure``) locks what it reads: a batch that read its
session before an erasure of a turn there committed wrote the erased words into the new
turn's context (and refreshed its stored neighbours' with them), while the erasure, which
read the session before the new turn existed, rebuilt neither. Both now write-lock the
stored sessions they work in (``LOCK_SESSIONS``, by id) before reading their turns, so one
reads what the other committed (``tests/neo4j/test_erasure_beside_level0.py``). Each takes
them before any other lock of its transaction, so they close no cycle with the locks
above; batches of one session queue on it from their read on rather than from their write.

Numbering beside other writers. A batch's new turns are numbered before the transaction
(``eywa.batches.prepare_batch``, after ``EvidenceStore.prior``'s read of each session's
highest seq); a process numbers the batches of one session one after the other
(``eywa.session_locks``), but two replicas over one Neo4j both numbered theirs after the
same stored turns and the session kept every seq twice (four writers per replica, three-turn
batches: 49 turns over 25 seqs). The read statement now locks the batch's sessions,
creating a new one first (``_CLAIM_SESSIONS``: the unique constraint makes a second creator
wait for the first's commit), and reads each session's next seq after the lock; a batch
written with ``numbered`` whose first new seq in a session is not that next seq is refused
before anything is written (``evidence._add``: ``SessionBusyError``), and ``Memory``
numbers it again. The lock is taken where the stored sessions' was, first, in id order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from neo4j import ManagedTransaction

from eywa.models import Entity
from eywa.stores.context import SessionTurn, TurnContext, contexts_around, read_range
from eywa.stores.entity_graph import co_mention_weights
from eywa.stores.neo4j.graph import one_parameter, run
from eywa.stores.neo4j.labels import Label, RelType
from eywa.stores.neo4j.ledger import ADD_JOBS, MARK_NEW
from eywa.stores.neo4j.records import EVIDENCE_TIMES, SIGNAL_TIMES, entity_props, from_epoch_parts

__all__ = [
    "LINK_MENTIONS", "LOCK_SESSIONS", "REPLAN_SKIP", "TOP_SEQ_ORDER", "UPSERT_ENTITIES", "WRITE_SIGNALS",
    "Sessions", "mentioned", "read_batch", "write_batch", "with_times",
]

REPLAN_SKIP = "CYPHER replan=skip "
"""The prefix of a statement whose plan does not depend on the store's statistics (see the
module docstring): a cached plan is used even when Neo4j would deem it stale."""

_EV, _SIG, _ENT, _SES, _SPACE = Label.EVIDENCE, Label.SIGNAL, Label.ENTITY, Label.SESSION, Label.SPACE

# (space, session) -> seq -> turn
Sessions = dict[tuple[str, str], dict[int, SessionTurn]]

# The stored sessions a batch or an erasure works in, write-locked in id order ($sessions
# sorted) before either reads their turns: see "Erasure beside Level 0" in the module docstring.
LOCK_SESSIONS = f"UNWIND $sessions AS id MATCH (ses:{_SES} {{id: id}}) SET ses.space = ses.space"
# A batch's sessions ($sessions: {id, space, name}, sorted by id) write-locked in id order,
# each created first if new (``MERGE`` on the unique id: a second batch creating the same
# session waits for the first's commit, then finds it and waits for its lock), so that two
# writers of one session, new or stored, read it one after the other: see "Numbering beside
# other writers" in the module docstring. A session the transaction then leaves without a
# turn (its turns all stored meanwhile) is released with the space's other empty sessions
# (``space_residue``).
_CLAIM_SESSIONS = f"""
UNWIND $sessions AS s
MERGE (ses:{_SES} {{id: s.id}}) ON CREATE SET ses.space = s.space, ses.name = s.name
SET ses.space = ses.space
"""
TOP_SEQ_ORDER = "e.space DESC, e.session DESC, e.seq DESC"
"""The order that finds a session's highest seq (``LIMIT 1``) as the first entry of the
(space, session, seq) index read backwards. Neo4j 5.26 reads an index in order only for
an ``ORDER BY`` over its keys in order: ordered by ``e.seq`` alone (space and session being
fixed by the match), the planner read every turn of the session and sorted them (``Top``),
5,002 db hits for a session of 5,000 turns in ``prior`` and as many in the batch read, on
every write (session 42; ``tests/neo4j/test_level0_plans.py``)."""
# What the batch meets in the graph, in one read inside the write transaction, once its
# sessions are locked (the first subquery): which of its ids are stored, which are
# tombstoned, the stored turns around its turns (``read_range`` of each session's new
# seqs), and where each session continues (one past its highest stored seq: one entry of the
# (space, session, seq) index read from its top, ``TOP_SEQ_ORDER``, as ``EvidenceStore.prior``
# reads it). Each collect returns one row, empty lists included.
_READ_BATCH = one_parameter(f"""{REPLAN_SKIP}
CALL () {{ {_CLAIM_SESSIONS} }}
CALL () {{ MATCH (e:{_EV}) WHERE e.id IN $ids RETURN collect(e.id) AS present }}
CALL () {{
  UNWIND $groups AS g
  MATCH (t:{Label.TOMBSTONE}) WHERE t.space = g.space AND t.id IN g.ids
  RETURN collect([t.space, t.id]) AS erased
}}
CALL () {{
  UNWIND $ranges AS r
  MATCH (e:{_EV}) WHERE e.space = r.space AND e.session = r.session AND e.seq >= r.lo AND e.seq <= r.hi
  RETURN collect([r.space, r.session, e.id, e.seq, e.speaker, e.text]) AS around
}}
CALL () {{
  UNWIND $sessions AS s
  CALL (s) {{
    MATCH (e:{_EV}) WHERE e.space = s.space AND e.session = s.name AND e.seq IS NOT NULL
    RETURN e.seq AS seq ORDER BY {TOP_SEQ_ORDER} LIMIT 1
  }}
  RETURN collect([s.space, s.name, seq + 1]) AS nexts
}}
RETURN present, erased, around, nexts
""")


def _set_times(var: str, names: Sequence[str]) -> str:
    """``SET`` items giving ``var`` its times from the row's ``times`` (``with_times``)."""
    return ", ".join(f"{var}.{name} = {from_epoch_parts(f'row.times[{i}]')}" for i, name in enumerate(names))


_SET_TURN_TIMES, _SET_SIGNAL_TIMES = _set_times("e", EVIDENCE_TIMES), _set_times("s", SIGNAL_TIMES)
# The mentioned entities, created or merged with the stored ones ($entities sorted by id). An
# entity's write lock is taken first, by the plain ``SET n.space`` (its value is the one
# stored: the space is part of the id), before the merging SET and before any relationship
# to it: see "Lock order" in the module docstring for why.
UPSERT_ENTITIES = f"""
UNWIND $entities AS row
MERGE (n:{_ENT} {{id: row.id}}) ON CREATE SET n.name = row.name
SET n.space = row.space
WITH n, row
SET n.kind = CASE WHEN 'person' IN [n.kind, row.kind] THEN 'person' ELSE row.kind END,
  n.aliases = COLLECT {{ UNWIND coalesce(n.aliases, []) + row.aliases AS a RETURN DISTINCT a ORDER BY a }}
"""
# The turns' signals ($signals: ``records.signal_props`` rows, ``with_times``).
WRITE_SIGNALS = f"""
UNWIND $signals AS row
MATCH (e:{_EV} {{id: row.props.evidence_id, space: row.props.space}})
MERGE (s:{_SIG} {{id: row.props.id}}) ON CREATE SET s += row.props, {_SET_SIGNAL_TIMES}
MERGE (e)-[:{RelType.HAS_SIGNAL}]->(s)
"""
# The co-mention weights ($weights) of the mentions linked before them.
_ADD_WEIGHTS = f"""
CALL () {{
  UNWIND $weights AS row
  MATCH (a:{_ENT} {{id: row.a, space: row.space}})
  MATCH (b:{_ENT} {{id: row.b, space: row.space}})
  MERGE (a)-[r:{RelType.CO_MENTIONED}]->(b)
    ON CREATE SET r.space = row.space, r.weight = row.weight
    ON MATCH SET r.weight = r.weight + row.weight
}}
"""
# The mentions ($mentions) of entities upserted before, and their co-mention weights ($weights).
LINK_MENTIONS = f"""
CALL () {{
  UNWIND $mentions AS row
  MATCH (e:{_EV} {{id: row.evidence_id, space: row.space}})
  MATCH (n:{_ENT} {{id: row.entity_id, space: row.space}})
  MERGE (e)-[:{RelType.MENTIONS}]->(n)
}}
{_ADD_WEIGHTS}"""
# The co-mention weights ($rows: {a, b, weight}) of mentions removed from the space's turns
# taken back; an edge left at no weight is deleted (``take_back_co_mentions``).
_TAKE_BACK_WEIGHTS = f"""
UNWIND $rows AS row
MATCH (a:{_ENT} {{id: row.a, space: $space}})-[r:{RelType.CO_MENTIONED}]->(b:{_ENT} {{id: row.b, space: $space}})
SET r.weight = r.weight - row.weight
WITH r WHERE r.weight <= 0 DELETE r
"""
# The turns this statement created carry this flag until ``_COUNT_USAGE`` counts them (in the
# same statement: no committed turn has it). A turn of the batch that another transaction
# created meanwhile (a batch re-sent while in flight: the unique constraint makes this one's
# MERGE wait for that commit, then match) has no flag and is not counted twice, nor linked
# again (its links are created only for flagged turns: "A new turn's links" above).
_COUNTING = "_counting"
# The space usage the quotas count (``EvidenceStore.usage``): each space's ``:Backlog`` node
# keeps ``turns`` and ``bytes`` (migration 0025 filled them), moved here by what this
# statement created, after ``MARK_NEW`` write-locked the node, so batches of a space add in
# turn; the erasure takes its turns off (``erasure._TAKE_USAGE``). ``$usage`` is one row per
# space of the batch's new turns, ``{space, ids}``.
_COUNT_USAGE = f"""
UNWIND $usage AS u
MATCH (c:{Label.BACKLOG} {{space: u.space}})
CALL (u) {{
  UNWIND u.ids AS id
  MATCH (e:{_EV} {{id: id}}) WHERE e.space = u.space AND e.{_COUNTING} = true
  REMOVE e.{_COUNTING}
  RETURN count(e) AS n, coalesce(sum(e.bytes), 0) AS b
}}
SET c.turns = coalesce(c.turns, 0) + n, c.bytes = coalesce(c.bytes, 0) + b
"""
# Every write of the batch in one statement, a unit subquery per kind of write, run in this
# order (a later one finds what an earlier one created).
_WRITE_BATCH = one_parameter(f"""{REPLAN_SKIP}
CALL () {{ UNWIND $spaces AS space MERGE (:{_SPACE} {{id: space}}) }}
CALL () {{
  UNWIND $sessions AS s
  MERGE (ses:{_SES} {{id: s.id}}) ON CREATE SET ses.space = s.space, ses.name = s.name
}}
CALL () {{
  UNWIND $turns AS row
  MATCH (ses:{_SES} {{id: row.session_id}})
  MERGE (e:{_EV} {{id: row.props.id}}) ON CREATE SET e += row.props, {_SET_TURN_TIMES}, e.{_COUNTING} = true
  WITH ses, e WHERE e.{_COUNTING} = true
  CREATE (ses)-[:{RelType.HAS_TURN}]->(e)
}}
CALL () {{
  UNWIND $pairs AS pair
  MATCH (a:{_EV} {{id: pair.a, space: pair.space}})
  MATCH (b:{_EV} {{id: pair.b, space: pair.space}})
  WITH a, b WHERE a.{_COUNTING} = true OR b.{_COUNTING} = true
  CREATE (a)-[:{RelType.NEXT}]->(b)
}}
CALL () {{
  UNWIND $contexts AS row
  MATCH (e:{_EV} {{id: row.id, space: row.space}})
  SET e.near_text = row.near_text, e.far_text = row.far_text
}}
CALL () {{
  UNWIND $signals AS row
  MATCH (e:{_EV} {{id: row.props.evidence_id, space: row.props.space}}) WHERE e.{_COUNTING} = true
  MERGE (s:{_SIG} {{id: row.props.id}}) ON CREATE SET s += row.props, {_SET_SIGNAL_TIMES}
  CREATE (e)-[:{RelType.HAS_SIGNAL}]->(s)
}}
CALL () {{ {UPSERT_ENTITIES} }}
CALL () {{
  UNWIND $mentions AS row
  MATCH (e:{_EV} {{id: row.evidence_id, space: row.space}}) WHERE e.{_COUNTING} = true
  MATCH (n:{_ENT} {{id: row.entity_id, space: row.space}})
  CREATE (e)-[:{RelType.MENTIONS}]->(n)
}}
{_ADD_WEIGHTS}CALL () {{ {MARK_NEW} }}
CALL () {{ {_COUNT_USAGE} }}
CALL () {{ {ADD_JOBS} }}
""")


def take_back_co_mentions(tx: ManagedTransaction, space: str, links: Iterable[tuple[str, str, str]]) -> None:
    """Take back the co-mention weights that the mentions ``links`` ((space, evidence id,
    entity id), removed from ``space``'s turns: an erasure, a re-derivation) added, as
    ``LINK_MENTIONS`` added them."""
    if weights := co_mention_weights(links):
        run(tx, _TAKE_BACK_WEIGHTS, space=space, rows=[{"a": a, "b": b, "weight": w} for (_, a, b), w in weights.items()])


def read_batch(
    tx: ManagedTransaction, rows: Sequence[dict[str, Any]]
) -> tuple[set[str], dict[str, list[str]], Sessions, dict[tuple[str, str], int]]:
    """One read: the ids of ``rows`` already stored, the tombstoned ones by space, the
    stored turns around them in their sessions, and each session's next seq (one past its
    highest stored seq; 0 for a new session), once the sessions are locked (``rows`` are
    evidence rows, ``{"props": …, "session_id": …}``)."""
    by_space: dict[str, list[str]] = {}
    for r in rows:
        by_space.setdefault(r["props"]["space"], []).append(r["props"]["id"])
    changed = _changed_seqs(rows)
    ranges = [
        {"space": space, "session": session, "lo": lo, "hi": hi}
        for (space, session), seqs in sorted(changed.items())
        for lo, hi in [read_range(seqs)]
    ]
    (found,) = run(tx, _READ_BATCH, b={
        "ids": [r["props"]["id"] for r in rows], "ranges": ranges, "sessions": _session_rows(rows),
        "groups": [{"space": space, "ids": ids} for space, ids in sorted(by_space.items())],
    })  # fmt: skip
    erased: dict[str, list[str]] = {}
    for space, evidence_id in found["erased"]:
        erased.setdefault(space, []).append(evidence_id)
    sessions: Sessions = {key: {} for key in changed}
    for space, session, evidence_id, seq, speaker, text in found["around"]:
        sessions[(space, session)][seq] = SessionTurn(evidence_id, seq, speaker, text)
    nexts = {key: 0 for key in sessions}
    nexts.update(((space, session), int(n)) for space, session, n in found["nexts"])
    return set(found["present"]), erased, sessions, nexts


def write_batch(
    tx: ManagedTransaction,
    new: Sequence[dict[str, Any]],
    sessions: Sessions,
    signals: Sequence[dict[str, Any]],
    mentions: Iterable[tuple[str, Entity]],
    marks: Sequence[dict[str, Any]],
    jobs: Sequence[dict[str, Any]] = (),
) -> None:
    """Every write of the batch in one statement: the new turns with their context, ``NEXT``
    links, the stored neighbours' refreshed context, signals, entities, mentions, co-mention
    weights, the pending marks (``marks``: rows of ``ledger.MARK_NEW``) and the batch's job
    (``jobs``: rows of ``ledger.ADD_JOBS``, none or one). ``new`` rows'
    props and ``signals`` are ``records.evidence_props`` / ``signal_props``: their times
    are ``epoch_parts``, set apart (``with_times``)."""
    for r in new:
        p = r["props"]
        sessions[(p["space"], p["session"])][p["seq"]] = SessionTurn(p["id"], p["seq"], p.get("speaker"), p["text"])
    contexts = _derive_contexts(sessions, new)
    new_ids = {r["props"]["id"] for r in new}
    entities, links = mentioned(new_ids, mentions)
    weights = co_mention_weights((link["space"], link["evidence_id"], link["entity_id"]) for link in links)
    run(tx, _WRITE_BATCH, b=dict(
        spaces=sorted({r["props"]["space"] for r in new}),
        sessions=_session_rows(new),
        turns=_turn_rows(new, contexts),
        pairs=_next_pairs(sessions, new),
        contexts=[
            {"id": evidence_id, "space": space, "near_text": c.near_text, "far_text": c.far_text}
            for evidence_id, (space, c) in sorted(contexts.items())
            if evidence_id not in new_ids
        ],
        signals=[with_times(s, SIGNAL_TIMES) for s in signals],
        entities=[entity_props(entities[k]) for k in sorted(entities)],
        mentions=links,
        weights=[{"space": space, "a": a, "b": b, "weight": w} for (space, a, b), w in weights.items()],
        marks=list(marks),
        usage=_usage_rows(new),
        jobs=list(jobs),
    ))  # fmt: skip


def _usage_rows(new: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """``_COUNT_USAGE``'s rows: the new turns' ids by space."""
    by_space: dict[str, list[str]] = {}
    for r in new:
        by_space.setdefault(r["props"]["space"], []).append(r["props"]["id"])
    return [{"space": space, "ids": ids} for space, ids in sorted(by_space.items())]


def _derive_contexts(sessions: Sessions, new: Sequence[dict[str, Any]]) -> dict[str, tuple[str, TurnContext]]:
    """Evidence id -> (space, context) of every turn whose context the new turns change."""
    contexts: dict[str, tuple[str, TurnContext]] = {}
    for (space, session), seqs in _changed_seqs(new).items():
        for evidence_id, context in contexts_around(sessions[(space, session)], seqs).items():
            contexts[evidence_id] = (space, context)
    return contexts


def _session_rows(new: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    sessions = {r["session_id"]: {"id": r["session_id"], "space": r["props"]["space"], "name": r["props"]["session"]}
                for r in new}  # fmt: skip
    return [sessions[k] for k in sorted(sessions)]


def _turn_rows(new: Sequence[dict[str, Any]], contexts: dict[str, tuple[str, TurnContext]]) -> list[dict[str, Any]]:
    """The ``:Evidence`` properties of the new turns, with their context."""
    rows = []
    for r in new:
        _, context = contexts[r["props"]["id"]]
        row = with_times({**r["props"], "near_text": context.near_text, "far_text": context.far_text}, EVIDENCE_TIMES)
        rows.append({**row, "session_id": r["session_id"]})
    return rows


def with_times(props: dict[str, Any], times: Sequence[str]) -> dict[str, Any]:
    """A row of the write statement: ``props`` but ``times`` (their ``epoch_parts``, which
    ``e += row.props`` would store as lists), and those times in order."""
    return {"props": {k: v for k, v in props.items() if k not in times}, "times": [props.get(t) for t in times]}


def _next_pairs(sessions: Sessions, new: Sequence[dict[str, Any]]) -> list[dict[str, str]]:
    """``NEXT`` from each new turn's predecessor and to its successor (by seq)."""
    pairs: set[tuple[str, str, str]] = set()
    for r in new:
        p = r["props"]
        turns = sessions[(p["space"], p["session"])]
        if (before := turns.get(p["seq"] - 1)) is not None:
            pairs.add((p["space"], before.id, p["id"]))
        if (after := turns.get(p["seq"] + 1)) is not None:
            pairs.add((p["space"], p["id"], after.id))
    return [{"space": sp, "a": a, "b": b} for sp, a, b in sorted(pairs)]


def mentioned(
    new_ids: set[str], mentions: Iterable[tuple[str, Entity]]
) -> tuple[dict[str, Entity], list[dict[str, str]]]:
    """The entities the new turns mention (one per id: aliases united, ``person`` wins; the
    statement merges them with the stored ones likewise) and their ``MENTIONS`` links."""
    mentioned: dict[str, Entity] = {}
    links: dict[tuple[str, str], dict[str, str]] = {}
    for evidence_id, entity in mentions:
        if evidence_id not in new_ids:
            continue
        if (previous := mentioned.get(entity.id)) is not None:
            entity = _united(previous, entity)
        mentioned[entity.id] = entity
        links[(evidence_id, entity.id)] = {"evidence_id": evidence_id, "entity_id": entity.id, "space": entity.space}
    return mentioned, [links[k] for k in sorted(links)]


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
