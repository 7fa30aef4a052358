"""Property-based tests from the published OpenAPI schema (schemathesis): whatever a client
sends, within the schema or breaking it, the API answers without a server error, every refusal is problem+json with the
members the API promises (``problem_json``), and every answer — its status, content type
and body, refusals included — is one the schema documents.

The request models carry only the JSON shape, and the core's input contract checks the
values, so this walks the contract through every route: a value the contract refuses must
come back as a 4xx, never as a 5xx.

It runs on both backends, as ``eywa serve`` does: over the embedded store with keys in
SQLite, and over Neo4j (with Qdrant's local mode) with keys in Neo4j, whose query code is
its own (the Neo4j run draws fewer examples, to stay within ~10 s of the suite). The key
holds every scope on every space, so the erasure routes are walked too, and half the
examples name the space seeded with turns, so reads reach stored data; the operations that
erase run last, after the reads have seen it.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import SecretStr
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from eywa.memory import Memory
from eywa.settings import EywaSettings
from eywa.stores.keys import SCOPES
from eywa.stores.neo4j.keys import Neo4jKeyStore
from eywa.stores.server import open_server_keys
from services.api.app import create_app
from tests.contract.conftest import HashEmbedder
from tests.schemathesis_support import Operation, schema_operation
from tests.neo4j_server import Neo4jServer
from tests.services.conftest import build_service

MAX_EXAMPLES = 8
NEO4J_MAX_EXAMPLES = 3
SEED = [
    {"text": "I work at Google now.", "speaker": "Cecilia", "observed_at": "2024-05-01T10:00:00Z"},
    {"text": "I moved to Lyon last May.", "speaker": "Ana", "session": "s1", "external_id": "x1"},
]  # fmt: skip
ERASING = ("/erase", "/v1/spaces/{space}")  # paths ending so erase the seeded space: walked last

Scope = MutableMapping[str, Any]
Asgi = Callable[[Scope, Callable[[], Awaitable[Scope]], Callable[[Scope], Awaitable[None]]], Awaitable[None]]


def _requests_only(app: Asgi) -> Asgi:
    """``app`` without its lifespan: schemathesis would start it and keep it until the
    process exits, past the memory's close; the test runs it itself (``TestClient``).
    Refusing the lifespan scope before any message is how an app says it has none."""

    async def asgi(scope: Scope, receive: Callable[[], Awaitable[Scope]], send: Callable[[Scope], Awaitable[None]]) -> None:
        if scope["type"] == "lifespan":
            raise RuntimeError("the test runs the app's lifespan itself")
        await app(scope, receive, send)

    return asgi


REFUSALS: list[int] = []
"""The statuses of the refusals ``problem_json`` checked (so a walk can tell it saw some)."""
PROBLEM_MEMBERS = frozenset({"type", "title", "status", "detail", "code"})


def problem_json(ctx: Any, response: Any, case: Any) -> bool | None:
    """Every refusal is problem+json (RFC 9457) with the members ``services.api.errors``
    promises: ``type`` naming the ``code``, ``status`` equal to the answer's, ``errors`` a
    list of ``{"field", "message"}`` when present. Metrics and the export stream are not
    refusals; a 2xx is checked by the schema."""
    if response.status_code < 400:
        return None
    REFUSALS.append(response.status_code)
    assert response.headers.get("content-type", [""])[0] == "application/problem+json", response.headers
    body = json.loads(response.content)
    assert isinstance(body, dict) and PROBLEM_MEMBERS <= set(body), body
    assert body["status"] == response.status_code and body["type"].endswith("/" + body["code"]), body
    assert all(isinstance(body[name], str) and body[name] for name in ("title", "detail", "code")), body
    errors = body.get("errors")
    assert errors is None or (isinstance(errors, list) and all(set(e) == {"field", "message"} for e in errors)), body
    return True


CHECKS = [
    not_a_server_error, problem_json, status_code_conformance, content_type_conformance, response_schema_conformance,
]
"""Besides the answers themselves, every answer is one the published schema documents: its
status, content type and body (found by this walk with schemathesis's own checks: each
refusal was problem+json where the schema said FastAPI's ``HTTPValidationError`` in
``application/json``, and 401, 403, 404, 409, 413, 429 and 503 were not documented)."""


def fuzz_everyschema_operation(app: Any, admin: dict[str, str], space: str, max_examples: int) -> int:
    """Fuzz every operation of ``app`` but key revocation with ``max_examples`` cases each,
    as the ``admin`` headers; returns how many operations were walked."""
    with TestClient(app) as client:  # the app's lifespan (upkeep, access log) for the whole walk
        seeded = client.post(f"/v1/spaces/{space}/turns", json={"turns": SEED}, headers=admin)
        assert seeded.status_code == 201, seeded.text
        schema = schemathesis.openapi.from_asgi("/openapi.json", _requests_only(app))
        operations = [schema_operation(result) for result in schema.get_all_operations()]
        assert len(operations) >= 20  # every /v1 route (keys rotation and the access log too) and the probes
        operations.sort(key=lambda operation: operation.path.endswith(ERASING) and operation.method.upper() != "GET")
        tested, refused = 0, len(REFUSALS)
        for operation in operations:
            if operation.path == "/v1/keys/{key_id}" and operation.method.upper() == "DELETE":
                continue  # would revoke the fuzzing key itself; covered by test_api

            # Half the cases break the schema on purpose (schemathesis's negative mode): a
            # wrong type, a missing field, an unknown one; the answer is still a 4xx problem.
            cases = st.one_of(operation.as_strategy(), operation.as_strategy(generation_mode=GenerationMode.NEGATIVE))

            @given(case=cases, seeded_space=st.booleans())
            @settings(max_examples=max_examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
            def check(case: schemathesis.Case[Operation], seeded_space: bool) -> None:
                if seeded_space and case.path_parameters and "space" in case.path_parameters:
                    case.path_parameters["space"] = space  # reach stored data, not only random spaces
                case.call_and_validate(headers=admin, checks=CHECKS)

            check()
            tested += 1
    assert len(REFUSALS) > refused, "no refusal was checked for problem+json"
    return tested


def test_no_operation_answers_with_a_server_error(memory: Memory, tmp_path: Path) -> None:
    svc = build_service(memory, tmp_path)
    try:
        admin = svc.headers(["*"], ",".join(SCOPES))
        operations = len(list(schemathesis.openapi.from_asgi("/openapi.json", svc.app).get_all_operations()))
        assert fuzz_everyschema_operation(svc.app, admin, "fuzz", MAX_EXAMPLES) == operations - 1
    finally:
        svc.client.close()
        svc.keys.close()


def _on_neo4j(tmp_path: Path, neo4j_server: Neo4jServer) -> tuple[EywaSettings, Memory, Neo4jKeyStore]:
    """Settings of the production shape on this test's Neo4j (vectors in Qdrant's local mode
    under ``tmp_path``), a memory on them with the hashing embedder, and the keys in Neo4j."""
    settings = EywaSettings(
        data_dir=tmp_path / "data", qdrant_path=tmp_path / "qdrant", neo4j_uri=neo4j_server.uri,
        neo4j_user=neo4j_server.user, neo4j_password=SecretStr(neo4j_server.password),
        neo4j_database=neo4j_server.database,
    )  # fmt: skip
    return settings, Memory.connect(settings, embedder=HashEmbedder()), open_server_keys(settings)


@pytest.mark.neo4j
def test_no_operation_answers_with_a_server_error_on_neo4j(tmp_path: Path, neo4j_server: Neo4jServer, neo4j_space: str) -> None:
    """The production shape: the graph, keyword index and keys in Neo4j, vectors in Qdrant
    (local mode here); the hashing embedder keeps the model out of the loop."""
    settings, memory, keys = _on_neo4j(tmp_path, neo4j_server)
    try:
        app = create_app(memory, settings, keys)
        _, secret = keys.create(["*"], SCOPES)
        assert fuzz_everyschema_operation(app, {"Authorization": f"Bearer {secret}"}, neo4j_space, NEO4J_MAX_EXAMPLES) > 20
    finally:
        keys.close()
        memory.close()


@pytest.mark.neo4j
@pytest.mark.parametrize("since", ["1682-02-09T16:27:25+21:00", "2024-06-01T00:00:00-23:59"])
def test_an_offset_neo4j_cannot_carry_is_read_as_its_utc_instant(tmp_path: Path, neo4j_server: Neo4jServer, since: str) -> None:
    """Found by the Neo4j walk: Python takes offsets up to ±23:59, Neo4j up to ±18:00; the
    access log's ``since`` went to Neo4j as given and broke the connection (503)."""
    settings, memory, keys = _on_neo4j(tmp_path, neo4j_server)
    try:
        _, secret = keys.create(["*"], SCOPES)
        with TestClient(create_app(memory, settings, keys)) as client:
            answered = client.get("/v1/keys/log", params={"since": since}, headers={"Authorization": f"Bearer {secret}"})
            assert answered.status_code == 200, answered.text
            far = client.get("/v1/keys/log", params={"since": "9999-12-31T23:00:00-12:00"},
                             headers={"Authorization": f"Bearer {secret}"})  # fmt: skip
            assert far.status_code == 422 and far.json()["errors"][0]["field"] == "query.since", far.text
    finally:
        keys.close()
        memory.close()
