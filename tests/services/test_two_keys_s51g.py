"""A request carrying two different API keys in one header name is refused, not resolved.

``Authorization: Bearer <key with read on a>`` followed by ``Authorization: Bearer <key with
read on b only>`` was served with the rights of the last key on the API and of the first on
the MCP server: a silent choice between two callers, made differently by the two doors.
Neither key is taken; the answer is 401 ``unauthorized`` saying why. The same key twice, or
one key in ``Authorization`` and another in ``X-API-Key`` (``Authorization`` first, as
documented), is served.
"""

from __future__ import annotations

import json

import httpx2

from eywa.memory import Memory
from tests.services.conftest import Service
from tests.services.test_mcp_http import SPACE, HttpServer, server  # noqa: F401 - the MCP server fixture

OWN = "twokeys-s51g"


def test_the_api_refuses_two_different_bearer_keys(service: Service, memory: Memory) -> None:
    memory.remember(OWN, [{"text": "I live in Oslo.", "speaker": "Bo"}], wait=True)
    mine = service.headers([OWN], "read")["Authorization"]
    other = service.headers(["elsewhere-s51g"], "read")["Authorization"]
    url = f"/v1/spaces/{OWN}/stats"
    for pair in ([("Authorization", other), ("Authorization", mine)], [("Authorization", mine), ("Authorization", other)]):
        refused = service.client.get(url, headers=pair)
        assert refused.status_code == 401, refused.text
        assert refused.json()["code"] == "unauthorized" and "more than one API key" in refused.json()["detail"]
    keys = [("X-API-Key", other.removeprefix("Bearer ")), ("X-API-Key", mine.removeprefix("Bearer "))]
    assert service.client.get(url, headers=keys).status_code == 401
    assert service.client.get(url, headers=[("Authorization", mine), ("Authorization", mine)]).status_code == 200
    both = [("Authorization", mine), ("X-API-Key", other.removeprefix("Bearer "))]
    assert service.client.get(url, headers=both).status_code == 200  # Authorization first, as documented


def test_the_mcp_server_refuses_two_different_bearer_keys(server: HttpServer) -> None:  # noqa: F811
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "recall", "arguments": {"space": SPACE, "query": "Where?"}}}  # fmt: skip
    base = [("Content-Type", "application/json"), ("Accept", "application/json, text/event-stream")]
    own, other = f"Bearer {server.own_key}", f"Bearer {server.other_key}"
    answers = {}
    for label, keys in {"own first": [own, other], "other first": [other, own], "own twice": [own, own]}.items():
        answer = httpx2.post(server.url, content=json.dumps(call).encode(),
                             headers=[*base, *(("Authorization", key) for key in keys)], timeout=30)  # fmt: skip
        assert answer.status_code == 200, answer.text
        answers[label] = answer.text
    for label in ("own first", "other first"):
        assert "unauthorized: the request carries more than one API key" in answers[label], answers[label]
    assert "unauthorized" not in answers["own twice"] and "forbidden" not in answers["own twice"], answers["own twice"]
