"""The HTTP API over a real embedded Memory: auth on every route, write → read with
provenance and author, limits that write nothing, problem+json errors, keys, probes."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any


from eywa.memory import Memory
from eywa.settings import EywaSettings
from tests.services.conftest import Service, build_service

TURNS = [
    {"text": "I work at Google now.", "speaker": "Cecilia", "observed_at": "2023-05-01T10:00:00Z",
     "metadata": {"channel": "chat"}},
    {"text": "I live in Boston.", "speaker": "Cecilia", "observed_at": "2023-05-01T10:01:00Z"},
]


def _scope_of(path: str, method: str = "GET") -> str:
    if path.startswith("/v1/keys") or path.endswith("/export"):
        return "admin"  # an export hands over the whole space (#13)
    if path.endswith("/erase") or "/erasures/" in path or path == "/v1/spaces/{space}":
        return "erase"
    if method == "POST" and path.endswith(("/retract", "/confirm", "/accept", "/dismiss", "/merges", "/merges/undo")):
        return "write"  # corrections and merges (#13)
    if method == "POST" and path.endswith("/import"):
        return "write"  # portability (#13)
    return "write" if path.endswith("/turns") else "read"


def _body_for(path: str, method: str) -> dict[str, Any] | None:
    if path.endswith("/turns"):
        return _body_for_turns()
    if path.endswith("/recall"):
        return {"query": "walk"}
    if path.endswith("/erase"):
        return {"speaker": "nobody"}
    if path.endswith("/retract"):
        return {"reason": "walk"}
    if path.endswith(("/merges", "/merges/undo")) and method == "POST":
        return {"source": "walk", "target": "nobody"}
    if path == "/v1/keys" and method == "POST":
        return {"spaces": ["walk"], "scopes": ["read"]}
    if path.endswith("/rotate"):
        return {"grace_seconds": 0}
    return None


def _v1_operations(service: Service) -> list[tuple[str, str]]:
    """Every (method, path template) of the route table, read from the published schema."""
    paths: dict[str, dict[str, Any]] = service.app.openapi()["paths"]
    return [(m.upper(), p) for p, ops in paths.items() if p.startswith("/v1") for m in ops]


def test_every_v1_route_refuses_a_missing_key_a_foreign_space_and_a_missing_scope(service: Service) -> None:
    writer = service.headers(["walk"], "read,write")
    job = service.client.post("/v1/spaces/walk/turns", json=_body_for_turns(), headers=writer).json()["job"]["id"]
    foreign = service.headers(["elsewhere"], "read,write,admin")
    operations = _v1_operations(service)
    assert len(operations) == 34  # 17, three erase routes, five of corrections and four of merges (#13), three browse routes (#16), export and import (#13)
    for method, template in operations:
        path = re.sub(r"\{(\w+)\}", lambda m: {"space": "walk", "job_id": job}.get(m.group(1), "x"), template)
        body = _body_for(template, method)
        scope = _scope_of(template, method)

        def call(headers: dict[str, str] | None) -> int:
            return service.client.request(method, path, json=body, headers=headers).status_code

        assert call(None) == 401, (method, template)
        assert call({"Authorization": "Bearer eyw_nope_nope"}) == 401, (method, template)
        if template == "/v1/jobs/{job_id}":  # another space's job is as unknown as a missing one
            assert call(foreign) == 404, (method, template)
        elif template == "/v1/spaces":  # space-less: it lists only the key's own spaces
            listed = service.client.get(path, headers=foreign).json()["items"]
            assert "walk" not in [s["space"] for s in listed], (method, template)
        else:  # the key routes too: admin on another space manages no key (#s14 audit)
            assert call(foreign) == 403, (method, template)
        wrong_scope = {"read": "write", "write": "read", "admin": "read,write", "erase": "read,write,admin"}[scope]
        refused = 404 if template == "/v1/jobs/{job_id}" else 403
        assert call(service.headers(["*"] if scope == "admin" else ["walk"], wrong_scope)) == refused, (method, template)
        holder = ["*"] if template.startswith("/v1/keys") else ["walk"]  # key management: admin on every space
        assert call(service.headers(holder, "read,write,admin,erase")) not in (401, 403), (method, template)


def _body_for_turns() -> dict[str, Any]:
    return {"turns": [{"text": "walk turn", "speaker": "W"}]}


def test_remember_then_recall_carries_provenance_and_the_writing_key(service: Service) -> None:
    headers = service.headers(["prov"])
    key_id = headers["Authorization"].split("_")[1]
    posted = service.client.post("/v1/spaces/prov/turns", json={"turns": TURNS}, headers=headers)
    assert posted.status_code == 201
    body = posted.json()
    assert len(body["ids"]) == 2 and body["author"] == key_id
    assert body["job"]["status"] == "done"
    job = service.client.get(f"/v1/jobs/{body['job']['id']}", headers=headers).json()
    assert job["status"] == "done" and job["detail"]["space"] == "prov"

    recalled = service.client.post("/v1/spaces/prov/recall", json={"query": "Where does Cecilia work?"}, headers=headers)
    assert recalled.status_code == 200
    result = recalled.json()
    assert "Google" in result["context"] and result["answer_instructions"]
    assert "timings_ms" in result["trace"]
    cited = {ref["id"] for item in result["items"] for ref in item["provenance"]}
    assert body["ids"][0] in cited

    evidence = service.client.get(f"/v1/spaces/prov/evidence/{body['ids'][0]}", headers=headers).json()
    assert evidence["author"] == key_id and evidence["metadata"] == {"channel": "chat"}

    beliefs = service.client.get("/v1/spaces/prov/beliefs", params={"attribute": "employer"}, headers=headers).json()
    assert [b["value"] for b in beliefs] == ["Google"]
    explained = service.client.get(f"/v1/spaces/prov/beliefs/{beliefs[0]['id']}/explain", headers=headers).json()
    assert explained["belief"]["id"] == beliefs[0]["id"]
    assert [t["id"] for t in explained["turns"]] == [body["ids"][0]]
    dims = service.client.get("/v1/spaces/prov/entities/Cecilia/dimensions", headers=headers).json()
    assert {d["attribute"] for d in dims} == {"employer", "residence"}
    one = service.client.get("/v1/spaces/prov/entities/Cecilia/dimensions/employer", headers=headers).json()
    assert one["mode"] == "Google"
    deltas = service.client.get("/v1/spaces/prov/entities/Cecilia/dimensions/employer/deltas", headers=headers)
    assert [d["observed"] for d in deltas.json()] == ["Google"]


def test_spaces_are_isolated_between_keys(service: Service) -> None:
    alice, bob = service.headers(["iso-a"]), service.headers(["iso-b"])
    service.client.post("/v1/spaces/iso-a/turns", json={"turns": TURNS}, headers=alice)
    found = service.client.post("/v1/spaces/iso-b/recall", json={"query": "Where does Cecilia work?"}, headers=bob)
    assert found.status_code == 200 and "Google" not in found.json()["context"]
    assert service.client.post("/v1/spaces/iso-a/recall", json={"query": "work"}, headers=bob).status_code == 403


def _stats(service: Service, space: str) -> int:
    headers = service.headers([space], "read")
    count: int = service.client.get(f"/v1/spaces/{space}/stats", headers=headers).json()["evidence"]
    return count


def test_requests_over_a_limit_are_refused_and_write_nothing(tmp_path: Path) -> None:
    # The limits are the core's: the Memory enforces them, the service maps its errors.
    settings = EywaSettings(
        data_dir=tmp_path, max_turns_per_batch=2, max_chars_per_turn=50, max_k=5,
        max_budget_tokens=100, max_body_bytes=4096,
    )
    memory = Memory.open(tmp_path / "limits", settings=settings)
    svc = build_service(memory, tmp_path, settings)
    headers = svc.headers(["limits"])
    many = svc.client.post("/v1/spaces/limits/turns", json={"turns": [{"text": f"t{i}"} for i in range(3)]}, headers=headers)
    assert many.status_code == 413 and many.json()["code"] == "too_many_turns"
    long = svc.client.post(
        "/v1/spaces/limits/turns", json={"turns": [{"text": "ok"}, {"text": "x" * 51}]}, headers=headers
    )
    assert long.status_code == 422 and long.json()["errors"] == [
        {"field": "body.turns.1.text", "message": "at most 50 characters"}
    ]
    assert long.json()["code"] == "turn_too_long"
    huge = svc.client.post("/v1/spaces/limits/turns", json={"turns": [{"text": "y" * 5000}]}, headers=headers)
    assert huge.status_code == 413 and huge.json()["code"] == "payload_too_large"
    chunked = svc.client.post(
        "/v1/spaces/limits/turns", content=iter([b'{"turns": [{"text": "', b"z" * 5000, b'"}]}']),
        headers={**headers, "Content-Type": "application/json"},
    )
    assert chunked.status_code == 413
    assert _stats(svc, "limits") == 0
    recall = svc.client.post("/v1/spaces/limits/recall", json={"query": "q", "k": 6, "budget_tokens": 101}, headers=headers)
    assert recall.status_code == 422
    assert [e["field"] for e in recall.json()["errors"]] == ["body.k", "body.budget_tokens"]
    assert recall.json()["code"] == "limit_exceeded"
    svc.client.close()
    svc.keys.close()
    memory.close()


def test_a_body_in_a_content_coding_is_refused_with_415_before_it_is_read(service: Service) -> None:
    """The API decodes no content coding; a body declared gzip was read as plain JSON (a plain
    one was stored, a real gzip one was a 422 about JSON)."""
    headers = {**service.headers(["coded"]), "Content-Type": "application/json"}
    plain = json.dumps({"turns": [{"text": "I live in Porto.", "speaker": "Ana"}]}).encode()
    for coding, body in [("gzip", plain), ("gzip", gzip.compress(plain)), ("identity, br", plain), ("GZIP", plain)]:
        refused = service.client.post("/v1/spaces/coded/turns", content=body, headers={**headers, "Content-Encoding": coding})
        assert refused.status_code == 415, (coding, refused.text)
        assert refused.headers["content-type"] == "application/problem+json"
        assert refused.json()["code"] == "unsupported_media_type" and refused.headers["accept-encoding"] == "identity"
    assert _stats(service, "coded") == 0
    accepted = service.client.post("/v1/spaces/coded/turns", content=plain, headers={**headers, "Content-Encoding": "identity"})
    assert accepted.status_code == 201 and _stats(service, "coded") == 1


def test_a_request_without_a_body_is_served_whatever_content_coding_it_declares(service: Service) -> None:
    """RFC 9110 refuses content in an unsupported coding (8.4, 15.5.16); a request without
    content has none to refuse: it was answered 415 all the same (GET /healthz too)."""
    headers = service.headers(["coded"])
    for coding in ("gzip", "br, gzip"):
        health = service.client.get("/healthz", headers={"Content-Encoding": coding})
        assert health.status_code == 200 and health.json() == {"status": "ok"}, (coding, health.text)
        counted = service.client.get("/v1/spaces/coded/stats", headers={**headers, "Content-Encoding": coding})
        assert counted.status_code == 200, (coding, counted.text)
        empty = service.client.post(
            "/v1/spaces/coded/turns", content=b"", headers={**headers, "Content-Encoding": coding,
                                                             "Content-Type": "application/json"},
        )  # fmt: skip
        assert empty.status_code == 422, (coding, empty.text)  # an empty body: no content to decode, no turns
    chunked = service.client.post(  # a body framed by chunks, its length unknown beforehand: refused
        "/v1/spaces/coded/turns", content=iter([gzip.compress(b'{"turns": []}')]),
        headers={**headers, "Content-Encoding": "gzip", "Content-Type": "application/json"},
    )
    assert chunked.status_code == 415, chunked.text


def test_errors_are_problem_json_with_stable_codes_and_field_names(service: Service) -> None:
    headers = service.headers(["errs"])
    missing = service.client.post("/v1/spaces/errs/recall", json={"k": 3}, headers=headers)
    assert missing.status_code == 422
    assert missing.headers["content-type"] == "application/problem+json"
    problem = missing.json()
    assert {"type", "title", "status", "detail", "code", "errors"} <= set(problem)
    assert problem["code"] == "validation_error" and problem["status"] == 422
    assert problem["errors"][0]["field"] == "body.query"
    bad_turn = service.client.post("/v1/spaces/errs/turns", json={"turns": [{"text": "  "}]}, headers=headers)
    assert bad_turn.status_code == 422 and bad_turn.json()["errors"][0]["field"] == "body.turns.0.text"
    absent = service.client.get("/v1/spaces/errs/evidence/ev_nothing", headers=headers)
    assert absent.status_code == 404 and absent.json()["code"] == "not_found"
    assert absent.headers["content-type"] == "application/problem+json"
    unknown = service.client.get("/v1/nowhere", headers=headers)
    assert unknown.status_code == 404 and unknown.json()["code"] == "not_found"
    no_key = service.client.get("/v1/spaces/errs/beliefs")
    assert no_key.json()["code"] == "unauthorized" and no_key.headers["www-authenticate"] == "Bearer"


def test_admin_keys_over_http_create_use_and_revoke(service: Service) -> None:
    admin = service.headers(["*"], "admin")
    created = service.client.post("/v1/keys", json={"spaces": ["adm"], "scopes": ["read"]}, headers=admin)
    assert created.status_code == 201
    secret, key_id = created.json()["secret"], created.json()["key"]["id"]
    reader = {"X-API-Key": secret}
    assert service.client.get("/v1/spaces/adm/beliefs", headers=reader).status_code == 200
    listed = service.client.get("/v1/keys", headers=admin).json()
    assert key_id in {k["id"] for k in listed} and all("secret" not in k for k in listed)
    assert service.client.delete(f"/v1/keys/{key_id}", headers=admin).json()["revoked_at"] is not None
    assert service.client.get("/v1/spaces/adm/beliefs", headers=reader).status_code == 401


def test_probes_and_metrics(service: Service) -> None:
    assert service.client.get("/healthz").json() == {"status": "ok"}
    ready = service.client.get("/readyz").json()
    assert ready["status"] == "ready" and all(ready["checks"].values())
    headers = service.headers(["met"])
    service.client.post("/v1/spaces/met/turns", json={"turns": TURNS}, headers=headers)
    service.client.post("/v1/spaces/met/recall", json={"query": "Where does Cecilia live?"}, headers=headers)
    text = service.client.get("/metrics").text
    assert 'eywa_recall_stage_ms_count{stage="total"} 1.0' in text
    assert "eywa_turns_ingested_total 2.0" in text
    assert 'route="/v1/spaces/{space}/recall"' in text and "/v1/spaces/met/" not in text


def test_readyz_reports_an_unreachable_dependency(memory: Memory, tmp_path: Path) -> None:
    class DownLimiter:
        in_process = False

        def hit(self, key_id: str) -> Any:
            raise AssertionError("not called")

        def ping(self) -> bool:
            return False

    svc = build_service(memory, tmp_path, limiter=DownLimiter())
    ready = svc.client.get("/readyz")
    assert ready.status_code == 503 and "rate_limiter" in ready.json()["detail"]
    svc.client.close()
    svc.keys.close()
