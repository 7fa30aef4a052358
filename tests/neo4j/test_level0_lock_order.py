"""Level 0 writers that mention the same entity queue on it instead of deadlocking.

The cycle this guards against was one entity node and two of Neo4j's lock kinds on it:
``NODE`` and ``NODE_RELATIONSHIP_GROUP_DELETE``. A ``SET`` whose right-hand side reads the
node (merging ``kind`` and ``aliases``) takes both, the latter first, and gives the latter
back at once; creating a relationship to the node (``MENTIONS``) takes the latter again.
So one writer, past its entity SET, held ``NODE`` and asked for the other, while a second
writer, in its entity SET, held the other and asked for ``NODE``: DeadlockDetected, and a
retry after about a second. ``level0`` now write-locks each entity with a plain ``SET``
first (see "Lock order" in its docstring).

The first test builds that interleaving on purpose: writer A stops right after the real
entity upsert of its statement, writer B's whole batch starts and waits on the entity,
then A's batch goes on to its ``MENTIONS``. The transactions are explicit (no driver
retry), so a deadlock fails the write instead of being retried away. The second test does
the same with a Level 1 belief about the entity in B's place (its ``ABOUT`` MERGE locked
the entity NRGD first, as a relationship-creating MERGE does). The third is the symptom
as the bench saw it: threads writing batches that name the same people into one space,
each through a store of its own (as replicas do: one store groups its concurrent batches
into one transaction), with the driver's deadlock retries counted.
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import UTC, datetime
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Concatenate, ParamSpec, TypeVar

import pytest
from neo4j import Driver, ManagedTransaction

from eywa.batches import PreparedBatch, coerce_turns, prepare_batch
from eywa.bench.deadlocks import DeadlockCounter
from eywa.models import Belief
from eywa.signals import detect_signals
from eywa.stores.neo4j import level0
from eywa.stores.neo4j.beliefs import Neo4jBeliefStore
from eywa.stores.neo4j.evidence import Neo4jEvidenceStore
from eywa.stores.neo4j.graph import Neo4jGraph, mapped
from eywa.stores.neo4j.labels import Label, RelType
from eywa.stores.neo4j.records import entity_props
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j

P = ParamSpec("P")
T = TypeVar("T")
_WAIT_S = 20.0


class OneTryGraph(Neo4jGraph):
    """Writes in one explicit transaction, never retried; ``before(tx)`` runs first in it,
    then the write waits for ``go`` (both optional)."""

    def __init__(self, driver: Driver, database: str) -> None:
        super().__init__(driver, database, owns_driver=False)
        self.before: Callable[[ManagedTransaction], None] | None = None
        self.ready, self.go = threading.Event(), threading.Event()
        self.go.set()

    def write(
        self,
        operation: str,
        work: Callable[Concatenate[ManagedTransaction, P], T],
        /,
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> T:
        with mapped(operation), self.driver.session(database=self.database) as session:
            with session.begin_transaction() as tx:
                if self.before is not None:
                    self.before(tx)  # type: ignore[arg-type]  # a Transaction runs what a ManagedTransaction does
                self.ready.set()
                assert self.go.wait(_WAIT_S)
                result = work(tx, *args, **kwargs)  # type: ignore[arg-type]
                tx.commit()
                return result


def _batch(store: Neo4jEvidenceStore, space: str, session: str, text: str) -> PreparedBatch:
    """One turn Ana speaks in ``session`` (so it mentions her)."""
    turns = coerce_turns([{"text": text, "speaker": "Ana", "session": session}])
    return prepare_batch(space, turns, store, detect_signals)


def _mentioners(driver: Driver, database: str, space: str) -> int:
    rows, _, _ = driver.execute_query(
        f"MATCH (:{Label.EVIDENCE} {{space: $space}})-[:{RelType.MENTIONS}]->"
        f"(:{Label.ENTITY} {{space: $space, name: 'Ana'}}) RETURN count(*) AS n",
        space=space, database_=database,
    )  # fmt: skip
    return int(rows[0]["n"])


def _blocked(driver: Driver, database: str) -> bool:
    """Whether some transaction waits for a lock."""
    rows, _, _ = driver.execute_query(
        "SHOW TRANSACTIONS YIELD status WHERE status STARTS WITH 'Blocked' RETURN count(*) AS n", database_=database
    )
    return int(rows[0]["n"]) > 0


def test_a_writer_past_its_entity_upsert_links_while_another_waits(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str
) -> None:
    database = neo4j_server.database
    plain = Neo4jEvidenceStore(Neo4jGraph(neo4j_driver, database, owns_driver=False))
    seed = _batch(plain, neo4j_space, "seed", "Ana moved to Lisbon.")
    plain.add(seed.new, seed.mentions)  # Ana is now a stored entity
    graph_a, graph_b = OneTryGraph(neo4j_driver, database), OneTryGraph(neo4j_driver, database)
    store_a, store_b = Neo4jEvidenceStore(graph_a), Neo4jEvidenceStore(graph_b)
    batch_a = _batch(store_a, neo4j_space, "a", "Ana adopted a dog.")
    batch_b = _batch(store_b, neo4j_space, "b", "Ana started running.")
    entities = sorted({e.id: entity_props(e) for _, e in batch_a.mentions}.values(), key=lambda row: row["id"])

    def upsert_entities(tx: ManagedTransaction) -> None:
        """Where A's own write statement stands right after its entity upsert."""
        tx.run(level0.UPSERT_ENTITIES, entities=entities).consume()

    graph_a.before = upsert_entities
    graph_a.go.clear()
    failures: list[BaseException] = []

    def write(store: Neo4jEvidenceStore, batch: PreparedBatch) -> None:
        try:
            store.add(batch.new, batch.mentions)
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            failures.append(exc)

    writer_a = threading.Thread(target=write, args=(store_a, batch_a))
    writer_a.start()
    assert graph_a.ready.wait(_WAIT_S)  # A has upserted Ana and holds what that leaves it
    writer_b = threading.Thread(target=write, args=(store_b, batch_b))
    writer_b.start()
    deadline = time.monotonic() + _WAIT_S
    while not _blocked(neo4j_driver, database):  # B waits on Ana
        assert time.monotonic() < deadline, "writer B never waited for writer A"
        time.sleep(0.02)
    graph_a.go.set()  # A goes on to its MENTIONS
    writer_a.join(_WAIT_S)
    writer_b.join(_WAIT_S)
    assert not writer_a.is_alive() and not writer_b.is_alive()
    assert failures == []
    assert _mentioners(neo4j_driver, database, neo4j_space) == 3


def test_a_belief_about_an_entity_waits_for_a_level0_writer_past_its_upsert(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str
) -> None:
    """Level 1 links the same entities (a belief's ``ABOUT``): it must queue the same way."""
    database = neo4j_server.database
    plain = Neo4jEvidenceStore(Neo4jGraph(neo4j_driver, database, owns_driver=False))
    seed = _batch(plain, neo4j_space, "seed", "Ana moved to Lisbon.")
    plain.add(seed.new, seed.mentions)
    graph_a = OneTryGraph(neo4j_driver, database)
    store_a = Neo4jEvidenceStore(graph_a)
    batch_a = _batch(store_a, neo4j_space, "a", "Ana adopted a dog.")
    entities = sorted({e.id: entity_props(e) for _, e in batch_a.mentions}.values(), key=lambda row: row["id"])

    def upsert_entities(tx: ManagedTransaction) -> None:
        tx.run(level0.UPSERT_ENTITIES, entities=entities).consume()

    graph_a.before = upsert_entities
    graph_a.go.clear()
    beliefs = Neo4jBeliefStore(OneTryGraph(neo4j_driver, database))
    belief = Belief(
        id=f"bel_{neo4j_space}", space=neo4j_space, statement="Ana lives in Lisbon.", subject="Ana", attribute="city",
        value="Lisbon", polarity="positive", modality="asserted", valid_from=None, valid_to=None,
        recorded_at=datetime(2024, 5, 1, tzinfo=UTC), status="active", extractor="rules", evidence_ids=tuple(seed.ids),
    )  # fmt: skip
    failures: list[BaseException] = []

    def attempt(write: Callable[[], object]) -> None:
        try:
            write()
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            failures.append(exc)

    writer_a = threading.Thread(target=attempt, args=(lambda: store_a.add(batch_a.new, batch_a.mentions),))
    writer_a.start()
    assert graph_a.ready.wait(_WAIT_S)
    level1 = threading.Thread(target=attempt, args=(lambda: beliefs.add([belief], []),))
    level1.start()
    deadline = time.monotonic() + _WAIT_S
    while not _blocked(neo4j_driver, database):
        assert time.monotonic() < deadline, "the belief never waited for writer A"
        time.sleep(0.02)
    graph_a.go.set()
    writer_a.join(_WAIT_S)
    level1.join(_WAIT_S)
    assert not writer_a.is_alive() and not level1.is_alive()
    assert failures == []
    assert _mentioners(neo4j_driver, database, neo4j_space) == 2
    rows, _, _ = neo4j_driver.execute_query(
        f"MATCH (:{Label.BELIEF} {{id: $id}})-[:{RelType.ABOUT}]->(n:{Label.ENTITY}) RETURN n.name AS name",
        id=belief.id, database_=database,
    )  # fmt: skip
    assert [r["name"] for r in rows] == ["Ana"]


@pytest.fixture
def deadlock_retries() -> Iterator[DeadlockCounter]:
    handler, driver_log = DeadlockCounter(), logging.getLogger("neo4j")
    driver_log.addHandler(handler)
    try:
        yield handler
    finally:
        driver_log.removeHandler(handler)


_PEOPLE = ("Ana", "Bruno", "Carla", "Dario", "Elena", "Fabio")


def _turns(writer: int, batch: int) -> list[dict[str, Any]]:
    """Four turns each naming three of the same six people (and spoken by one of them)."""
    return [
        {"text": f"{_PEOPLE[(writer + batch + turn) % 6]} met {_PEOPLE[(batch + turn + 2) % 6]} and "
                 f"{_PEOPLE[(writer + 4) % 6]} (writer {writer}, batch {batch}, turn {turn}).",
         "speaker": _PEOPLE[(writer + turn) % 6], "session": f"w{writer}"}
        for turn in range(4)
    ]  # fmt: skip


def test_writers_to_one_space_naming_the_same_people_never_deadlock(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, neo4j_space: str, deadlock_retries: DeadlockCounter
) -> None:
    """Each writer has a store of its own, as API replicas do: one store writes the batches
    that reach it together in one transaction (group commit), so writers sharing a store
    would never hold two transactions at once and could not deadlock whatever the lock order."""
    writers, batches = 6, 12
    stores = [Neo4jEvidenceStore(Neo4jGraph(neo4j_driver, neo4j_server.database, owns_driver=False))
              for _ in range(writers)]  # fmt: skip
    known = prepare_batch(neo4j_space, coerce_turns([{"text": f"{name} joined.", "speaker": name} for name in _PEOPLE]),
                          stores[0], detect_signals)  # fmt: skip
    stores[0].add(known.new, known.mentions)  # every person is a stored entity, later turns name them

    def write(writer: int) -> None:
        store = stores[writer]
        for batch in range(batches):
            prepared = prepare_batch(neo4j_space, coerce_turns(_turns(writer, batch)), store, detect_signals)
            store.add(prepared.new, prepared.mentions)

    with ThreadPoolExecutor(writers) as pool:
        list(pool.map(write, range(writers)))
    assert deadlock_retries.count == 0
    rows, _, _ = neo4j_driver.execute_query(
        f"MATCH (e:{Label.EVIDENCE} {{space: $space}}) RETURN count(e) AS n", space=neo4j_space,
        database_=neo4j_server.database,
    )  # fmt: skip
    assert rows[0]["n"] == len(_PEOPLE) + writers * batches * 4
