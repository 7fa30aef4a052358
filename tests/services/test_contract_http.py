"""The HTTP side of the input contract and of issue #11's lesser items: inputs that gave a
plain-text 500 are 4xx problem+json with the core's code and field path; the key is checked
before the body is read; refusals are rate-limited too; another space's job is as unknown
as a missing one; a dead Redis lets requests through (fail open) and says so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from eywa.errors import InvalidInputError
from eywa.memory import Memory
from eywa.settings import EywaSettings
from services.ratelimit import build_rate_limiter
from tests.services.conftest import Service, build_service, fresh_window

JSON = {"Content-Type": "application/json"}


def _raw(service: Service, path: str, body: str, headers: dict[str, str] | None = None) -> Any:
    """POST ``body`` as it is written (escapes such as ``\\ud800`` and NaN included)."""
    return service.client.post(path, content=body.encode("ascii"), headers={**JSON, **(headers or {})})


def _problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    assert body["code"] == code, body
    return body


@pytest.mark.parametrize(
    ("turn", "field"),
    [
        ('{"text": "a\\ud800b"}', "body.turns.0.text"),
        ('{"text": "ok", "speaker": "\\udfff"}', "body.turns.0.speaker"),
        ('{"text": "ok", "metadata": {"\\ud800": 1}}', "body.turns.0.metadata"),
        ('{"text": "ok", "metadata": {"x": NaN}}', "body.turns.0.metadata"),
        ('{"text": "ok", "metadata": {"x": [-Infinity]}}', "body.turns.0.metadata"),
        ('{"text": "ok", "observed_at": "0001-01-01T00:00:00+01:00"}', "body.turns.0.observed_at"),
        ('{"text": "ok", "observed_at": "9999-12-31T23:00:00-05:00"}', "body.turns.0.observed_at"),
    ],
)
def test_turns_that_gave_a_500_are_refused_with_the_cores_code(service: Service, turn: str, field: str) -> None:
    headers = service.headers(["h500"])
    response = _raw(service, "/v1/spaces/h500/turns", f'{{"turns": [{{"text": "fine"}}, {turn}]}}', headers)
    problem = _problem(response, 422, "invalid_turn")
    assert problem["errors"][0]["field"] == field.replace("turns.0", "turns.1")
    assert service.client.get("/v1/spaces/h500/stats", headers=headers).json()["evidence"] == 0


def test_deep_metadata_is_a_limit_and_a_body_too_deep_to_parse_is_a_400(service: Service) -> None:
    headers = service.headers(["hdeep"])
    deep = '{"a": ' * 900 + "1" + "}" * 900
    response = _raw(service, "/v1/spaces/hdeep/turns", f'{{"turns": [{{"text": "deep", "metadata": {deep}}}]}}', headers)
    assert _problem(response, 422, "limit_exceeded")["errors"][0]["field"] == "body.turns.0.metadata"
    absurd = "[" * 200_000 + "]" * 200_000
    _problem(_raw(service, "/v1/spaces/hdeep/turns", absurd, headers), 400, "bad_request")


def test_reads_refuse_what_the_core_refuses(service: Service) -> None:
    headers = service.headers(["hread"])
    service.client.post("/v1/spaces/hread/turns", json={"turns": [{"text": "I work at Acme.", "speaker": "Ana"}]},
                        headers=headers)  # fmt: skip
    surrogate = _raw(service, "/v1/spaces/hread/recall", '{"query": "where\\ud800"}', headers)
    assert _problem(surrogate, 422, "invalid_input")["errors"][0]["field"] == "body.query"
    edge = service.client.post("/v1/spaces/hread/recall", json={"query": "q", "as_of": "0001-01-01T00:00:00+01:00"},
                               headers=headers)  # fmt: skip
    assert _problem(edge, 422, "invalid_input")["errors"][0]["field"] == "body.as_of"
    long = service.client.post("/v1/spaces/hread/recall", json={"query": "x" * 4001}, headers=headers)
    assert _problem(long, 422, "limit_exceeded")["errors"] == [{"field": "body.query", "message": "at most 4000 characters"}]
    k = service.client.post("/v1/spaces/hread/recall", json={"query": "q", "k": 101}, headers=headers)
    assert _problem(k, 422, "limit_exceeded")["errors"][0]["field"] == "body.k"
    dims = service.client.get("/v1/spaces/hread/dimensions", params={"as_of": "9999-12-31T23:00:00-05:00"}, headers=headers)
    assert _problem(dims, 422, "invalid_input")["errors"][0]["field"] == "query.as_of"
    name = service.client.get("/v1/spaces/hread/beliefs", params={"subject": "s" * 501}, headers=headers)
    assert _problem(name, 422, "limit_exceeded")["errors"][0]["field"] == "query.subject"
    field = _raw(service, "/v1/spaces/hread/recall", '{"query": "q", "\\ud800": 1}', headers)
    _problem(field, 422, "validation_error")  # the unknown field's name is echoed, encodably


def test_the_star_space_is_refused(service: Service) -> None:
    everywhere = service.headers(["*"])
    response = service.client.post("/v1/spaces/*/turns", json={"turns": [{"text": "hello"}]}, headers=everywhere)
    assert _problem(response, 422, "invalid_input")["errors"][0]["field"] == "path.space"
    recall = service.client.post("/v1/spaces/*/recall", json={"query": "hello"}, headers=everywhere)
    _problem(recall, 422, "invalid_input")


def test_the_key_is_checked_before_the_body_is_read(service: Service) -> None:
    broken = _raw(service, "/v1/spaces/hauth/turns", '{"turns": [')
    _problem(broken, 401, "unauthorized")
    wrong = _raw(service, "/v1/spaces/hauth/turns", '{"turns": [', {"Authorization": "Bearer eyw_x_y"})
    _problem(wrong, 401, "unauthorized")
    valid = _raw(service, "/v1/spaces/hauth/turns", '{"turns": [', service.headers(["hauth"]))
    _problem(valid, 422, "validation_error")  # with a key, the body is read and found broken


def test_another_spaces_job_is_as_unknown_as_a_missing_one(service: Service) -> None:
    owner = service.headers(["hjob"])
    job = service.client.post("/v1/spaces/hjob/turns", json={"turns": [{"text": "a job"}]}, headers=owner).json()["job"]
    stranger = service.headers(["elsewhere"])
    theirs = service.client.get(f"/v1/jobs/{job['id']}", headers=stranger)
    missing = service.client.get("/v1/jobs/job_that_never_was", headers=stranger)
    assert theirs.status_code == missing.status_code == 404
    assert theirs.json()["code"] == missing.json()["code"] == "not_found"
    assert theirs.json()["detail"].replace(job["id"], "ID") == missing.json()["detail"].replace("job_that_never_was", "ID")
    assert service.client.get(f"/v1/jobs/{job['id']}", headers=owner).status_code == 200


def test_refused_requests_count_against_the_rate_too(memory: Memory, tmp_path: Path, redis_url: str) -> None:
    settings = EywaSettings(data_dir=tmp_path, redis_url=redis_url, rate_limit_per_minute=3)
    svc = build_service(memory, tmp_path, settings, limiter=build_rate_limiter(settings))
    fresh_window()
    # No key: counted per client address, 401 until the rate is spent, then 429.
    anonymous = [svc.client.get("/v1/spaces/hrate/beliefs").status_code for _ in range(4)]
    assert anonymous == [401, 401, 401, 429]
    assert 1 <= int(svc.client.get("/v1/spaces/hrate/beliefs").headers["Retry-After"]) <= 60
    # A valid key on a space it does not hold: 403s are counted against the key.
    foreign = svc.headers(["elsewhere"], "read")
    assert [svc.client.get("/v1/spaces/hrate/beliefs", headers=foreign).status_code for _ in range(4)] == [
        403, 403, 403, 429,
    ]  # fmt: skip
    assert "eywa_rate_limited_total 3.0" in svc.client.get("/metrics").text
    svc.client.close()
    svc.keys.close()


def test_an_unreachable_redis_lets_requests_through_and_says_so(memory: Memory, tmp_path: Path) -> None:
    settings = EywaSettings(data_dir=tmp_path, redis_url="redis://127.0.0.1:1/0", rate_limit_per_minute=1)
    svc = build_service(memory, tmp_path, settings, limiter=build_rate_limiter(settings))
    headers = svc.headers(["hopen"], "read")
    assert [svc.client.get("/v1/spaces/hopen/beliefs", headers=headers).status_code for _ in range(3)] == [200] * 3
    assert "eywa_rate_limiter_errors_total 3.0" in svc.client.get("/metrics").text
    ready = svc.client.get("/readyz")
    assert ready.status_code == 503 and "rate_limiter" in ready.json()["detail"]
    svc.client.close()
    svc.keys.close()


def test_quota_exceeded_is_a_413_with_its_figures(tmp_path: Path) -> None:
    settings = EywaSettings(data_dir=tmp_path, space_max_turns=2)
    with Memory.open(tmp_path / "quota", settings=settings) as memory:
        svc = build_service(memory, tmp_path, settings)
        headers = svc.headers(["hq"])
        assert svc.client.post("/v1/spaces/hq/turns", json={"turns": [{"text": "one"}]}, headers=headers).status_code == 201
        over = svc.client.post("/v1/spaces/hq/turns", json={"turns": [{"text": "two"}, {"text": "three"}]}, headers=headers)
        problem = _problem(over, 413, "quota_exceeded")
        assert (problem["quota"], problem["limit"], problem["used"], problem["wanted"]) == ("turns", 2, 1, 2)
        assert svc.client.get("/v1/spaces/hq/stats", headers=headers).json()["evidence"] == 1
        svc.client.close()
        svc.keys.close()


def test_the_access_log_records_calls_without_their_content(service: Service) -> None:
    writer = service.headers(["hlog"])
    writer_id = writer["Authorization"].split("_")[1]
    service.client.post("/v1/spaces/hlog/turns", json={"turns": [{"text": "a secret sentence"}]}, headers=writer)
    service.client.post("/v1/spaces/hlog/recall", json={"query": "the secret question"}, headers=writer)
    service.client.get("/v1/spaces/hlog/beliefs", headers=service.headers(["elsewhere"]))
    service.client.get("/v1/spaces/hlog/beliefs")
    admin = service.headers(["*"], "admin")
    events = service.client.get("/v1/keys/log", params={"space": "hlog"}, headers=admin).json()
    assert [(e["route"], e["status"], e["key_id"] == writer_id) for e in reversed(events)] == [
        ("POST /v1/spaces/{space}/turns", 201, True),
        ("POST /v1/spaces/{space}/recall", 200, True),
        ("GET /v1/spaces/{space}/beliefs", 403, False),
        ("GET /v1/spaces/{space}/beliefs", 401, False),
    ]
    assert events[0]["key_id"] is None and {e["surface"] for e in events} == {"http"}
    assert "secret" not in json.dumps(events)
    mine = service.client.get("/v1/keys/log", params={"key_id": writer_id}, headers=admin).json()
    assert {e["space"] for e in mine} == {"hlog"} and len(mine) == 2
    memory: Memory = service.app.state.eywa.memory
    audited = memory.audit("access_log", {"space": "hlog", "from": "2000-01-01", "to": "2999-01-01"}).records()
    assert [(r["route"], r["status"]) for r in reversed(audited)][:2] == [
        ("POST /v1/spaces/{space}/turns", 201), ("POST /v1/spaces/{space}/recall", 200),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ('{"query": "where?", "k": true}', "body.k"),
        ('{"query": "where?", "k": "5"}', "body.k"),
        ('{"query": "where?", "k": 5.0}', "body.k"),
        ('{"query": "where?", "budget_tokens": true}', "body.budget_tokens"),
        ('{"query": "where?", "budget_tokens": "800"}', "body.budget_tokens"),
        ('{"query": 5}', "body.query"),
        ('{"query": "where?", "policy": 1}', "body.policy"),
        ('{"query": "where?", "as_of": 1700000000}', "body.as_of"),
    ],
)
def test_recall_values_python_refuses_are_refused_over_http_with_its_code(
    service: Service, memory: Memory, body: str, field: str
) -> None:
    # Found by probing: pydantic's lax mode read true, "5" and 5.0 as k=1 and k=5 and
    # answered 200, where Memory.recall refuses each (invalid_input, field k); the other
    # types were a validation_error, not the core's code.
    arguments = json.loads(body)
    with pytest.raises(InvalidInputError) as refused:
        memory.recall("hrecall", **arguments)
    assert refused.value.code == "invalid_input"
    headers = service.headers(["hrecall"])
    problem = _problem(_raw(service, "/v1/spaces/hrecall/recall", body, headers), 422, "invalid_input")
    assert [e["field"] for e in problem["errors"]] == [field]


@pytest.mark.parametrize(
    ("path", "methods"),
    [("/v1/keys", {"GET", "POST"}), ("/v1/spaces/allow/merges", {"GET", "POST"}), ("/v1/spaces/allow", {"DELETE"})],
)
def test_a_method_not_allowed_names_every_method_of_the_path(service: Service, path: str, methods: set[str]) -> None:
    """RFC 9110 15.5.6: a 405 lists the methods the resource supports. A path served by two
    routes (``GET`` and ``POST /v1/keys``) named only the first one's (``Allow: POST``;
    found by schemathesis's ``allow_header_conformance`` check)."""
    answered = service.client.request("PUT", path, headers=service.headers(["*"], "read,write,admin"))
    body = _problem(answered, 405, "method_not_allowed")
    assert methods <= set(answered.headers["allow"].split(", ")) <= methods | {"HEAD"}, answered.headers
    assert body["status"] == 405
