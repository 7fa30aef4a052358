"""A Neo4j read that meets an unreadable node runs again, ``READ_ATTEMPTS`` times at most in
all: a read made inside another such read (``Neo4jBeliefStore.get`` reads through
``get_many``) does not retry on its own, so a node written malformed outside Eywa costs
three round trips before the caller's ``StoreError``, not three times three."""

from __future__ import annotations

from typing import Any, cast

import pytest

from eywa.errors import StoreError
from eywa.stores.neo4j.beliefs import Neo4jBeliefStore
from eywa.stores.neo4j.graph import Neo4jGraph
from eywa.stores.neo4j.records import READ_ATTEMPTS, UnreadableNodeError, rereads


class _Graph:
    """What the belief store reads through: each read counted, each row a :Belief node
    lacking its properties (as one written outside Eywa, or one being deleted)."""

    def __init__(self) -> None:
        self.reads = 0

    def read(self, operation: str, query: str, /, **params: Any) -> list[dict[str, Any]]:
        self.reads += 1
        return [{"b": {"space": params["space"]}, "support": [], "supersedes": []}]


def test_a_read_inside_another_is_not_retried_on_its_own() -> None:
    graph = _Graph()
    store = Neo4jBeliefStore(cast(Neo4jGraph, graph))
    with pytest.raises(StoreError, match="lacks the property"):
        store.get("s", "b1")
    assert graph.reads == READ_ATTEMPTS


def test_the_outer_read_still_retries_and_answers_once_the_node_is_readable() -> None:
    calls: list[str] = []

    @rereads
    def inner() -> str:
        calls.append("inner")
        if len(calls) < READ_ATTEMPTS:
            raise UnreadableNodeError("neo4j", "read", "gone")
        return "read"

    @rereads
    def outer() -> str:
        return inner()

    assert outer() == "read"
    assert calls == ["inner"] * READ_ATTEMPTS
    assert inner() == "read"  # and a read alone, after it, retries again on its own


def test_a_read_alone_retries_each_time_it_is_called() -> None:
    failures = [0]

    @rereads
    def read() -> int:
        failures[0] += 1
        if failures[0] % READ_ATTEMPTS:
            raise UnreadableNodeError("neo4j", "read", "gone")
        return failures[0]

    assert read() == READ_ATTEMPTS
    assert read() == 2 * READ_ATTEMPTS
