"""A body in a transfer coding the server does not decode is refused with 501 (RFC 9112 6.1).

The HTTP parser de-chunks a body whose last transfer coding is ``chunked`` and decodes no
other: ``Transfer-Encoding: gzip, chunked`` over a plain JSON body was stored as if the
label were not there, and over a real gzip body was a 422 about JSON. A server "that
receives a request message with a transfer coding it does not understand SHOULD respond
with 501 (Not Implemented)": the API answers problem+json ``not_implemented``, the MCP
server's HTTP transport a JSON-RPC error, before the body is read. Sent over a raw socket,
since no HTTP client lets a caller label its own transfer codings.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator

import pytest

from eywa.runtime import open_key_store
from eywa.settings import EywaSettings
from services.api.app import build_app, serve_in_thread
from tests.services.raw_http import exchange, parsed
from tests.services.test_mcp_http import SPACE, HttpServer, server  # noqa: F401 - the MCP server fixture

BODY = json.dumps({"turns": [{"text": "I live in Lisbon.", "speaker": "Nadia"}]}).encode()


def _chunked(body: bytes) -> bytes:
    return b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)


def _post(url: str, path: str, key: str, coding: str, body: bytes, *extra: bytes) -> tuple[int, dict[str, str], bytes]:
    head = [
        f"POST {path} HTTP/1.1".encode(), f"Host: {url.removeprefix('http://')}".encode(), f"Authorization: Bearer {key}".encode(),
        b"Content-Type: application/json", b"Connection: close", f"Transfer-Encoding: {coding}".encode(), *extra,
    ]  # fmt: skip
    return parsed(exchange(url, b"\r\n".join(head) + b"\r\n\r\n" + _chunked(body)))


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """The API on a local port, a key on the spaces ``te`` (refused bodies: stays empty) and
    ``te-read`` (bodies read)."""
    data = tmp_path_factory.mktemp("transfer") / "mem"
    settings = EywaSettings(data_dir=data, rate_limit_per_minute=0)
    with serve_in_thread(build_app(settings)) as url:
        keys = open_key_store(settings)
        try:
            secret = keys.create(["te", "te-read"], ["read", "write"])[1]
        finally:
            keys.close()
        yield url, secret


@pytest.mark.parametrize(
    ("coding", "body"),
    [("gzip, chunked", BODY), ("gzip, chunked", gzip.compress(BODY)), ("deflate,chunked", BODY),
     ("x-private, chunked", BODY), ("identity, chunked", BODY)],
    ids=["gzip-label-plain-body", "gzip", "deflate", "unregistered", "identity"],
)  # fmt: skip
def test_the_api_refuses_a_transfer_coding_it_does_not_decode(api: tuple[str, str], coding: str, body: bytes) -> None:
    url, key = api
    status, headers, answer = _post(url, "/v1/spaces/te/turns", key, coding, body)
    assert status == 501 and headers["content-type"] == "application/problem+json", (status, answer)
    problem = json.loads(answer)
    assert (problem["code"], problem["status"], problem["title"]) == ("not_implemented", 501, "Not implemented")
    assert "Transfer-Encoding" in problem["detail"] and coding.split(",")[0].strip() in problem["detail"]
    status, _, stats = parsed(exchange(url, f"GET /v1/spaces/te/stats HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\n"
                                            "Connection: close\r\n\r\n".encode()))  # fmt: skip
    assert status == 200 and json.loads(stats)["evidence"] == 0  # nothing of the body was stored


@pytest.mark.parametrize("coding", ["chunked", "Chunked"])
def test_the_api_reads_a_chunked_body(api: tuple[str, str], coding: str) -> None:
    url, key = api
    status, _, answer = _post(url, "/v1/spaces/te-read/turns", key, coding, BODY)
    assert status == 201, answer


def test_the_mcp_transport_refuses_a_transfer_coding_it_does_not_decode(server: HttpServer) -> None:  # noqa: F811
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "recall", "arguments": {"space": SPACE, "query": "Where?"}}}  # fmt: skip
    accept = b"Accept: application/json, text/event-stream"
    url = server.url.removesuffix("/mcp")
    status, headers, answer = _post(url, "/mcp", server.own_key, "gzip, chunked", json.dumps(call).encode(), accept)
    assert status == 501 and headers["content-type"] == "application/json", (status, answer)
    error = json.loads(answer)
    assert error["id"] is None and error["error"]["code"] == -32600 and "Transfer-Encoding gzip" in error["error"]["message"]
    status, _, answer = _post(url, "/mcp", server.own_key, "chunked", json.dumps(call).encode(), accept)
    assert status == 200, answer
