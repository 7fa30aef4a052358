"""uvicorn's HTTP protocol with one change: a malformed request is refused in problem+json.

A request uvicorn's parser cannot read (a garbage request line, a ``Content-Length`` that is
no number, a control character in a header) never reaches the application, so none of its
error handlers runs: uvicorn itself answered 400 with ``text/plain`` "Invalid HTTP request
received.", the one refusal of the HTTP API that was not problem+json. (The MCP server's
transport refuses in JSON-RPC error objects, not problem+json; it keeps uvicorn's answer.)
The subclasses below answer the same 400 (and still close the connection, as the parser's
state is lost) with the body every other refusal has, code ``bad_request``.

They override ``send_400_response``, the one method uvicorn calls for this in both of its
HTTP implementations (httptools, a dependency of the service, and h11, uvicorn's own);
``PROTOCOL`` is whichever uvicorn's "auto" would pick, to pass as ``uvicorn.run(http=...)``.
"""

from __future__ import annotations

import asyncio
import json
from typing import Final

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["PROTOCOL", "ProblemH11Protocol", "malformed_request_body"]

_PROBLEM_JSON: Final = b"application/problem+json"


def malformed_request_body(reason: str) -> bytes:
    """The problem+json body of a request the HTTP parser refused (``reason``: uvicorn's)."""
    return json.dumps(
        {
            "type": "https://eywa.dev/problems/bad_request",
            "title": "Bad request",
            "status": 400,
            "detail": f"the request is not valid HTTP/1.1 ({reason.rstrip('.')}); the connection is closed",
            "code": "bad_request",
        }
    ).encode("utf-8")


class ProblemH11Protocol(H11Protocol):
    """h11's protocol, refusing a malformed request in problem+json (module docstring)."""

    def send_400_response(self, msg: str) -> None:
        body = malformed_request_body(msg)
        headers = [(b"content-type", _PROBLEM_JSON), (b"content-length", str(len(body)).encode()), (b"connection", b"close")]
        for event in (h11.Response(status_code=400, headers=headers, reason=b"Bad Request"), h11.Data(data=body), h11.EndOfMessage()):
            self.transport.write(self.conn.send(event) or b"")
        self.transport.close()


PROTOCOL: type[asyncio.Protocol] = ProblemH11Protocol
try:
    from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol
except ImportError:  # pragma: no cover - httptools is a dependency of the service extra
    pass
else:

    class ProblemHttpToolsProtocol(HttpToolsProtocol):
        """httptools' protocol, refusing a malformed request in problem+json (module docstring)."""

        def send_400_response(self, msg: str) -> None:
            body = malformed_request_body(msg)
            head = [STATUS_LINE[400]]
            head += [name + b": " + value + b"\r\n" for name, value in self.server_state.default_headers]
            head += [b"content-type: " + _PROBLEM_JSON + b"\r\n", b"content-length: %d\r\n" % len(body)]
            self.transport.write(b"".join([*head, b"connection: close\r\n\r\n", body]))
            self.transport.close()

    PROTOCOL = ProblemHttpToolsProtocol
