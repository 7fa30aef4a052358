"""README, "The input contract": the same input is refused "with the same error ``code``"
and field on every surface. A table of bad query and path values, each sent over HTTP,
through ``eywa.Client`` and (where Python takes the argument) to ``Memory``: the codes and
fields must agree.

Found by the audit of s32: the routes checked some values themselves, typed by FastAPI,
and answered ``validation_error`` where ``Memory`` says ``invalid_input`` or
``limit_exceeded`` — a belief's ``status`` of ``bogus`` (a ``Literal``), a timeline's
``speaker`` over 200 characters (a route bound, where a label's limit is 500), a merges'
``include_removed`` of ``maybe`` (a ``bool``, which ``Memory.merges`` did not check: ``"no"``
listed the undone merges); a page's ``offset`` or ``limit`` out of range (a value only HTTP
takes) answered ``validation_error`` too. The access log's ``space`` and ``key_id`` were
not checked at all (``*`` and a 10,000-character id were filters that matched nothing),
where ``eywa keys log`` refuses both.

The last test walks every query parameter of every route of the published schema, so a
parameter added later with a FastAPI bound of its own is caught.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from eywa import Client, Memory
from eywa.errors import EywaError, InvalidInputError
from tests.services.conftest import Service

SPACE = "same-code"
LONG = "x" * 501


@dataclass(frozen=True)
class Case:
    """One bad value: the request carrying it, what ``Memory`` does with it (None: only
    HTTP takes it), what ``eywa.Client`` does with it (None: the Client has no such
    argument), and the code and field every surface must answer."""

    name: str
    path: str
    params: dict[str, str]
    code: str
    field: str
    python: Callable[[Memory], Any] | None
    client: Callable[[Client], Any] | None


CASES = [
    Case("belief status", f"/v1/spaces/{SPACE}/beliefs", {"status": "bogus"}, "invalid_input", "query.status",
         lambda m: m.beliefs(SPACE, status="bogus"), lambda c: c.beliefs(SPACE, status="bogus")),  # type: ignore[arg-type]
    Case("candidate status", f"/v1/spaces/{SPACE}/candidates", {"status": "bogus"}, "invalid_input", "query.status",
         lambda m: m.candidates(SPACE, "bogus"), lambda c: c.candidates(SPACE, "bogus")),  # type: ignore[arg-type]
    Case("belief subject", f"/v1/spaces/{SPACE}/beliefs", {"subject": LONG}, "limit_exceeded", "query.subject",
         lambda m: m.beliefs(SPACE, LONG), lambda c: c.beliefs(SPACE, LONG)),
    # A speaker filter is checked as the speaker filter of ``forget`` is: a label.
    Case("timeline speaker", f"/v1/spaces/{SPACE}/timeline", {"speaker": LONG}, "limit_exceeded", "query.speaker",
         lambda m: m.forget(SPACE, speaker=LONG), None),
    Case("timeline since", f"/v1/spaces/{SPACE}/timeline", {"since": "5"}, "invalid_input", "query.since",
         lambda m: m.dimensions(SPACE, as_of="5"), None),
    Case("merges include_removed", f"/v1/spaces/{SPACE}/merges", {"include_removed": "maybe"}, "invalid_input",
         "query.include_removed", lambda m: m.merges(SPACE, "maybe"),  # type: ignore[arg-type]
         lambda c: c.merges(SPACE, "maybe")),  # type: ignore[arg-type]
    Case("dimensions as_of", f"/v1/spaces/{SPACE}/dimensions", {"as_of": "yesterday"}, "invalid_input", "query.as_of",
         lambda m: m.dimensions(SPACE, as_of="yesterday"), lambda c: c.dimensions(SPACE, as_of="yesterday")),
    Case("access log space", "/v1/keys/log", {"space": "*"}, "invalid_input", "query.space",
         lambda m: m.beliefs("*"), None),
    Case("access log key", "/v1/keys/log", {"key_id": LONG}, "limit_exceeded", "query.key_id",
         lambda m: m.retract_belief(SPACE, LONG, reason="r"), None),
    Case("page offset", f"/v1/spaces/{SPACE}/beliefs", {"offset": "-1"}, "invalid_input", "query.offset", None, None),
    Case("page offset text", f"/v1/spaces/{SPACE}/candidates", {"offset": "first"}, "invalid_input", "query.offset",
         None, None),
    Case("page limit", f"/v1/spaces/{SPACE}/timeline", {"limit": "501"}, "limit_exceeded", "query.limit", None, None),
    Case("spaces limit", "/v1/spaces", {"limit": "0"}, "invalid_input", "query.limit", None, None),
    Case("log limit", "/v1/keys/log", {"limit": "10001"}, "limit_exceeded", "query.limit", None, None),
]  # fmt: skip


class _Forward(httpx.BaseTransport):
    """``eywa.Client``'s requests answered by the test's app (no server, no port)."""

    def __init__(self, service: Service) -> None:
        self._service = service

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        answer = self._service.client.request(
            request.method, str(request.url), headers=dict(request.headers), content=request.read()
        )
        return httpx.Response(answer.status_code, headers=answer.headers, content=answer.content)


@pytest.fixture
def admin(service: Service, memory: Memory) -> Iterator[dict[str, str]]:
    headers = service.headers(["*"], "read,write,admin,erase")
    memory.remember(SPACE, [{"text": "I work at Acme.", "speaker": "Ana"}])
    yield headers


def _answer(service: Service, case: Case, headers: dict[str, str]) -> dict[str, Any]:
    response = service.client.get(case.path, params=case.params, headers=headers)
    assert response.status_code == 422, (case.name, response.text)
    assert response.headers["content-type"] == "application/problem+json"
    problem: dict[str, Any] = response.json()
    return problem


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_bad_value_answers_the_same_code_on_every_surface(
    service: Service, memory: Memory, admin: dict[str, str], case: Case
) -> None:
    problem = _answer(service, case, admin)
    assert problem["code"] == case.code, (case.name, problem)
    assert problem["errors"][0]["field"] == case.field, (case.name, problem)
    if case.python is not None:
        with pytest.raises(EywaError) as raised:
            case.python(memory)
        assert raised.value.code == case.code, (case.name, raised.value)
    if case.client is not None:
        token = admin["Authorization"].removeprefix("Bearer ")
        with Client("http://eywa.test", token, transport=_Forward(service), retries=0) as client:
            with pytest.raises(InvalidInputError) as sent:
                case.client(client)
        assert sent.value.code == case.code, (case.name, sent.value)
        assert sent.value.problems[0].field == case.field.split(".", 1)[1], (case.name, sent.value.problems)


def test_include_removed_takes_a_bool_in_python_and_true_or_false_over_http(
    service: Service, memory: Memory, admin: dict[str, str]
) -> None:
    with pytest.raises(InvalidInputError):
        memory.merges(SPACE, "no")  # type: ignore[arg-type]  # a true string: it listed the undone merges
    for text in ("true", "false", "1", "0", "yes", "no", "on", "off", "True"):
        answered = service.client.get(f"/v1/spaces/{SPACE}/merges", params={"include_removed": text}, headers=admin)
        assert answered.status_code == 200, (text, answered.text)


def test_no_query_parameter_of_any_route_answers_validation_error(service: Service, admin: dict[str, str]) -> None:
    """Every query parameter of every GET route, sent values of the wrong kind: the answer
    is the core's vocabulary (or a success), never the schema's ``validation_error``."""
    paths: dict[str, Any] = service.client.get("/openapi.json").json()["paths"]
    walked = 0
    for template, operations in paths.items():
        get = operations.get("get")
        if get is None:
            continue
        path = template.format_map(_Filled())
        for parameter in get.get("parameters", []):
            if parameter["in"] != "query":
                continue
            for value in ("-1", "1e999", "maybe", "x" * 10_001, "\x00"):
                answered = service.client.get(path, params={parameter["name"]: value}, headers=admin)
                walked += 1
                assert answered.status_code < 500, (template, parameter["name"], value, answered.text)
                if answered.status_code >= 400:
                    assert answered.headers["content-type"] == "application/problem+json"
                    code = answered.json()["code"]
                    assert code != "validation_error", (template, parameter["name"], value, answered.json())
    assert walked >= 60


class _Filled(dict[str, str]):
    """Path parameters of a template: the seeded space, a name elsewhere."""

    def __missing__(self, key: str) -> str:
        return SPACE if key == "space" else "Ana"


def test_a_key_id_is_checked_as_the_cli_checks_it(service: Service, admin: dict[str, str]) -> None:
    """``eywa keys revoke`` calls an unknown id of 65 characters unknown (the store's 404)
    and one past the label limit ``limit_exceeded``; the route's bound of 64 answered
    ``validation_error`` for both."""
    with pytest.raises(EywaError) as unknown:
        service.keys.revoke("k" * 65)
    for method, suffix in (("DELETE", ""), ("POST", "/rotate")):
        body: dict[str, Any] = {"json": {}} if method == "POST" else {}
        absent = service.client.request(method, f"/v1/keys/{'k' * 65}{suffix}", headers=admin, **body)
        assert absent.status_code == 404 and absent.json()["code"] == unknown.value.code == "not_found", absent.text
        long = service.client.request(method, f"/v1/keys/{LONG}{suffix}", headers=admin, **body)
        assert long.status_code == 422 and long.json()["code"] == "limit_exceeded", long.text
        assert long.json()["errors"][0]["field"] == "path.key_id"


@dataclass(frozen=True)
class BodyCase:
    """One bad body value: the request, what Python (``Memory`` or, for keys, the key store
    ``eywa keys`` calls) does with it, and the code (and field, when the refusal names one)."""

    name: str
    path: str
    body: dict[str, Any]
    code: str
    field: str | None
    python: Callable[[Memory, Service], Any]


BODY_CASES = [
    BodyCase("merge source", f"/v1/spaces/{SPACE}/merges", {"source": 5, "target": "Acme"}, "invalid_input",
             "body.source", lambda m, s: m.accept_merge(SPACE, 5, "Acme")),  # type: ignore[arg-type]
    BodyCase("undo target", f"/v1/spaces/{SPACE}/merges/undo", {"source": "Ana", "target": ["Acme"]}, "invalid_input",
             "body.target", lambda m, s: m.undo_merge(SPACE, "Ana", ["Acme"])),  # type: ignore[arg-type]
    BodyCase("retract reason", f"/v1/spaces/{SPACE}/beliefs/bel_x/retract", {"reason": 5}, "invalid_input",
             "body.reason", lambda m, s: m.retract_belief(SPACE, "bel_x", reason=5)),  # type: ignore[arg-type]
    BodyCase("confirm reason", f"/v1/spaces/{SPACE}/beliefs/bel_x/confirm", {"reason": ["r"]}, "invalid_input",
             "body.reason", lambda m, s: m.confirm_belief(SPACE, "bel_x", reason=["r"])),  # type: ignore[arg-type]
    BodyCase("key scope", "/v1/keys", {"spaces": ["a"], "scopes": ["root"]}, "invalid_input", None,
             lambda m, s: s.keys.create(["a"], ["root"])),  # type: ignore[list-item]
    BodyCase("key spaces", "/v1/keys", {"spaces": [], "scopes": ["read"]}, "invalid_input", "body.spaces",
             lambda m, s: s.keys.create([], ["read"])),
    BodyCase("key spaces text", "/v1/keys", {"spaces": "a", "scopes": ["read"]}, "invalid_input", "body.spaces",
             lambda m, s: s.keys.create([5], ["read"])),  # type: ignore[list-item]
    BodyCase("key name", "/v1/keys", {"spaces": ["a"], "scopes": ["read"], "name": "n" * 201}, "limit_exceeded",
             "body.name", lambda m, s: s.keys.create(["a"], ["read"], "n" * 201)),
]  # fmt: skip


@pytest.mark.parametrize("case", BODY_CASES, ids=[c.name for c in BODY_CASES])
def test_a_bad_body_value_answers_pythons_code(service: Service, memory: Memory, admin: dict[str, str], case: BodyCase) -> None:
    """Found by s33's sweep: typed in the request models, these were the schema's
    ``validation_error``; a name, reason or key field of the wrong type or over its bound
    now answers the code Python raises (``eywa keys create`` calls the same key store)."""
    answered = service.client.post(case.path, json=case.body, headers=admin)
    assert answered.status_code == 422, (case.name, answered.text)
    problem = answered.json()
    assert problem["code"] == case.code, (case.name, problem)
    if case.field is not None:
        assert problem["errors"][0]["field"] == case.field, (case.name, problem)
    with pytest.raises(EywaError) as raised:
        case.python(memory, service)
    assert raised.value.code == case.code, (case.name, raised.value)


@pytest.mark.parametrize("grace", [31 * 86400, -1, True, "60", 10**30, 1.5])
def test_a_rotation_grace_out_of_range_is_invalid_input(service: Service, admin: dict[str, str], grace: Any) -> None:
    """As ``eywa keys rotate --grace 31d`` (the key store's check); 10**30 seconds must not
    overflow ``timedelta`` into a 500."""
    record, _ = service.keys.create(["a"], ["read"])
    answered = service.client.post(f"/v1/keys/{record.id}/rotate", json={"grace_seconds": grace}, headers=admin)
    assert answered.status_code == 422 and answered.json()["code"] == "invalid_input", answered.text
    assert answered.json()["errors"][0]["field"] == "body.grace_seconds"
    fine = service.client.post(f"/v1/keys/{record.id}/rotate", json={"grace_seconds": 0}, headers=admin)
    assert fine.status_code == 200, fine.text
