"""compose.yaml is a valid Compose file with the services the server mode needs.

There is no container engine here, so the file is checked against the Compose
Specification's JSON schema (Apache-2.0, compose-spec project), as vendored by
check-jsonschema (its ``vendor.compose-spec`` built-in schema).
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

COMPOSE = Path(__file__).resolve().parents[2] / "compose.yaml"


@pytest.fixture(scope="module")
def validator() -> jsonschema.protocols.Validator:
    schema_file = resources.files("check_jsonschema") / "builtin_schemas/vendor/compose-spec.json"
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


@pytest.fixture
def compose() -> dict[str, Any]:
    loaded = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def test_compose_file_matches_the_compose_specification(
    validator: jsonschema.protocols.Validator, compose: dict[str, Any]
) -> None:
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
              for e in validator.iter_errors(compose)]
    assert errors == []


def test_the_schema_rejects_a_malformed_service(
    validator: jsonschema.protocols.Validator, compose: dict[str, Any]
) -> None:
    compose["services"]["redis"]["healthcheck"]["retries"] = [10]
    compose["services"]["redis"]["restart_policy"] = "always"
    messages = {e.message for e in validator.iter_errors(compose)}
    assert any("[10]" in m for m in messages)
    assert any("restart_policy" in m for m in messages)


def test_two_api_replicas_share_the_backends(compose: dict[str, Any]) -> None:
    services = compose["services"]
    replicas = [services["api"], services["api-2"]]
    assert replicas[0]["command"] == replicas[1]["command"] and replicas[0]["environment"] == replicas[1]["environment"]
    assert replicas[0]["ports"] != replicas[1]["ports"]


def test_services_are_the_backends_with_health_checks_and_named_volumes(
    compose: dict[str, Any],
) -> None:
    services = compose["services"]
    assert {"neo4j", "qdrant", "redis"} <= set(services)
    assert services["neo4j"]["image"] == "neo4j:5.26-community"
    assert services["redis"]["image"] == "redis:7"
    assert services["neo4j"]["environment"]["NEO4J_AUTH"].startswith("neo4j/${NEO4J_PASSWORD")
    assert "cypher-shell" in " ".join(services["neo4j"]["healthcheck"]["test"])
    assert services["redis"]["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
    for name, service in services.items():
        assert "healthcheck" in service, name
        assert all(port.startswith("127.0.0.1:") for port in service.get("ports", [])), name
        for volume in service.get("volumes", []):
            if volume.startswith("./"):  # read-only config bind mounts (ops/)
                continue
            assert volume.split(":")[0] in compose["volumes"], f"{name}: {volume}"
