"""What an API write (``Memory.remember_job`` acknowledged after Level 0) asks of Neo4j: one
read (``EvidenceStore.prior``) and one write transaction, the batch's job included (README
"Write acknowledgement on Neo4j"; issue #14's POST /turns acknowledgement). Each
transaction costs a pooled connection, its liveness check (``EYWA_NEO4J_LIVENESS_CHECK_S``
0: a round trip), its statements and a commit; the job used to be a second one, and BEGIN
was a round trip of its own."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from neo4j import Driver

from eywa import Memory
from eywa.bench.erasure import HashVectors
from eywa.stores.neo4j.graph import Neo4jGraph, run
from tests.conformance.conftest import server_settings
from tests.neo4j_server import Neo4jServer

pytestmark = pytest.mark.neo4j


def test_an_acknowledged_write_is_one_read_and_one_transaction(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = server_settings(request, tmp_path).model_copy(update={"job_runner": "celery", "level1_wait": False})
    calls: Counter[str] = Counter()
    read, write = Neo4jGraph.read, Neo4jGraph.write

    def counted_read(self: Neo4jGraph, operation: str, query: str, /, **params: Any) -> list[dict[str, Any]]:
        calls["read " + operation] += 1
        return read(self, operation, query, **params)

    def counted_write(self: Neo4jGraph, operation: str, work: Callable[..., Any], /, *a: Any, **k: Any) -> Any:
        calls["write " + operation] += 1
        return write(self, operation, work, *a, **k)

    turns = [{"text": f"Ana said line {n} to Ben.", "speaker": "Ana", "session": "s"} for n in range(4)]
    with Memory.connect(settings, embedder=HashVectors()) as mem:
        mem.remember_job("warm", turns, author="k", wait=False)  # the space's first write plans nothing here
        mem.wait()
        monkeypatch.setattr(Neo4jGraph, "read", counted_read)
        monkeypatch.setattr(Neo4jGraph, "write", counted_write)
        ids, job = mem.remember_job("trips", turns, author="k", wait=False)
        monkeypatch.undo()
        mem.wait()
        assert len(ids) == 4 and job.status == "pending"
        assert mem.job(job.id).detail["evidence"] == 4
    assert calls == Counter({"read prior": 1, "write add evidence": 1}), calls  # before: + "write add job"


def test_a_write_transaction_sends_begin_with_its_first_statement(
    neo4j_driver: Driver, neo4j_server: Neo4jServer, caplog: pytest.LogCaptureFixture
) -> None:
    """On the wire (the driver's Bolt log): BEGIN, then the statement's RUN and PULL, before
    the server's first answer; ``session.execute_write`` alone waits for BEGIN's SUCCESS
    before sending RUN, a round trip of its own on every write transaction."""
    graph = Neo4jGraph(neo4j_driver, neo4j_server.database, owns_driver=False)
    graph.write("warm", run, "RETURN 1 AS one")  # a pooled connection, opened outside the log
    caplog.set_level(logging.DEBUG, logger="neo4j.io")
    rows = graph.write("probe", run, "RETURN 1 AS one")
    assert rows == [{"one": 1}]
    wire = [m for m in (r.getMessage() for r in caplog.records) if " C: " in m or " S: " in m]
    begin = next(i for i, m in enumerate(wire) if " C: BEGIN" in m)
    statement = next(i for i, m in enumerate(wire) if i > begin and " C: RUN" in m)
    answers = [m for m in wire[begin:statement] if " S: " in m]
    assert answers == [], wire  # before: S: SUCCESS (BEGIN's) came back before the RUN was sent
    assert any(" C: COMMIT" in m for m in wire[statement:])
