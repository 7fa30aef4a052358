"""``Neo4jGraph.read`` runs auto-commit queries, so it retries a transient failure itself
(the managed read transaction it replaced did): a server restarting is waited for up to
``retry_s``, a failure that would fail again is reported at once, and either way the
caller sees a ``StoreError``, and the failed session is not used again."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import pytest
from neo4j import Driver
from neo4j.exceptions import ResultConsumedError, ServiceUnavailable

from eywa.errors import StoreError
from eywa.stores.neo4j.graph import Neo4jGraph


class _Rows:
    """What ``read`` uses of a driver result: its keys, then its records (value tuples)."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self._rows = rows

    def keys(self) -> list[str]:
        return list(self._rows[0]) if self._rows else []

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return (tuple(row.values()) for row in self._rows)


class _Session:
    def __init__(self, outcomes: list[Exception | None]) -> None:
        self._outcomes = outcomes
        self.closed = False

    def run(self, query: str, params: dict[str, Any]) -> _Rows:
        outcome = self._outcomes.pop(0)
        if outcome is not None:
            raise outcome
        return _Rows([{"n": params["n"]}])

    def close(self) -> None:
        self.closed = True


class _Driver:
    """Each session takes the next outcomes: an exception to raise, or None for one row."""

    def __init__(self, outcomes: list[Exception | None]) -> None:
        self.outcomes = outcomes
        self.sessions: list[_Session] = []

    def session(self, **config: Any) -> _Session:
        session = _Session(self.outcomes)
        self.sessions.append(session)
        return session


def _graph(driver: _Driver, retry_s: float) -> Neo4jGraph:
    return Neo4jGraph(cast(Driver, driver), "neo4j", owns_driver=False, retry_s=retry_s)


def test_a_transient_failure_is_retried_on_a_new_session() -> None:
    driver = _Driver([ServiceUnavailable("restarting"), ServiceUnavailable("restarting"), None, None])
    graph = _graph(driver, retry_s=5.0)
    assert graph.read("probe", "RETURN $n AS n", n=7) == [{"n": 7}]
    assert len(driver.sessions) == 3 and [s.closed for s in driver.sessions] == [True, True, False]
    assert graph.read("probe", "RETURN $n AS n", n=8) == [{"n": 8}]  # the good session is kept
    assert len(driver.sessions) == 3


def test_a_failure_that_would_fail_again_is_reported_at_once() -> None:
    driver = _Driver([ResultConsumedError(None, "consumed"), None])
    with pytest.raises(StoreError, match="during probe"):
        _graph(driver, retry_s=5.0).read("probe", "RETURN $n AS n", n=1)
    assert len(driver.sessions) == 1 and driver.outcomes == [None]  # not tried again


def test_retries_stop_when_the_retry_time_is_spent() -> None:
    driver = _Driver([ServiceUnavailable("down")] * 50)
    with pytest.raises(StoreError, match="down") as caught:
        _graph(driver, retry_s=0.2).read("probe", "RETURN $n AS n", n=1)
    assert isinstance(caught.value.__cause__, ServiceUnavailable)
    assert 2 <= len(driver.sessions) < 10  # waits of 0.05 s, 0.1 s, ... within 0.2 s
