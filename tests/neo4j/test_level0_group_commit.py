"""Level 0 batches added at the same moment share one transaction (``eywa.stores.neo4j.group_commit``).

Under sixteen agents each acknowledged write was a transaction and a commit of its own, and
the commit was the largest part of a write's time (issue #14's POST /turns on Neo4j). The
first write's transaction is held open here while seven more are added from other threads:
they wait for it, then commit together, each caller with its own batch's ids. A group's
failure stays with the batch that caused it: its turn tombstoned, it is refused alone and
the others of its group are committed. A batch numbered after turns another writer has
since added to its session (``numbered``) is left out of its group's write before anything
is written: refused alone, without rolling its neighbours back.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Concatenate, ParamSpec, TypeVar

import pytest
from neo4j import Driver, ManagedTransaction

from eywa.batches import PreparedBatch, coerce_turns, prepare_batch
from eywa.errors import ErasedError, SessionBusyError
from eywa.models import Entity, Evidence
from eywa.signals import detect_signals
from eywa.stores.neo4j.evidence import Neo4jEvidenceStore
from eywa.stores.neo4j.graph import Neo4jGraph
from eywa.stores.neo4j.labels import Label, RelType
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j

P = ParamSpec("P")
T = TypeVar("T")
_WAIT_S = 20.0


class HeldGraph(Neo4jGraph):
    """Counts the Level 0 transactions; the first waits for ``go`` before it begins."""

    def __init__(self, driver: Driver, database: str) -> None:
        super().__init__(driver, database, owns_driver=False)
        self.transactions = 0
        self.holding, self.go = threading.Event(), threading.Event()

    def write(
        self,
        operation: str,
        work: Callable[Concatenate[ManagedTransaction, P], T],
        /,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        if operation == "add evidence":
            self.transactions += 1
            if not self.holding.is_set():
                self.holding.set()
                assert self.go.wait(_WAIT_S)
        return super().write(operation, work, *args, **kwargs)


def _queued(store: Neo4jEvidenceStore, graph: HeldGraph, n: int) -> None:
    """Wait until ``n`` batches added after the held one are queued behind it, or (a store
    that does not group them) in transactions of their own."""
    deadline = time.monotonic() + _WAIT_S
    group = getattr(store, "_group", None)
    while len(getattr(group, "_queue", ())) + graph.transactions - 1 < n:
        assert time.monotonic() < deadline, "the batches never queued"
        time.sleep(0.01)


def _batch(store: Neo4jEvidenceStore, space: str, session: str, texts: list[str]) -> PreparedBatch:
    turns = coerce_turns([{"text": t, "speaker": "Rosa", "session": session} for t in texts])
    return prepare_batch(space, turns, store, detect_signals)


def _shifted(batch: PreparedBatch, by: int) -> tuple[list[Evidence], list[tuple[str, Entity]]]:
    """``batch``'s turns placed ``by`` seqs later in their session (prepared beside an
    earlier batch of the session that is not stored yet)."""
    return [e.model_copy(update={"seq": e.seq + by}) for e in batch.new], batch.mentions


def _count(driver: Driver, database: str, query: str, **params: Any) -> int:
    rows, _, _ = driver.execute_query(query, params, database_=database)
    return int(rows[0]["n"])


def _one_session_twice(store: Neo4jEvidenceStore, space: str) -> tuple[PreparedBatch, PreparedBatch, PreparedBatch]:
    """A batch of another session, then two of session "shared" prepared at once (both at
    seqs 0 and 1)."""
    first = _batch(store, space, "other", ["Rosa repaired a bicycle."])
    a = _batch(store, space, "shared", ["Rosa bought green paint.", "Rosa painted the shed."])
    b = _batch(store, space, "shared", ["Tomas walked the dog.", "Tomas fed the cat."])
    return first, a, b


def _held_then_grouped(
    store: Neo4jEvidenceStore, graph: HeldGraph, first: PreparedBatch, batches: list[PreparedBatch], **kwargs: Any
) -> list[Future[list[str]]]:
    """``first`` added and held in its transaction while ``batches`` are added and queue
    behind it (``kwargs`` to every ``add``), then released; the futures of all, in order,
    once done."""
    with ThreadPoolExecutor(len(batches) + 1) as pool:
        first_write = pool.submit(store.add, first.new, first.mentions, **kwargs)
        assert graph.holding.wait(_WAIT_S)
        futures = [pool.submit(store.add, x.new, x.mentions, **kwargs) for x in batches]
        _queued(store, graph, len(batches))
        graph.go.set()
    return [first_write, *futures]


@pytest.fixture
def held(neo4j_driver: Driver, neo4j_server: Neo4jServer) -> tuple[HeldGraph, Neo4jEvidenceStore]:
    """A store whose first Level 0 transaction waits for ``graph.go``."""
    graph = HeldGraph(neo4j_driver, neo4j_server.database)
    return graph, Neo4jEvidenceStore(graph)


def test_batches_added_during_a_transaction_commit_together_each_with_its_own_ids(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str, held: tuple[HeldGraph, Neo4jEvidenceStore]
) -> None:
    database, (graph, store) = neo4j_server.database, held
    first = _batch(store, neo4j_space, "w0", ["Rosa baked bread on Monday."])
    # Seven more writers; two of them continue one session (seqs 0-1, then 2-3).
    others = [_batch(store, neo4j_space, f"w{n}", [f"Rosa told story {n}.", f"Rosa sang song {n}."]) for n in range(1, 7)]
    later = _batch(store, neo4j_space, "w1", ["Rosa painted fence 7.", "Rosa fixed gate 7."])
    with ThreadPoolExecutor(8) as pool:
        first_write = pool.submit(store.add, first.new, first.mentions)
        assert graph.holding.wait(_WAIT_S)
        waiting: list[Future[list[str]]] = [pool.submit(store.add, b.new, b.mentions) for b in others]
        waiting.append(pool.submit(store.add, *_shifted(later, 2)))
        _queued(store, graph, 7)
        graph.go.set()
        assert first_write.result(_WAIT_S) == first.ids
        results = [f.result(_WAIT_S) for f in waiting]
    assert results == [b.ids for b in others] + [later.ids]
    assert graph.transactions == 2  # before: 8, one per batch
    assert _count(neo4j_driver, database, f"MATCH (e:{Label.EVIDENCE} {{space: $s}}) RETURN count(e) AS n", s=neo4j_space) == 15
    # The session written by two batches of the group is linked and has its context as if
    # they had come one after the other.
    rows, _, _ = neo4j_driver.execute_query(
        f"MATCH (a:{Label.EVIDENCE} {{space: $s, session: 'w1', seq: 1}})-[:{RelType.NEXT}]->(b:{Label.EVIDENCE})"
        " RETURN b.seq AS seq, a.near_text AS near", s=neo4j_space, database_=database,
    )  # fmt: skip
    assert [r["seq"] for r in rows] == [2]
    assert "painted fence 7" in rows[0]["near"]
    # Rosa is one entity, mentioned by every turn.
    mentions = f"MATCH (:{Label.EVIDENCE} {{space: $s}})-[:{RelType.MENTIONS}]->(n:{Label.ENTITY}) RETURN count(DISTINCT n) AS n"
    assert _count(neo4j_driver, database, mentions, s=neo4j_space) == 1


def test_a_refused_batch_in_a_group_is_refused_alone(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str, held: tuple[HeldGraph, Neo4jEvidenceStore]
) -> None:
    database, (graph, store) = neo4j_server.database, held
    first = _batch(store, neo4j_space, "a", ["Rosa planted tulips."])
    good = [_batch(store, neo4j_space, s, [f"Rosa visited harbour {s}."]) for s in ("b", "c")]
    erased = _batch(store, neo4j_space, "d", ["Rosa lost her keys."])
    neo4j_driver.execute_query(
        f"CREATE (:{Label.TOMBSTONE} {{space: $s, id: $id}})", s=neo4j_space, id=erased.ids[0], database_=database
    )
    with ThreadPoolExecutor(4) as pool:
        first_write = pool.submit(store.add, first.new, first.mentions)
        assert graph.holding.wait(_WAIT_S)
        futures = [pool.submit(store.add, b.new, b.mentions) for b in (good[0], erased, good[1])]
        _queued(store, graph, 3)
        graph.go.set()
        assert first_write.result(_WAIT_S) == first.ids
        assert futures[0].result(_WAIT_S) == good[0].ids
        assert futures[2].result(_WAIT_S) == good[1].ids
        with pytest.raises(ErasedError):
            futures[1].result(_WAIT_S)
    stored = f"MATCH (e:{Label.EVIDENCE} {{space: $s}}) RETURN count(e) AS n"
    assert _count(neo4j_driver, database, stored, s=neo4j_space) == 3
    assert graph.transactions == 2 + 3  # the group, then each of its batches alone


def test_batches_prepared_at_once_for_one_session_commit_together_as_one_after_the_other(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str, held: tuple[HeldGraph, Neo4jEvidenceStore]
) -> None:
    # Two writers to one session prepare their batches at the same moment: each numbers its
    # turns after the session's stored ones, so both hold seqs 0 and 1. Written in one
    # group, the second took the first's places in the session's context and the whole
    # group failed, then each batch was written again alone (4 transactions).
    database, (graph, store) = neo4j_server.database, held
    first, a, b = _one_session_twice(store, neo4j_space)
    assert [e.seq for e in a.new] == [e.seq for e in b.new] == [0, 1]
    done = _held_then_grouped(store, graph, first, [a, b])
    assert [f.result(_WAIT_S) for f in done] == [first.ids, a.ids, b.ids]
    assert graph.transactions == 2  # the held one, then the group: before, 4
    # As one after the other: each batch's turns linked in order, each with its own context.
    rows, _, _ = neo4j_driver.execute_query(
        f"MATCH (x:{Label.EVIDENCE} {{space: $s, session: 'shared'}})-[:{RelType.NEXT}]->(y:{Label.EVIDENCE})"
        " RETURN x.id AS x, y.id AS y, y.near_text AS near", s=neo4j_space, database_=database,
    )  # fmt: skip
    assert sorted((r["x"], r["y"]) for r in rows) == sorted([tuple(a.ids), tuple(b.ids)])
    near = {r["y"]: r["near"] for r in rows}
    assert "green paint" in near[a.ids[1]]
    assert "walked the dog" in near[b.ids[1]]


def test_a_numbered_batch_whose_seqs_were_taken_is_refused_in_its_group_the_others_committed(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str, held: tuple[HeldGraph, Neo4jEvidenceStore]
) -> None:
    # Two replicas' batches of one session, numbered at once, meet in one replica's group
    # (as when the other replica's committed first: here both are this store's). The second
    # is refused before the write; the group is not rolled back and written again alone.
    database, (graph, store) = neo4j_server.database, held
    first, a, b = _one_session_twice(store, neo4j_space)
    c = _batch(store, neo4j_space, "third", ["Rosa mended a sock."])
    done = _held_then_grouped(store, graph, first, [a, b, c], numbered=True)
    assert [done[i].result(_WAIT_S) for i in (0, 1, 3)] == [first.ids, a.ids, c.ids]
    with pytest.raises(SessionBusyError) as busy:
        done[2].result(_WAIT_S)
    assert busy.value.sessions == ("shared",)
    assert graph.transactions == 2  # the held one, then the group (its parts): none alone
    rows, _, _ = neo4j_driver.execute_query(
        f"MATCH (e:{Label.EVIDENCE} {{space: $s}}) RETURN e.session AS session, e.seq AS seq, e.id AS id",
        s=neo4j_space, database_=database,
    )  # fmt: skip
    assert sorted((r["session"], r["seq"], r["id"]) for r in rows) == sorted(
        [("other", 0, first.ids[0]), ("shared", 0, a.ids[0]), ("shared", 1, a.ids[1]), ("third", 0, c.ids[0])]
    )
    tomas = f"MATCH (n:{Label.ENTITY} {{space: $s, name: 'Tomas'}}) RETURN count(n) AS n"
    assert _count(neo4j_driver, database, tomas, s=neo4j_space) == 0  # nothing of the refused batch
