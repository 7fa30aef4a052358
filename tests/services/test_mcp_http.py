"""The MCP server over streamable HTTP, driven by the official SDK's client: a remote agent
must present a key holding the tool's scope on the space named in the call, and meets the
API's limits, rate limiter and access log (issue #11: MCP skipped all three)."""

from __future__ import annotations

import gzip
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from eywa.runtime import open_graph_stores
from eywa.settings import EywaSettings
from eywa.stores.embedded.keys import SqliteKeyStore
from tests.services.conftest import free_port, fresh_window
from tests.services.raw_http import MALFORMED, exchange, parsed

ROOT = Path(__file__).resolve().parents[2]
SPACE = "mcphttp"
TURNS = [
    {"text": "I work at Google now.", "speaker": "Cecilia", "observed_at": "2023-05-01T10:00:00Z"},
    {"text": "I live in Boston.", "speaker": "Cecilia", "observed_at": "2023-05-01T10:01:00Z"},
]
START_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class HttpServer:
    url: str
    own_key: str  # read,write on SPACE
    other_key: str  # read,write on another space only
    read_only_key: str  # read on SPACE
    eraser_key: str  # erase on SPACE


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _start(data: Path, extra_env: dict[str, str] | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """``eywa mcp --transport http`` on a free local port over ``data``; returns (process, url)."""
    port = free_port()
    environ = {k: v for k, v in os.environ.items() if not k.startswith("EYWA_")}
    log_path = data / "server.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "eywa.cli", "mcp", "--transport", "http", "--data-dir", str(data),
             "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT, env={**environ, **(extra_env or {})}, stdout=log, stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + START_TIMEOUT_S
    while not _listening(port):
        if proc.poll() is not None or time.monotonic() > deadline:
            _stop(proc)
            pytest.fail(f"MCP HTTP server did not start: {log_path.read_text(errors='replace')[-2000:]}")
        time.sleep(0.1)
    return proc, f"http://127.0.0.1:{port}/mcp"


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=15)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HttpServer]:
    """``eywa mcp --transport http`` on a free local port, keys minted first."""
    data = tmp_path_factory.mktemp("mcp-http")
    keys = SqliteKeyStore(data / "keys.sqlite")
    own = keys.create([SPACE], ["read", "write"])[1]
    other = keys.create(["elsewhere"], ["read", "write"])[1]
    read_only = keys.create([SPACE], ["read"])[1]
    eraser = keys.create([SPACE], ["erase"])[1]
    keys.close()
    proc, url = _start(data)
    try:
        yield HttpServer(url, own, other, read_only, eraser)
    finally:
        _stop(proc)


async def _calls(url: str, headers: dict[str, str] | None, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    out: list[Any] = []
    with anyio.fail_after(60):
        async with (
            httpx2.AsyncClient(headers=headers, timeout=30.0) as http,
            streamable_http_client(url, http_client=http) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            for name, arguments in calls:
                out.append(await session.call_tool(name, arguments))
    return out


def _run(url: str, headers: dict[str, str] | None, *calls: tuple[str, dict[str, Any]]) -> list[Any]:
    return anyio.run(_calls, url, headers, list(calls))


def _text(result: Any) -> str:
    return str(result.content[0].text)


def test_a_call_without_a_key_is_refused(server: HttpServer) -> None:
    recall, remember = _run(server.url, None, ("recall", {"space": SPACE, "query": "Where?"}),
                            ("remember", {"space": SPACE, "turns": TURNS}))
    assert recall.is_error and "unauthorized" in _text(recall)
    assert remember.is_error and "unauthorized" in _text(remember)


def test_a_wrong_key_is_refused(server: HttpServer) -> None:
    (result,) = _run(server.url, {"Authorization": "Bearer eywa_0000000000000000_nope"},
                     ("recall", {"space": SPACE, "query": "Where?"}))
    assert result.is_error and "unauthorized" in _text(result)


def test_a_key_for_another_space_is_refused(server: HttpServer) -> None:
    remember, recall = _run(
        server.url, {"Authorization": f"Bearer {server.other_key}"},
        ("remember", {"space": SPACE, "turns": TURNS}), ("recall", {"space": SPACE, "query": "Where?"}),
    )
    assert remember.is_error and "forbidden" in _text(remember)
    assert recall.is_error and "forbidden" in _text(recall)


def test_a_read_key_cannot_write(server: HttpServer) -> None:
    (result,) = _run(server.url, {"X-API-Key": server.read_only_key}, ("remember", {"space": SPACE, "turns": TURNS}))
    assert result.is_error and "forbidden" in _text(result) and "write" in _text(result)


def test_a_valid_key_remembers_and_recalls(server: HttpServer) -> None:
    remember, recall, merge = _run(
        server.url, {"Authorization": f"Bearer {server.own_key}"},
        ("remember", {"space": SPACE, "turns": TURNS}),
        ("recall", {"space": SPACE, "query": "Where does Cecilia work?"}),
        ("merge", {"space": SPACE, "source": "Google", "target": "Boston", "action": "accept"}),
    )
    assert not merge.is_error and json.loads(_text(merge))["author"] == server.own_key.split("_")[1]  # the key's id
    assert not remember.is_error, _text(remember)
    ids = json.loads(_text(remember))["ids"]
    assert len(ids) == 2
    assert not recall.is_error, _text(recall)
    context = json.loads(_text(recall))
    assert "Google" in context["context"]
    assert ids[0] in {ref["id"] for item in context["items"] for ref in item["provenance"]}
    # The X-API-Key header works too, and a read key may read what was written.
    (again,) = _run(server.url, {"X-API-Key": server.read_only_key},
                    ("recall", {"space": SPACE, "query": "Where does Cecilia live?"}))
    assert not again.is_error and "Boston" in json.loads(_text(again))["context"]


def _code(result: Any, tool: str) -> str:
    assert result.is_error, _text(result)
    return _text(result).removeprefix(f"Error executing tool {tool}: ").split(":", 1)[0]


def test_the_apis_limits_hold_over_mcp(server: HttpServer) -> None:
    # The numbers of issue #11: 1,000 turns in one call, a 50,000-character turn, k = 200.
    many, long, wide = _run(
        server.url, {"Authorization": f"Bearer {server.own_key}"},
        ("remember", {"space": SPACE, "turns": [{"text": f"turn {i}"} for i in range(1000)]}),
        ("remember", {"space": SPACE, "turns": [{"text": "x" * 50_000}]}),
        ("recall", {"space": SPACE, "query": "Where?", "k": 200}),
    )
    assert _code(many, "remember") == "too_many_turns"
    assert _code(long, "remember") == "turn_too_long"
    assert _code(wide, "recall") == "limit_exceeded" and "k: at most 100" in _text(wide)


def test_mcp_calls_are_rate_limited_and_logged_like_the_apis(
    tmp_path_factory: pytest.TempPathFactory, redis_url: str
) -> None:
    data = tmp_path_factory.mktemp("mcp-rate")
    keys = SqliteKeyStore(data / "keys.sqlite")
    record, secret = keys.create([SPACE], ["read", "write"])
    keys.close()
    proc, url = _start(data, {"EYWA_REDIS_URL": redis_url, "EYWA_RATE_LIMIT_PER_MINUTE": "3"})
    try:
        calls = [("recall", {"space": SPACE, "query": "Where?"})] * 4
        fresh_window()
        answers = _run(url, {"Authorization": f"Bearer {secret}"}, *calls)
        assert [a.is_error for a in answers] == [False, False, False, True]
        assert _code(answers[3], "recall") == "rate_limited"
        anonymous = _run(url, None, *calls)  # no key: counted per client address
        assert [_code(a, "recall") for a in anonymous] == ["unauthorized"] * 3 + ["rate_limited"]
    finally:
        _stop(proc)  # flushes the access log on the way out
    stores = open_graph_stores(EywaSettings(data_dir=data))  # the log lives beside the graph
    try:
        events = stores.access.events(space=SPACE)
    finally:
        stores.close()
    assert [(e.route, e.status, e.key_id) for e in reversed(events)] == [
        *[("mcp recall", 200, record.id)] * 3, ("mcp recall", 429, record.id),
        *[("mcp recall", 401, None)] * 3, ("mcp recall", 429, None),
    ]  # fmt: skip
    assert {e.surface for e in events} == {"mcp"}


def test_only_an_erase_key_can_forget(server: HttpServer) -> None:
    (remembered,) = _run(server.url, {"Authorization": f"Bearer {server.own_key}"},
                         ("remember", {"space": SPACE, "turns": [{"text": "Mcp erasure probe.", "speaker": "Eraser"}]}))
    assert not remembered.is_error
    (refused,) = _run(server.url, {"Authorization": f"Bearer {server.own_key}"},
                      ("forget", {"space": SPACE, "speaker": "Eraser"}))
    assert refused.is_error and "forbidden" in _text(refused) and "erase" in _text(refused)
    (done,) = _run(server.url, {"Authorization": f"Bearer {server.eraser_key}"},
                   ("forget", {"space": SPACE, "speaker": "Eraser"}))
    assert not done.is_error and json.loads(_text(done))["counts"]["turns"] == 1


def test_a_body_in_a_content_coding_is_refused_with_415(server: HttpServer) -> None:
    """The SDK decodes no content coding: a call declared gzip was read as plain JSON (and
    served), a real gzip body was a JSON-RPC parse error; the HTTP API answers 415 for both."""
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "recall", "arguments": {"space": SPACE, "query": "Where?"}}}  # fmt: skip
    plain = json.dumps(call).encode()
    headers = {"Authorization": f"Bearer {server.own_key}", "Content-Type": "application/json",
               "Accept": "application/json, text/event-stream"}  # fmt: skip
    for coding, body in [("gzip", plain), ("gzip", gzip.compress(plain)), ("identity, br", plain)]:
        refused = httpx2.post(server.url, content=body, headers={**headers, "Content-Encoding": coding}, timeout=30)
        assert refused.status_code == 415, (coding, refused.text)
        assert refused.headers["accept-encoding"] == "identity" and "not accepted" in refused.json()["error"]["message"]
    served = httpx2.post(server.url, content=plain, headers={**headers, "Content-Encoding": "IDENTITY"}, timeout=30)
    assert served.status_code == 200, served.text


def test_a_request_without_a_body_is_served_whatever_content_coding_it_declares(server: HttpServer) -> None:
    """Only content in a coding is refused (RFC 9110 8.4, 15.5.16): the stream's bodiless
    ``GET`` and ``DELETE`` declaring one were answered 415 instead of what the transport says."""
    headers = {"Authorization": f"Bearer {server.own_key}", "Accept": "application/json, text/event-stream"}
    for method in ("GET", "DELETE"):
        answers = []
        for extra in ({}, {"Content-Encoding": "gzip"}):
            # the GET may open the event stream, which stays open: read the answer's head only
            with httpx2.stream(method, server.url, headers={**headers, **extra}, timeout=30) as answer:
                answers.append((answer.status_code, answer.headers.get("content-type")))
        assert answers[0][0] != 415 and answers[1] == answers[0], (method, answers)


@pytest.mark.parametrize("raw", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_request_is_refused_with_a_json_rpc_error(server: HttpServer, raw: bytes) -> None:
    """uvicorn answered a request its parser cannot read in text/plain ("Invalid HTTP request
    received."), the transport's one refusal that was no JSON-RPC error object."""
    status, headers, body = parsed(exchange(server.url, raw))  # returns once the server closed
    assert status == 400 and headers["content-type"] == "application/json" and headers["connection"] == "close"
    error = json.loads(body)
    assert error["jsonrpc"] == "2.0" and error["id"] is None and error["error"]["code"] == -32600
    assert "not valid HTTP/1.1" in error["error"]["message"]
    # the server goes on serving well-formed calls
    (served,) = _run(server.url, {"Authorization": f"Bearer {server.own_key}"}, ("recall", {"space": SPACE, "query": "Where?"}))
    assert not served.is_error, _text(served)
