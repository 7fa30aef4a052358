"""The warm-up of a server memory (``eywa.warm_up``): it stores nothing, it leaves Neo4j's
plan cache holding Level 0's statements, and a store that fails or hangs does not stop
``eywa serve``'s startup (``services.api.app.warm_up_stores``)."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from neo4j import Driver

from eywa import Memory
from eywa.contract import SpaceQuota
from eywa.errors import QuotaExceededError
from eywa.ids import entity_id
from eywa.settings import EywaSettings
from eywa.stores.keys import KeyStore
from eywa.stores.server import open_server_graph, open_server_keys
from eywa.warm_up import WARM_UP_SPACE, rehearsal_batches
from services.api.app import warm_up_stores
from tests.conformance.conftest import server_settings
from tests.reliability.support import HashEmbedder, corpus

pytestmark = pytest.mark.neo4j

SPACE = "warm"


@pytest.fixture
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> EywaSettings:
    return server_settings(request, tmp_path)


@pytest.fixture
def memory(settings: EywaSettings) -> Iterator[Memory]:
    mem = Memory.connect(settings, embedder=HashEmbedder())
    try:
        yield mem
    finally:
        mem.close()


@pytest.fixture
def keys(settings: EywaSettings) -> Iterator[KeyStore]:
    store = open_server_keys(settings)
    try:
        yield store
    finally:
        store.close()


def _contents(driver: Driver) -> tuple[list[tuple[str, int]], list[tuple[str, int]], list[dict[str, object]]]:
    """Nodes by labels, relationships by type, and the ``:Backlog`` counters."""
    nodes = driver.execute_query("MATCH (n) RETURN labels(n) AS l, count(*) AS n ORDER BY l").records
    rels = driver.execute_query("MATCH ()-[r]->() RETURN type(r) AS t, count(*) AS n ORDER BY t").records
    backlogs = driver.execute_query("MATCH (c:Backlog) RETURN properties(c) AS c ORDER BY c.space").records
    return (
        [(":".join(r["l"]), r["n"]) for r in nodes],
        [(r["t"], r["n"]) for r in rels],
        [r["c"] for r in backlogs],
    )


def _cached_statements(driver: Driver) -> int:
    """How many statements Neo4j's query caches held, emptying them (``db.clearQueryCaches``
    says how many it dropped: the one count of the cache Neo4j 5.26 community exposes)."""
    message = driver.execute_query("CALL db.clearQueryCaches()").records[0][0]
    found = re.search(r"cleared of (\d+) quer", message)
    return int(found.group(1)) if found else 0


def test_the_warm_up_stores_nothing(memory: Memory, neo4j_driver: Driver) -> None:
    memory.remember(SPACE, corpus(8), wait=True)
    memory.wait()
    before = _contents(neo4j_driver)
    memory.warm_up()
    assert _contents(neo4j_driver) == before
    stray = neo4j_driver.execute_query(
        "MATCH (n) WHERE n.space = $space OR n.id = $space RETURN count(n) AS n", space=WARM_UP_SPACE
    ).records[0]["n"]
    assert stray == 0


def test_a_rehearsed_batch_leaves_level0s_statements_planned(settings: EywaSettings, neo4j_driver: Driver) -> None:
    graph = open_server_graph(settings)
    try:
        warm_up, mine, yours = (rehearsal_batches(graph.evidence, space)[0] for space in (WARM_UP_SPACE, SPACE, "yours"))
        assert graph.rehearse_adds is not None
        # Without a rehearsal, a batch's write plans its two statements (the batch read and
        # write): the count below can tell.
        _cached_statements(neo4j_driver)
        assert graph.evidence.add(*yours)
        assert _cached_statements(neo4j_driver) == 2
        # Rehearsed (rolled back) in the warm-up's space, a batch of the same shape written
        # for real to a user's space plans nothing: Neo4j cached the rehearsal's plans
        # (keyed by the statement and its list parameters' sizes, not their values).
        graph.rehearse_adds([warm_up])
        assert _cached_statements(neo4j_driver) == 2
        graph.rehearse_adds([warm_up])
        assert graph.evidence.add(*mine)
        assert _cached_statements(neo4j_driver) == 2
    finally:
        graph.close()


@pytest.mark.parametrize("quota", [SpaceQuota(turns=100), SpaceQuota(turns=100, bytes=10**6)], ids=["turns", "bytes"])
def test_a_rehearsal_with_the_memorys_quota_leaves_its_check_planned_too(
    settings: EywaSettings, neo4j_driver: Driver, quota: SpaceQuota
) -> None:
    """With a quota, a write runs a third statement, the quota's count (``_USAGE``): the
    warm-up's rehearsal runs it too, so a first write plans nothing."""
    graph = open_server_graph(settings)
    try:
        warm_up, mine, yours = (rehearsal_batches(graph.evidence, space)[0] for space in (WARM_UP_SPACE, SPACE, "yours"))
        assert graph.rehearse_adds is not None
        _cached_statements(neo4j_driver)
        assert graph.evidence.add(*yours, quota=quota)
        assert _cached_statements(neo4j_driver) == 3  # the batch read, its write, the quota's count
        graph.rehearse_adds([warm_up], quota)
        assert _cached_statements(neo4j_driver) == 3
        graph.rehearse_adds([warm_up], quota)
        assert graph.evidence.add(*mine, quota=quota)
        assert _cached_statements(neo4j_driver) == 3
    finally:
        graph.close()


def test_the_warm_up_runs_the_quota_check_and_refuses_nothing(
    settings: EywaSettings, neo4j_driver: Driver
) -> None:
    """A memory whose quota the rehearsed batches exceed (ten turns in one transaction) warms
    up all the same (its quota's statement run against limits it cannot reach), storing
    nothing; its own quota holds afterwards."""
    with Memory.connect(settings.model_copy(update={"space_max_turns": 2}), embedder=HashEmbedder()) as mem:
        mem.warm_up()
        assert neo4j_driver.execute_query("MATCH (e:Evidence) RETURN count(e) AS n").records[0]["n"] == 0
        mem.remember(SPACE, corpus(2), wait=False)
        with pytest.raises(QuotaExceededError):
            mem.remember(SPACE, corpus(3)[2:], wait=False)
        mem.wait()


def test_a_failing_store_only_costs_a_log_line(
    memory: Memory, keys: KeyStore, caplog: pytest.LogCaptureFixture
) -> None:
    memory.close()
    with caplog.at_level(logging.WARNING, logger="services.api.app"):
        warm_up_stores(memory, keys)
    assert "warm-up of the stores failed" in caplog.text


def test_a_hanging_warm_up_is_waited_for_at_most_its_bound(
    memory: Memory, keys: KeyStore, neo4j_driver: Driver, caplog: pytest.LogCaptureFixture
) -> None:
    # An open transaction holding the warm-up's first entity: the rehearsed write waits for it.
    blocker = neo4j_driver.session()
    tx = blocker.begin_transaction()
    tx.run(
        "MERGE (n:Entity {id: $id}) SET n.space = $space", id=entity_id(WARM_UP_SPACE, "Avery Stone"),
        space=WARM_UP_SPACE,
    ).consume()  # fmt: skip
    warming = None
    try:
        started = time.monotonic()
        with caplog.at_level(logging.WARNING, logger="services.api.app"):
            warming = warm_up_stores(memory, keys, wait_s=1.0)
        assert time.monotonic() - started < 5.0
        assert "still running" in caplog.text
        assert warming.is_alive()
    finally:
        tx.rollback()
        blocker.close()
        if warming is not None:  # released: it finishes before the fixture closes the memory
            warming.join(60)
    assert not warming.is_alive()


def test_level0_plans_each_statement_once_whatever_the_batch_shape(
    settings: EywaSettings, neo4j_driver: Driver
) -> None:
    """Neo4j keys a cached plan by the size class of each list parameter (0, 1, 2-10,
    11-100… elements), so batches of one turn and of four, with and without stored
    neighbours, mentions or co-mentions, each planned the write statement anew. Level 0's
    statements take their values in one map parameter (``graph.one_parameter``): one plan
    each, whatever the batch."""
    graph = open_server_graph(settings)
    try:
        batches = rehearsal_batches(graph.evidence, "shapes")  # 1 turn, 1 more, 4 new, 4 more
        _cached_statements(neo4j_driver)
        for batch in batches:
            assert graph.evidence.add(*batch)
        # The batch read and its write; the read, which creates and locks a new session
        # (``level0._CLAIM_SESSIONS``, a MERGE), is cached once more at its second run and no
        # more after (measured: 2 after any one batch, 3 after two, 3 after all four; with
        # the sessions only matched, 2).
        assert _cached_statements(neo4j_driver) == 3
        for ids, sessions in ((["a"], ["s"]), ([f"e{n}" for n in range(12)], ["s", "t", "u"]), ([], [])):
            graph.evidence.prior("shapes", ids, ["Avery Stone", "Jordan Vale"][: len(sessions)], sessions)
        assert _cached_statements(neo4j_driver) == 1
    finally:
        graph.close()
