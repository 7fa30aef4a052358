"""The MCP server's HTTP messages read with each JSON object's keys named once (``eywa.json_text``).

The SDK decodes a message with pydantic's JSON parser, which keeps the last of two values
given for one key: ``"arguments": {"space": "home", "space": "work"}`` recalled from
``work``, ``{"speaker": "Bo", "speaker": "Tom"}`` in a turn stored Tom — a call read as one
of its two values, chosen by the parser. The HTTP API refuses such a body (422
``invalid_input``, ``services.api.bodies``); the MCP transport answers a JSON-RPC error
whose message starts with the same code and names the key's path in the message
(``params.arguments.space``), before the SDK reads the message.

Over stdio the SDK reads its own standard input, and a message it decoded has no repeated
key left to see; the stdio caller is the local operator (docs/service.md, "MCP").
"""

from __future__ import annotations

import json
from typing import Any

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from eywa.errors import InvalidInputError
from eywa.json_text import loads_unique
from services.problems import tool_error_text

__all__ = ["refusing_repeated_keys"]

INVALID_REQUEST = -32600
INVALID_PARAMS = -32602


def refusing_repeated_keys(app: ASGIApp, max_bytes: int) -> ASGIApp:
    """``app`` refusing a ``POST`` whose JSON names a key twice in one object (module docstring).

    The body is read whole before ``app`` sees it, then handed on as it came; a body over
    ``max_bytes`` is handed on unread past that point, for the transport to refuse (413).
    """

    async def wrapped(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await app(scope, receive, send)
            return
        messages: list[Message] = []
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break  # the client went away: the transport sees it as it would have
            size += len(message.get("body", b""))
            if not message.get("more_body", False) or size > max_bytes:
                break
        last = messages[-1]
        if last["type"] == "http.request" and not last.get("more_body", False):
            refusal = _repeated(b"".join(m.get("body", b"") for m in messages))
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        pending = iter(messages)

        async def replayed() -> Message:
            return next(pending, None) or await receive()

        await app(scope, replayed, send)

    return wrapped


def _repeated(body: bytes) -> JSONResponse | None:
    """The JSON-RPC error (HTTP 400) of a body that repeats a key, None for any other body
    (a body that is no JSON is the transport's to refuse, as before)."""
    try:
        loads_unique(body)
    except InvalidInputError as exc:
        problem = exc.problems[0]
        code = INVALID_PARAMS if problem.field.startswith("params.") else INVALID_REQUEST
        message = tool_error_text("invalid_input", f"{problem.field}: {problem.message}")
        error = {"jsonrpc": "2.0", "id": _id_of(body), "error": {"code": code, "message": message}}
        return JSONResponse(error, status_code=400)
    except (ValueError, RecursionError):
        return None
    return None


def _id_of(body: bytes) -> Any:
    """The request's ``id`` (JSON-RPC 5.1: the error answers it), when it is one value the
    message gives once; else null."""
    try:
        pairs = json.loads(body, object_pairs_hook=lambda pairs: pairs)
    except (ValueError, RecursionError):
        return None
    if not isinstance(pairs, list) or not all(isinstance(p, tuple) for p in pairs):
        return None  # a batch (a list of messages), or no object
    ids = [value for key, value in pairs if key == "id"]
    return ids[0] if len(ids) == 1 and isinstance(ids[0], str | int) and not isinstance(ids[0], bool) else None
