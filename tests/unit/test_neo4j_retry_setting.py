"""``EYWA_NEO4J_RETRY_S`` reaches the Neo4j driver: while Neo4j restarts, a write fails after
that long (a 503 the client retries) instead of after the driver's default 30 s, which
outlasts ``eywa.Client``'s own 30 s timeout (the server chaos run saw timeouts, not 503s)."""

from __future__ import annotations

from typing import Any

import pytest
from neo4j import GraphDatabase

from eywa.errors import ConfigurationError
from eywa.settings import EywaSettings, load_settings
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


def test_the_driver_bounds_connecting_acquiring_and_checking_as_the_settings_say(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without them a hung Neo4j held a call for the driver's defaults (30 s to connect, 60 s
    to acquire) or, on a pooled connection used unchecked, the server's 120 s receive timeout."""
    seen: dict[str, Any] = {}

    def driver(uri: str, **kwargs: Any) -> _Driver:
        seen.update(kwargs)
        return _Driver()

    monkeypatch.setattr(GraphDatabase, "driver", driver)
    connect_neo4j(EywaSettings(neo4j_uri="bolt://127.0.0.1:7687"))
    assert (seen["connection_timeout"], seen["connection_acquisition_timeout"], seen["liveness_check_timeout"]) == (5.0, 10.0, 0.0)
    connect_neo4j(EywaSettings(neo4j_uri="bolt://127.0.0.1:7687", neo4j_connect_timeout_s=1, neo4j_acquire_timeout_s=2,
                               neo4j_liveness_check_s=3))  # fmt: skip
    assert (seen["connection_timeout"], seen["connection_acquisition_timeout"], seen["liveness_check_timeout"]) == (1, 2, 3)


@pytest.mark.parametrize(("variable", "value"), [("EYWA_NEO4J_ACQUIRE_TIMEOUT_S", "0"), ("EYWA_NEO4J_CONNECT_TIMEOUT_S", "-1"),
                                                 ("EYWA_NEO4J_LIVENESS_CHECK_S", "-0.5"), ("EYWA_NEO4J_TRANSACTION_TIMEOUT_S", "soon")])  # fmt: skip
def test_a_timeout_that_cannot_work_is_one_configuration_error_naming_it(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigurationError, match=f"^{variable}: "):
        load_settings()


@pytest.mark.parametrize(("variable", "value"), [("EYWA_NEO4J_ACQUIRE_TIMEOUT_S", "1e10"), ("EYWA_NEO4J_CONNECT_TIMEOUT_S", "inf"),
                                                 ("EYWA_NEO4J_LIVENESS_CHECK_S", "inf"), ("EYWA_NEO4J_TRANSACTION_TIMEOUT_S", "1e16"),
                                                 ("EYWA_NEO4J_TRANSACTION_TIMEOUT_S", "inf"), ("EYWA_NEO4J_ACQUIRE_TIMEOUT_S", "86401"),
                                                 ("EYWA_NEO4J_RETRY_S", "inf"), ("EYWA_NEO4J_RETRY_S", "1e300")])  # fmt: skip
def test_a_timeout_longer_than_a_day_or_infinite_is_one_configuration_error(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    """The driver cannot use every float: an acquisition timeout of 1e10 s was an OverflowError
    from socket.settimeout and a transaction timeout of 1e16 s (or inf) one from packing its
    milliseconds, out of the first query of Memory.connect, eywa serve or the CLI; an infinite
    retry time retried a failing transaction for ever, never answering 503."""
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigurationError, match=f"^{variable}: Input should be (a finite number|less than or equal to 86400)$"):
        load_settings()
    monkeypatch.setenv(variable, "86400")  # a day is the longest taken
    assert getattr(load_settings(), variable.removeprefix("EYWA_").lower()) == 86_400
