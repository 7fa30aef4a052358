"""docs/service.md, Errors: "Nothing a client sends gets a 5xx"; README, the input contract:
times must lie between 0001-01-02T00:00:00Z and 9999-12-30T23:59:59.999999Z after conversion
to UTC, and nothing raised comes from below (no ``OverflowError``). The timeline's
``since``/``until`` (and the console's ``from``/``to``/``as_of``) were parsed apart from the
contract: ``9999-12-31T23:59:59-01:00`` overflowed on conversion to UTC, a 500 (audit of s14).
"""

from __future__ import annotations

from fastapi.testclient import TestClient

from eywa.memory import Memory
from services.console.auth import LOGIN_CSRF_COOKIE
from tests.services.conftest import Service

SPACE = "pr-times"
PAST_YEAR_9999 = "9999-12-31T23:59:59-01:00"  # 10000-01-01T00:59:59Z
BEFORE_YEAR_1 = "0001-01-01T00:00:00+01:00"  # year 0 in UTC


def test_timeline_times_outside_the_range_are_a_422_never_a_500(service: Service, memory: Memory) -> None:
    memory.remember(SPACE, [{"text": "I paint on Sundays.", "speaker": "Io", "observed_at": "2024-01-05T10:00:00Z"}])
    headers = service.headers([SPACE], "read")
    client = TestClient(service.app, raise_server_exceptions=False)  # a 500 must show as one
    for name in ("since", "until"):
        for value in (PAST_YEAR_9999, BEFORE_YEAR_1):
            answer = client.get(f"/v1/spaces/{SPACE}/timeline", params={name: value}, headers=headers)
            assert answer.status_code == 422, (name, value, answer.status_code, answer.text)
            assert answer.json()["code"] == "invalid_input" and name in str(answer.json()["errors"])
    edges = {"since": "0001-01-02T00:00:00Z", "until": "9999-12-30T23:59:59.999999Z"}
    inside = client.get(f"/v1/spaces/{SPACE}/timeline", params=edges, headers=headers)
    assert inside.status_code == 200 and [t["text"] for t in inside.json()["items"]] == ["I paint on Sundays."]
    client.close()


def test_console_times_outside_the_range_are_a_400_never_a_500(service: Service, memory: Memory) -> None:
    memory.remember(SPACE, [{"text": "I paint on Sundays.", "speaker": "Io", "observed_at": "2024-01-05T10:00:00Z"}])
    _, secret = service.keys.create([SPACE], ["read"])
    client = TestClient(service.app, raise_server_exceptions=False)
    client.get("/console/login")
    token = client.cookies.get(LOGIN_CSRF_COOKIE)
    assert client.post("/console/login", data={"key": secret, "csrf": token}, follow_redirects=False).status_code == 303
    pages = [(f"/console/spaces/{SPACE}", "from"), (f"/console/spaces/{SPACE}", "to"),
             (f"/console/spaces/{SPACE}/recall", "as_of")]  # fmt: skip
    for path, name in pages:
        params = {name: PAST_YEAR_9999, **({"q": "paint"} if path.endswith("recall") else {})}
        answer = client.get(path, params=params)
        assert answer.status_code == 400, (path, name, answer.status_code)
        assert client.get(path, params={name: "2024-01-05"}).status_code == 200, (path, name)
    client.close()
