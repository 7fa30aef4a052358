"""A JSON body that names a key twice in one object is refused, not read as one of its values.

``json.loads`` (FastAPI's) and pydantic's parser (the MCP SDK's) keep the last value of a
repeated key without a word: ``{"query": "Where does Bo live?", "query": "Where does Tom
live?"}`` was answered for Tom, ``{"spaces": ["home"], "spaces": ["*"]}`` made a key for
every space, a turn saying ``"speaker": "Bo", "speaker": "Tom"`` was stored as Tom's. The API
answers 422 ``invalid_input`` naming ``body.<path>``, as it does a query parameter given
twice; the MCP server's HTTP transport a JSON-RPC error starting ``invalid_input:`` and naming
the path. Nothing is written.
"""

from __future__ import annotations

import json

import httpx2
import pytest

from eywa.memory import Memory
from tests.services.conftest import Service
from tests.services.test_mcp_http import SPACE, HttpServer, server  # noqa: F401 - the MCP server fixture

OWN = "dupkeys-s52f"


@pytest.fixture
def headers(service: Service) -> dict[str, str]:
    return {**service.headers([OWN], "read,write,erase"), "Content-Type": "application/json"}


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        (f"/v1/spaces/{OWN}/recall", '{"query": "Where does Bo live?", "query": "Where does Tom live?"}', "body.query"),
        (f"/v1/spaces/{OWN}/recall", '{"query": "Where does Bo live?", "k": 3, "k": 30}', "body.k"),
        (f"/v1/spaces/{OWN}/turns", '{"turns": [{"text": "I live in Oslo.", "speaker": "Bo", "speaker": "Tom"}]}',
         "body.turns.0.speaker"),
        (f"/v1/spaces/{OWN}/turns",
         '{"turns": [{"text": "I work at Initech."}, {"text": "Hi.", "metadata": {"team": "a", "team": "b"}}]}',
         "body.turns.1.metadata.team"),
        (f"/v1/spaces/{OWN}/turns", '{"turns": [{"text": "I live in Oslo."}], "turns": []}', "body.turns"),
        (f"/v1/spaces/{OWN}/erase", '{"speaker": "Bo", "speaker": "Tom"}', "body.speaker"),
    ],
    ids=["recall query", "recall k", "a turn's speaker", "metadata", "the batch itself", "erase selector"],
)  # fmt: skip
def test_a_body_naming_a_key_twice_is_refused(
    service: Service, memory: Memory, headers: dict[str, str], path: str, body: str, field: str
) -> None:
    refused = service.client.post(path, content=body.encode(), headers=headers)
    assert refused.status_code == 422, refused.text
    assert refused.headers["content-type"] == "application/problem+json"
    problem = refused.json()
    assert problem["code"] == "invalid_input" and problem["errors"] == [
        {"field": field, "message": "given more than once in its JSON object; give each key once"}
    ], problem
    assert problem["detail"].startswith(f"{field}: given more than once")
    assert memory.stats(OWN)["evidence"] == 0  # nothing written


def test_a_key_request_naming_its_spaces_twice_makes_no_key(service: Service) -> None:
    admin = service.headers(["*"], "admin")
    before = len(service.keys.list())
    refused = service.client.post(
        "/v1/keys", content=b'{"spaces": ["home"], "scopes": ["read"], "spaces": ["*"]}',
        headers={**admin, "Content-Type": "application/json"},
    )  # fmt: skip
    assert refused.status_code == 422 and refused.json()["errors"][0]["field"] == "body.spaces", refused.text
    assert len(service.keys.list()) == before


def test_bodies_naming_each_key_once_are_served(service: Service, headers: dict[str, str]) -> None:
    body = {"turns": [{"text": "I live in Oslo.", "speaker": "Bo", "metadata": {"a": {"b": 1}, "c": [{"b": 2}]}}]}
    stored = service.client.post(f"/v1/spaces/{OWN}/turns", content=json.dumps(body).encode(), headers=headers)
    assert stored.status_code == 201, stored.text
    # the same name in two objects is no repeat; nor is a body that is no JSON (refused as before)
    recalled = service.client.post(f"/v1/spaces/{OWN}/recall", json={"query": "Where does Bo live?", "k": 3}, headers=headers)
    assert recalled.status_code == 200 and "Oslo" in recalled.json()["context"], recalled.text
    broken = service.client.post(f"/v1/spaces/{OWN}/recall", content=b'{"query": "a",', headers=headers)
    assert broken.status_code == 422 and broken.json()["code"] == "validation_error", broken.text


def _mcp_post(server: HttpServer, body: bytes) -> httpx2.Response:  # noqa: F811
    headers = {"Authorization": f"Bearer {server.own_key}", "Content-Type": "application/json",
               "Accept": "application/json, text/event-stream"}  # fmt: skip
    return httpx2.post(server.url, content=body, headers=headers, timeout=30)


def test_an_mcp_call_naming_an_argument_twice_is_refused(server: HttpServer) -> None:  # noqa: F811
    call = ('{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "remember", "arguments": '
            f'{{"space": "{SPACE}", "turns": [{{"text": "I moved to Lyon.", "speaker": "Bo", "speaker": "Tom"}}]}}}}}}')
    refused = _mcp_post(server, call.encode())
    assert refused.status_code == 400, refused.text
    error = refused.json()
    assert error["id"] == 7 and error["error"]["code"] == -32602, error
    assert error["error"]["message"] == (
        "invalid_input: params.arguments.turns.0.speaker: given more than once in its JSON object; give each key once"
    )
    recall = ('{"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": "recall", "arguments": '
              f'{{"space": "{SPACE}", "query": "Where did Bo move?"}}}}}}')
    answered = _mcp_post(server, recall.encode())
    assert answered.status_code == 200 and "Lyon" not in answered.text, answered.text  # nothing was stored


def test_an_mcp_message_naming_its_id_twice_is_refused(server: HttpServer) -> None:  # noqa: F811
    call = b'{"jsonrpc": "2.0", "id": 1, "id": 2, "method": "tools/list"}'
    refused = _mcp_post(server, call)
    assert refused.status_code == 400, refused.text
    error = refused.json()
    assert error["id"] is None and error["error"]["code"] == -32600 and error["error"]["message"].startswith("invalid_input: id: ")
