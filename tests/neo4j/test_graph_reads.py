"""How ``Neo4jGraph.read`` uses the driver: one session per live thread, kept across reads
(not one opened per read), the sessions of ended threads closed, a failed session replaced,
reads refused writes (read access mode), and driver failures as ``StoreError``."""

from __future__ import annotations

import threading
from typing import Any, cast

import pytest
from neo4j import Driver, Session

from eywa.errors import ClosedError, StoreError
from eywa.stores.neo4j.graph import Neo4jGraph
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j


class CountingDriver:
    """A driver that records the sessions it opens."""

    def __init__(self, driver: Driver) -> None:
        self._driver = driver
        self.sessions: list[Session] = []

    def session(self, **config: Any) -> Session:
        session = self._driver.session(**config)
        self.sessions.append(session)
        return session


def test_reads_keep_one_session_per_live_thread(neo4j_driver: Driver, neo4j_server: Neo4jServer) -> None:
    counting = CountingDriver(neo4j_driver)
    graph = Neo4jGraph(cast(Driver, counting), neo4j_server.database, owns_driver=False)
    assert [graph.read("probe", "RETURN $n AS n", n=n) for n in range(5)] == [[{"n": n}] for n in range(5)]
    assert len(counting.sessions) == 1

    opened = threading.Barrier(3)

    def reads(together: threading.Barrier | None = None) -> None:
        for n in range(3):
            assert graph.read("probe", "RETURN $n AS n", n=n) == [{"n": n}]
            if together is not None and n == 0:
                together.wait(timeout=30)  # all three hold their session before any ends

    workers = [threading.Thread(target=reads, args=(opened,)) for _ in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(counting.sessions) == 4
    ended = counting.sessions[1:]
    assert not any(s.closed() for s in ended)
    late = threading.Thread(target=reads)
    late.start()
    late.join()
    assert len(counting.sessions) == 5
    assert all(s.closed() for s in ended)  # closed when the next thread opened its session

    graph.close()
    assert all(s.closed() for s in counting.sessions)
    with pytest.raises(ClosedError):
        graph.read("probe", "RETURN 1 AS n")


def test_a_failed_read_is_a_store_error_and_the_next_read_gets_a_new_session(
    neo4j_driver: Driver, neo4j_server: Neo4jServer
) -> None:
    counting = CountingDriver(neo4j_driver)
    graph = Neo4jGraph(cast(Driver, counting), neo4j_server.database, owns_driver=False)
    with pytest.raises(StoreError, match="during probe"):
        graph.read("probe", "RETURN $missing + AS n")  # a syntax error: not retried
    with pytest.raises(StoreError, match="AccessMode|read access mode"):
        graph.read("probe", "CREATE (p:ReadProbe) RETURN 1 AS n")  # reads cannot write
    assert graph.read("probe", "RETURN 1 AS n") == [{"n": 1}]
    assert len(counting.sessions) == 3 and all(s.closed() for s in counting.sessions[:2])
    graph.close()


def test_read_rows_hold_the_values_the_driver_exports_without_its_export_walk(
    neo4j_driver: Driver, neo4j_server: Neo4jServer
) -> None:
    graph = Neo4jGraph(neo4j_driver, neo4j_server.database, owns_driver=False)
    values = (
        "RETURN 1 AS n, 'x' AS s, null AS none, [1, [2, 'y'], {a: [3]}] AS nested,"
        " {k: datetime('2023-05-09T08:30:00Z'), l: []} AS m"
    )
    assert graph.read("probe", values) == graph.read_exported("probe", values)
    assert graph.read("probe", "UNWIND [1, 2] AS n RETURN n") == [{"n": 1}, {"n": 2}]
    assert graph.read("probe", "RETURN 1 AS n LIMIT 0") == []
    # A column holding a graph entity is exported as the driver exports it (its properties).
    with neo4j_driver.session(database=neo4j_server.database) as session:
        session.run("MERGE (p:ReadRowsProbe {id: 'p1'})").consume()
    try:
        rows = graph.read("probe", "MATCH (p:ReadRowsProbe {id: 'p1'}) RETURN p, p.id AS id")
        assert rows == [{"p": {"id": "p1"}, "id": "p1"}]
    finally:
        with neo4j_driver.session(database=neo4j_server.database) as session:
            session.run("MATCH (p:ReadRowsProbe) DELETE p").consume()


SLOW = "UNWIND range(1, 400000000) AS x RETURN count(x) AS n"  # several seconds of work on the server


def test_a_read_or_write_over_the_transaction_timeout_is_terminated_by_neo4j(
    neo4j_driver: Driver, neo4j_server: Neo4jServer
) -> None:
    """``EYWA_NEO4J_TRANSACTION_TIMEOUT_S`` reaches the server with every read query and write
    transaction: a runaway one is a ``StoreError`` soon after the limit, not a connection
    held for as long as it runs."""
    import time

    graph = Neo4jGraph(neo4j_driver, neo4j_server.database, owns_driver=False, transaction_timeout_s=0.5)
    for call in (lambda: graph.read("slow", SLOW), lambda: graph.write("slow", lambda tx: tx.run(SLOW).consume())):
        started = time.monotonic()
        with pytest.raises(StoreError, match="(?i)timed? ?out|terminated"):
            call()
        assert time.monotonic() - started < 3.0
    assert graph.read("probe", "RETURN 1 AS n") == [{"n": 1}]  # the pool is fine after it
