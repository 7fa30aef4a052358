"""``EYWA_NEO4J_RETRY_S`` reaches the Neo4j driver: while Neo4j restarts, a write fails after
that long (a 503 the client retries) instead of after the driver's default 30 s, which
outlasts ``eywa.Client``'s own 30 s timeout (the server chaos run saw timeouts, not 503s)."""

from __future__ import annotations

from typing import Any

import pytest
from neo4j import GraphDatabase

from eywa.settings import EywaSettings
from eywa.stores.server import connect_neo4j


class _Driver:
    def verify_connectivity(self) -> None:
        return None

    def close(self) -> None:
        return None


def test_the_driver_retries_a_transaction_only_as_long_as_the_settings_say(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def driver(uri: str, **kwargs: Any) -> _Driver:
        seen.update(kwargs, uri=uri)
        return _Driver()

    monkeypatch.setattr(GraphDatabase, "driver", driver)
    connect_neo4j(EywaSettings(neo4j_uri="bolt://127.0.0.1:7687", neo4j_retry_s=2.5))
    assert seen["max_transaction_retry_time"] == 2.5
    connect_neo4j(EywaSettings(neo4j_uri="bolt://127.0.0.1:7687"))
    assert seen["max_transaction_retry_time"] == 5.0
    assert EywaSettings.model_fields["neo4j_retry_s"].default < 30.0  # under a client's timeout
