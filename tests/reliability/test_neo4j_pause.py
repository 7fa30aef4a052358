"""A Neo4j that stops answering (its JVM paused with SIGSTOP: a hung server, or one behind a
black hole) fails a call with ``StoreError`` within the configured bound, and the next call
after it answers again (SIGCONT) works.

Before ``EYWA_NEO4J_ACQUIRE_TIMEOUT_S`` and ``EYWA_NEO4J_LIVENESS_CHECK_S``, a pooled
connection was used unchecked, and a read waited for the server's own receive-timeout hint
(120 s) before failing: a recall on a paused server took 120.1 s to become a StoreError.

A query already sent when the server stops answering is bounded by the server, not by these
settings: Neo4j hints drivers to give up on a read after twice its
``server.bolt.connection_keep_alive`` (1m by default: 120 s), and sends a NOOP at least that
often while a query runs, so a slow query is not cut. The reliability server's keep-alive is
2 s (``neo4j_process.launcher``).

The reliability tests' own server (``restartable_neo4j``) is paused, never the shared one.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from pydantic import SecretStr

from eywa.errors import StoreError
from eywa.memory import Memory
from eywa.settings import EywaSettings
from eywa.stores.neo4j.audit_queries import Neo4jAuditQueries
from eywa.stores.neo4j.graph import Neo4jGraph
from eywa.stores.server import connect_neo4j
from eywa.stores.embedded.keys import SqliteKeyStore
from services.api.app import create_app, serve_in_thread
from tests.reliability.support import HashEmbedder

pytestmark = pytest.mark.neo4j

SPACE = "paused"
ACQUIRE_TIMEOUT_S = 2.0
SLACK_S = 3.0  # the retry budget (retry_s) and scheduling on a loaded machine
KEEP_ALIVE_S = 2.0  # the reliability server's server.bolt.connection_keep_alive
# An audit that counts for a minute or more: still running when the server is paused.
_SLOW_AUDIT = """// purpose: Counts for a minute or more.
// param: space - the space
// returns: n int
UNWIND range(1, 4000000000) AS x WITH x WHERE x % 7 = 0 AND $space IS NOT NULL RETURN count(x) AS n
"""


def _threads_stopped(pid: int) -> bool:
    """Every thread of ``pid`` is in the stopped state: SIGSTOP is delivered to each thread
    on its own, and a thread still running could answer one more round trip."""
    states = [(task / "stat").read_text().rsplit(")", 1)[1].split()[0] for task in Path(f"/proc/{pid}/task").iterdir()]
    return all(state in {"T", "t"} for state in states)


@contextmanager
def _paused(pid: int) -> Iterator[None]:
    os.kill(pid, signal.SIGSTOP)
    try:
        deadline = time.monotonic() + 5
        while not _threads_stopped(pid):
            assert time.monotonic() < deadline, "the JVM did not stop"
            time.sleep(0.01)
        yield
    finally:
        os.kill(pid, signal.SIGCONT)


def _fails_in_bounded_time(call: Callable[[], object]) -> float:
    started = time.monotonic()
    with pytest.raises(StoreError):
        call()
    return time.monotonic() - started


def test_a_paused_neo4j_fails_reads_and_writes_in_bounded_time_and_recovers(
    tmp_path: Path, restartable_neo4j: tuple[Path, str]
) -> None:
    run_dir, uri = restartable_neo4j
    pid = int((run_dir / "neo4j.pid").read_text())
    settings = EywaSettings(data_dir=tmp_path / "data", neo4j_uri=uri, neo4j_password=SecretStr("x"),
                            qdrant_path=tmp_path / "qdrant", extractor="none", neo4j_retry_s=0.5,
                            neo4j_connect_timeout_s=1.0, neo4j_acquire_timeout_s=ACQUIRE_TIMEOUT_S)  # fmt: skip
    turn = {"speaker": "Ana", "text": "I moved to Lisbon in 2020."}
    keys = SqliteKeyStore(tmp_path / "keys.sqlite")
    _, secret = keys.create([SPACE], ["read", "write"])
    question = {"query": "Where did Ana move?"}
    with Memory.connect(settings, embedder=HashEmbedder()) as memory, serve_in_thread(
        create_app(memory, settings.model_copy(update={"rate_limit_per_minute": 0}), keys)
    ) as url, httpx.Client(base_url=url, headers={"Authorization": f"Bearer {secret}"}, timeout=60.0) as http:
        memory.remember(SPACE, [turn])
        assert memory.recall(SPACE, "Where did Ana move?").items
        with _paused(pid):
            took_read = _fails_in_bounded_time(lambda: memory.recall(SPACE, "Where did Ana move?"))
            took_write = _fails_in_bounded_time(
                lambda: memory.remember(SPACE, [{"speaker": "Ana", "text": "I moved to Porto in 2024."}])
            )
            started = time.monotonic()
            refused = http.post(f"/v1/spaces/{SPACE}/recall", json=question)
            took_http = time.monotonic() - started
        assert took_read < ACQUIRE_TIMEOUT_S + SLACK_S, took_read
        assert took_write < ACQUIRE_TIMEOUT_S + SLACK_S, took_write
        assert took_http < ACQUIRE_TIMEOUT_S + SLACK_S, took_http
        assert refused.status_code == 503 and refused.headers["content-type"] == "application/problem+json"
        assert refused.json()["code"] == "store_unavailable"
        assert memory.recall(SPACE, "Where did Ana move?").items  # answering again: works at once
        memory.remember(SPACE, [{"speaker": "Ana", "text": "I moved to Porto in 2024."}])
        assert http.post(f"/v1/spaces/{SPACE}/recall", json=question).status_code == 200
    keys.close()


def test_a_query_in_flight_when_neo4j_stops_answering_fails_within_twice_its_keep_alive(
    tmp_path: Path, restartable_neo4j: tuple[Path, str]
) -> None:
    run_dir, uri = restartable_neo4j
    pid = int((run_dir / "neo4j.pid").read_text())
    settings = EywaSettings(data_dir=tmp_path / "data", neo4j_uri=uri, neo4j_password=SecretStr("x"),
                            neo4j_retry_s=0.5, neo4j_connect_timeout_s=1.0,
                            neo4j_acquire_timeout_s=ACQUIRE_TIMEOUT_S)  # fmt: skip
    (tmp_path / "slow.cypher").write_text(_SLOW_AUDIT, encoding="utf-8")
    graph = Neo4jGraph(connect_neo4j(settings), settings.neo4j_database, retry_s=settings.neo4j_retry_s)
    audits = Neo4jAuditQueries(graph, tmp_path)
    outcome: dict[str, object] = {}

    def audit() -> None:
        started = time.monotonic()
        try:
            audits.run("slow", {"space": SPACE})
        except StoreError as exc:
            outcome["error"] = exc
        outcome["took"] = time.monotonic() - started

    try:
        worker = threading.Thread(target=audit)
        worker.start()
        time.sleep(1.0)  # the query is sent and running
        assert worker.is_alive(), outcome
        with _paused(pid):
            worker.join(timeout=120)
            assert not worker.is_alive(), "the query was still waiting after 120 s"
        assert isinstance(outcome.get("error"), StoreError), outcome
        # 2 x keep-alive for the read in flight, then the retry finds no connection it can use.
        bound = 1.0 + 2 * KEEP_ALIVE_S + ACQUIRE_TIMEOUT_S + SLACK_S
        assert float(str(outcome["took"])) < bound, outcome
        assert graph.read("answering again", "RETURN 1 AS one") == [{"one": 1}]
    finally:
        graph.close()
