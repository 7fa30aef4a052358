"""A request the HTTP parser cannot read is refused in problem+json, as every other refusal.

uvicorn answered such a request itself, before the application saw it, with a text/plain
"Invalid HTTP request received." (found by probing the API with raw bytes, s38): the one
answer of the HTTP API outside README "Errors"' problem+json. ``eywa serve`` and the
in-process server both run uvicorn with ``services.http_protocol.PROTOCOL``.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from eywa.settings import EywaSettings
from services.api.app import build_app, serve_in_thread
from services.http_protocol import PROTOCOL, ProblemH11Protocol
from tests.services.raw_http import MALFORMED, exchange, parsed


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = EywaSettings(data_dir=tmp_path_factory.mktemp("malformed") / "mem", rate_limit_per_minute=0)
    with serve_in_thread(build_app(settings)) as served:
        yield served


@pytest.mark.parametrize("raw", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_request_is_refused_with_a_problem_and_the_connection_closed(url: str, raw: bytes) -> None:
    status, headers, body = parsed(exchange(url, raw))  # exchange returns once the server closed
    assert status == 400
    assert headers["content-type"] == "application/problem+json" and headers["connection"] == "close"
    problem = json.loads(body)
    assert problem["status"] == 400 and problem["code"] == "bad_request" and problem["title"] == "Bad request"
    assert problem["type"].endswith("/bad_request") and "not valid HTTP/1.1" in problem["detail"]
    # the server goes on answering well-formed requests (this one: no key)
    after = httpx.get(f"{url}/v1/spaces/a/stats", timeout=10)
    assert after.status_code == 401 and after.json()["code"] == "unauthorized"


def test_the_h11_implementation_refuses_in_the_same_body(tmp_path: Path) -> None:
    """uvicorn's other parser (h11, when httptools is missing) answers the same problem."""
    settings = EywaSettings(data_dir=tmp_path / "mem", rate_limit_per_minute=0)
    import uvicorn

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        server = uvicorn.Server(uvicorn.Config(build_app(settings), log_level="warning", http=ProblemH11Protocol))
        import threading

        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        try:
            for _ in range(300):
                if server.started:
                    break
                thread.join(0.1)
            status, headers, body = parsed(exchange(f"http://127.0.0.1:{port}", MALFORMED["garbage request line"]))
        finally:
            server.should_exit = True
            thread.join(30)
    assert status == 400 and headers["content-type"] == "application/problem+json"
    assert json.loads(body)["code"] == "bad_request"
    assert PROTOCOL is not ProblemH11Protocol  # httptools, a dependency of the service, is the default
