"""Property-based tests from the published OpenAPI schema (schemathesis): whatever a client
sends, the API answers without a server error, and its responses match the schema.

The request models carry only the JSON shape, and the core's input contract checks the
values, so this walks the contract through every route: a value the contract refuses must
come back as a 4xx, never as a 5xx."""

from __future__ import annotations

from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error

from eywa.memory import Memory
from tests.services.conftest import build_service

MAX_EXAMPLES = 8


def test_no_operation_answers_with_a_server_error(memory: Memory, tmp_path: Path) -> None:
    svc = build_service(memory, tmp_path)
    admin = svc.headers(["*"], "read,write,admin")
    svc.client.post("/v1/spaces/fuzz/turns", json={"turns": [{"text": "I work at Google now.", "speaker": "Caroline"}]},
                    headers=admin)
    schema = schemathesis.openapi.from_asgi("/openapi.json", svc.app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 20  # every /v1 route (keys rotation and the access log too) and the probes
    tested = 0
    for operation in operations:
        if operation.path == "/v1/keys/{key_id}" and operation.method.upper() == "DELETE":
            continue  # would revoke the fuzzing key itself; covered by test_api

        @given(case=operation.as_strategy())
        @settings(max_examples=MAX_EXAMPLES, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        def check(case: schemathesis.Case) -> None:
            case.call_and_validate(headers=admin, checks=[not_a_server_error])

        check()
        tested += 1
    assert tested == len(operations) - 1
    svc.client.close()
    svc.keys.close()
