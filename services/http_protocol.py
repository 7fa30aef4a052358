"""uvicorn's HTTP protocol with one change: a malformed request is refused in the surface's shape.

A request uvicorn's parser cannot read (a garbage request line, a ``Content-Length`` that is
no number, a control character in a header) never reaches the application, so none of its
error handlers runs: uvicorn itself answered 400 with ``text/plain`` "Invalid HTTP request
received.", the one refusal of the HTTP API that was not problem+json, and the one of the MCP
server's HTTP transport that was not a JSON-RPC error object. The subclasses below answer
the same 400 (and still close the connection, as the parser's state is lost) with the body
every other refusal of their surface has: problem+json, code ``bad_request``, for the API
(``PROTOCOL``); a JSON-RPC error, code -32600 (invalid request), for MCP (``MCP_PROTOCOL``).

They override ``send_400_response``, the one method uvicorn calls for this in both of its
HTTP implementations (httptools, a dependency of the service, and h11, uvicorn's own); each
constant is whichever uvicorn's "auto" would pick, to pass as ``uvicorn.run(http=...)``.
"""

from __future__ import annotations

import asyncio
import json
from typing import ClassVar, Final

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = [
    "MCP_PROTOCOL", "PROTOCOL", "ProblemH11Protocol", "RpcErrorH11Protocol", "malformed_request_body",
    "malformed_request_rpc_error",
]  # fmt: skip

_PROBLEM_JSON: Final = b"application/problem+json"
_JSON: Final = b"application/json"


def _detail(reason: str) -> str:
    return f"the request is not valid HTTP/1.1 ({reason.rstrip('.')}); the connection is closed"


def malformed_request_body(reason: str) -> bytes:
    """The problem+json body of a request the HTTP parser refused (``reason``: uvicorn's)."""
    return json.dumps(
        {
            "type": "https://eywa.dev/problems/bad_request",
            "title": "Bad request",
            "status": 400,
            "detail": _detail(reason),
            "code": "bad_request",
        }
    ).encode("utf-8")


def malformed_request_rpc_error(reason: str) -> bytes:
    """The JSON-RPC error of a request the HTTP parser refused, for the MCP transport: no
    request could be read, so no id (as the SDK's own transport errors)."""
    error = {"code": -32600, "message": _detail(reason)}
    return json.dumps({"jsonrpc": "2.0", "id": None, "error": error}).encode("utf-8")


class ProblemH11Protocol(H11Protocol):
    """h11's protocol, refusing a malformed request in problem+json (module docstring)."""

    refusal_type: ClassVar[bytes] = _PROBLEM_JSON
    refusal = staticmethod(malformed_request_body)

    def send_400_response(self, msg: str) -> None:
        body = self.refusal(msg)
        headers = [(b"content-type", self.refusal_type), (b"content-length", str(len(body)).encode()), (b"connection", b"close")]
        for event in (h11.Response(status_code=400, headers=headers, reason=b"Bad Request"), h11.Data(data=body), h11.EndOfMessage()):
            self.transport.write(self.conn.send(event) or b"")
        self.transport.close()


class RpcErrorH11Protocol(ProblemH11Protocol):
    """h11's protocol, refusing a malformed request in a JSON-RPC error (the MCP transport's)."""

    refusal_type: ClassVar[bytes] = _JSON
    refusal = staticmethod(malformed_request_rpc_error)


PROTOCOL: type[asyncio.Protocol] = ProblemH11Protocol
MCP_PROTOCOL: type[asyncio.Protocol] = RpcErrorH11Protocol
try:
    from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol
except ImportError:  # pragma: no cover - httptools is a dependency of the service extra
    pass
else:

    class ProblemHttpToolsProtocol(HttpToolsProtocol):
        """httptools' protocol, refusing a malformed request in problem+json (module docstring)."""

        refusal_type: ClassVar[bytes] = _PROBLEM_JSON
        refusal = staticmethod(malformed_request_body)

        def send_400_response(self, msg: str) -> None:
            body = self.refusal(msg)
            head = [STATUS_LINE[400]]
            head += [name + b": " + value + b"\r\n" for name, value in self.server_state.default_headers]
            head += [b"content-type: " + self.refusal_type + b"\r\n", b"content-length: %d\r\n" % len(body)]
            self.transport.write(b"".join([*head, b"connection: close\r\n\r\n", body]))
            self.transport.close()

    class RpcErrorHttpToolsProtocol(ProblemHttpToolsProtocol):
        """httptools' protocol, refusing a malformed request in a JSON-RPC error (MCP's)."""

        refusal_type: ClassVar[bytes] = _JSON
        refusal = staticmethod(malformed_request_rpc_error)

    PROTOCOL = ProblemHttpToolsProtocol
    MCP_PROTOCOL = RpcErrorHttpToolsProtocol
