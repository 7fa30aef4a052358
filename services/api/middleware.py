"""Pure ASGI middleware: the gate (key, rate, access log), the body size limit, metrics.

Pure ASGI (not ``BaseHTTPMiddleware``) so the body is never buffered twice and errors
raised while reading it reach the app's exception handlers. The gate runs before the app
reads a byte of the body: a request without a valid key is answered 401 (or 429) from its
headers alone, and every ``/v1`` request, refused or not, is counted against its caller's
rate and recorded in the access log.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import unquote_to_bytes

import anyio.to_thread
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from eywa.errors import EywaError
from eywa.models import utc_now
from eywa.stores.access import AccessEvent
from eywa.stores.keys import ApiKey
from services.api.deps import KEY_STATE, SPACE_STATE, ServiceContext
from services.api.errors import problem_response
from services.metrics import ServiceMetrics
from services.problems import problem_of
from services.ratelimit import Decision, caller_of

__all__ = ["BodyLimitMiddleware", "GateMiddleware", "MetricsMiddleware", "content_codings", "transfer_codings"]
API_PREFIX = "/v1/"
ROUTE_STATE = "eywa_route"


class GateMiddleware:
    """Authenticate, rate-limit and record every ``/v1`` request before the app reads it.

    Args:
        app: the next ASGI app.
        context: the service's dependencies (keys, limiter, metrics, access recorder).
        app_paths: the app's path templates (its OpenAPI ``paths``), matched here to name
            the route and its space in the access log, for refused requests too.

    The key lookup and the rate decision run on the event loop when both answer in this
    process (``KeyStore.in_process``: the embedded key file; no Redis limiter), else in the
    thread pool (Neo4j, Redis). A hop to a worker thread and back cost more of the API's
    CPU and of the interpreter lock under load than the local read itself (docs/service.md,
    "What a request costs the API process").
    """

    def __init__(self, app: ASGIApp, context: ServiceContext, app_paths: Callable[[], Iterable[str]]) -> None:
        self.app = app
        self.context = context
        self.app_paths = app_paths
        self._templates: list[tuple[str, re.Pattern[str]]] | None = None
        self._in_process = context.keys.in_process and context.limiter.in_process

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(API_PREFIX):
            await self.app(scope, receive, send)
            return
        template, space = self._route(scope)
        scope.setdefault("state", {})[ROUTE_STATE] = template  # metrics name refusals by route too
        client = scope.get("client")
        token, address = _token(scope), client[0] if client else None
        try:
            if self._in_process:  # a local file and no limiter server: no thread hop (class docstring)
                key, decision = self._admit(token, address)
            else:
                key, decision = await anyio.to_thread.run_sync(self._admit, token, address)
        except EywaError as exc:  # the key store or the limiter is unreachable (Neo4j restarting)
            code, kind, title = problem_of(exc)
            headers = {"Retry-After": "1"} if code == 503 else None
            await problem_response(code, kind, title, str(exc), headers=headers)(scope, receive, send)
            return
        status = 500

        async def recording(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            if not decision.allowed:
                self.context.metrics.rate_limited.inc()
                who = f"key {key.id}" if key is not None else "this client (no valid key)"
                refusal = problem_response(
                    429, "rate_limited", "Too many requests", f"{who} is over {decision.limit} requests per minute",
                    headers={"Retry-After": str(decision.retry_after)},
                )  # fmt: skip
                await refusal(scope, receive, recording)
            elif key is None:
                refusal = problem_response(
                    401, "unauthorized", "Unauthorized",
                    TWO_KEYS if token == "" else "a valid API key is required (Authorization: Bearer <key> or "
                    "X-API-Key); this one is missing, unknown, expired or revoked",
                    headers={"WWW-Authenticate": "Bearer"},
                )  # fmt: skip
                await refusal(scope, receive, recording)
            elif (field := not_utf8(scope, template)) is not None:
                name = field.partition(".")[2]
                message = "not valid UTF-8 once percent-decoded; text must be valid Unicode"
                refusal = problem_response(
                    422, "invalid_input", "Invalid input", f"{name}: {message}",
                    errors=[{"field": field, "message": message}],
                )  # fmt: skip
                await refusal(scope, receive, recording)
            else:
                scope.setdefault("state", {})[KEY_STATE] = key
                await self.app(scope, receive, recording)
        finally:
            space = space or scope.get("state", {}).get(SPACE_STATE)
            event = AccessEvent(
                at=utc_now(), key_id=None if key is None else key.id, surface="http",
                route=f"{scope['method']} {template}", space=space, status=status,
            )  # fmt: skip
            if self.context.access.add(event):
                await anyio.to_thread.run_sync(self.context.access.flush)

    def _admit(self, token: str | None, address: str | None) -> tuple[ApiKey | None, Decision]:
        """The request's live key (or None) and its caller's rate decision (blocking I/O)."""
        key = self.context.keys.authenticate(token) if token else None
        return key, self.context.limiter.hit(caller_of(None if key is None else key.id, address))

    def _route(self, scope: Scope) -> tuple[str, str | None]:
        """The route template the path matches and its ``{space}`` ("unmatched", None)."""
        if self._templates is None:  # the routes exist by the first request, not at init
            self._templates = _templates(self.app_paths())
        path = scope["path"]
        for template, pattern in self._templates:
            found = pattern.fullmatch(path)
            if found is not None:
                return template, found.groupdict().get("space")
        return "unmatched", None


def _templates(paths: Iterable[str]) -> list[tuple[str, re.Pattern[str]]]:
    """A matcher per path template, literal-richest first (``/v1/keys/log`` before
    ``/v1/keys/{key_id}``)."""
    compiled = [
        (template, re.compile(re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))))
        for template in paths
    ]
    return sorted(compiled, key=lambda pair: pair[0].count("{"))


def not_utf8(scope: Scope, template: str) -> str | None:
    """The first path or query value of the request whose percent-escapes do not decode as
    UTF-8, as ``path.<name>`` / ``query.<name>``; None when every one does.

    The server decodes the URL replacing such bytes with U+FFFD, so ``/v1/spaces/%FF`` and
    ``/v1/spaces/%FE`` (or ``Jos%E9``, a name encoded in Latin-1) would both name the space
    ``"\ufffd"``: a value converted on the way, where the input contract refuses text that
    is not valid Unicode. A path segment is named by ``template``'s parameter there.
    """
    raw_path: bytes = scope.get("raw_path") or b""
    query: bytes = scope.get("query_string") or b""
    if b"%" not in raw_path and b"%" not in query and raw_path.isascii() and query.isascii():
        return None  # nothing escaped: nothing to decode (every request but a few)
    names = template.split("/")  # "unmatched" names no parameter: the app answers 404
    for parameter, segment in zip(names, raw_path.split(b"/"), strict=False):
        if parameter.startswith("{") and not _decodes(segment):
            return f"path.{parameter.strip('{}')}"
    for pair in query.split(b"&"):
        name, _, value = pair.replace(b"+", b" ").partition(b"=")
        if not (_decodes(name) and _decodes(value)):
            return f"query.{unquote_to_bytes(name).decode('utf-8', 'backslashreplace')}"
    return None


def _decodes(escaped: bytes) -> bool:
    try:
        unquote_to_bytes(escaped).decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


TWO_KEYS = "the request carries more than one API key in Authorization (or X-API-Key); send one"


def _token(scope: Scope) -> str | None:
    """The key a request carries: ``Authorization: Bearer`` first, else ``X-API-Key``; ``""``
    when one of the two headers comes more than once with different keys.

    Which of two keys acted was a silent choice (the last ``Authorization`` here, the first
    on the MCP server), and its rights are not the other's: neither is taken, and the gate
    answers 401 with ``TWO_KEYS`` (``services.mcp.gate`` does the same).
    """
    bearers: set[str] = set()
    api_keys: set[str] = set()
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            scheme, _, credentials = value.decode("latin-1").partition(" ")
            if scheme.lower() == "bearer" and credentials.strip():
                bearers.add(credentials.strip())
        elif name == b"x-api-key" and value.strip():
            api_keys.add(value.decode("latin-1").strip())
    chosen = bearers or api_keys
    if len(chosen) > 1:
        return ""
    return next(iter(chosen), None)


class BodyLimitMiddleware:
    """Refuse bodies over ``max_bytes`` with 413, by Content-Length or while streaming, bodies
    in a content coding with 415, and bodies in a transfer coding other than chunked with 501.

    The API reads bodies as they come (no ``gzip`` or other coding is decoded), so a request
    declaring ``Content-Encoding: gzip`` was parsed as plain JSON: a real gzip body was a
    confusing 422, and a plain one sent under that header was accepted. It is refused as
    ``unsupported_media_type`` with ``Accept-Encoding: identity`` (RFC 7694), before the
    body is read. The same held for ``Transfer-Encoding: gzip, chunked``: the server
    de-chunks but decodes nothing else, so the body was read as if it were not compressed;
    RFC 9112 6.1 has a server answer 501 to a transfer coding it does not understand
    (``not_implemented``, ``transfer_codings``).
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        unknown = transfer_codings(scope)
        if unknown:
            response = problem_response(
                501, "not_implemented", "Not implemented",
                f"Transfer-Encoding {', '.join(unknown)} is not understood; send the body chunked or with a Content-Length",
            )  # fmt: skip
            await response(scope, receive, send)
            return
        codings = content_codings(scope)
        if codings:
            response = problem_response(
                415, "unsupported_media_type", "Unsupported media type",
                f"Content-Encoding {', '.join(codings)} is not accepted; send the body uncompressed",
                headers={"Accept-Encoding": "identity"},
            )  # fmt: skip
            await response(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            response = problem_response(
                413, "payload_too_large", "Payload too large",
                f"the body has {declared} bytes; the limit is {self.max_bytes}",
            )
            await response(scope, receive, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    # Raised inside the app's body read, so its exception handlers answer 413.
                    raise HTTPException(413, f"the body exceeds the limit of {self.max_bytes} bytes")
            return message

        await self.app(scope, limited, send)


class MetricsMiddleware:
    """Count and time every request under its route template (not its raw path)."""

    def __init__(self, app: ASGIApp, metrics: ServiceMetrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def recording(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, recording)
        finally:
            route: Any = scope.get("route")
            template = getattr(route, "path", None) or scope.get("state", {}).get(ROUTE_STATE) or "unmatched"
            self.metrics.observe_request(template, scope["method"], status, time.perf_counter() - started)


def content_codings(scope: Scope) -> list[str]:
    """The content codings of a request's body (``Content-Encoding``, every header of that
    name), lower-cased, less ``identity`` (which is no coding); none when the request has no
    body. The MCP HTTP app refuses them too (``services.mcp.server``).

    A bodiless request (``GET /healthz``, the MCP stream's ``GET`` and ``DELETE``) carrying
    the header is served: RFC 9110 lets a server answer 415 when "a representation in the
    request message has a content coding that is not acceptable" (8.4) and defines 415 as
    refusing "because the content is in a format not supported" (15.5.16); without content
    there is nothing in any coding, and nothing the API could misread.
    """
    if not _has_body(scope):
        return []
    codings: list[str] = []
    for name, value in scope.get("headers", []):
        if name == b"content-encoding":
            codings += [c.strip().lower() for c in value.decode("latin-1").split(",") if c.strip()]
    return [c for c in codings if c != "identity"]


def transfer_codings(scope: Scope) -> list[str]:
    """The transfer codings of a request (``Transfer-Encoding``, every header of that name)
    that the server does not understand: all but ``chunked``, lower-cased. The MCP HTTP app
    refuses them too (``services.mcp.server``).

    The HTTP parser frames a body whose last coding is chunked and de-chunks it, and decodes
    no other coding (``gzip``, ``deflate``, ``compress``, an unregistered one): the body it
    hands on is still in those codings, or, under a false label, read as something the client
    did not say. RFC 9112 6.1: "A server that receives a request message with a transfer
    coding it does not understand SHOULD respond with 501 (Not Implemented)." (``identity``
    is no longer a transfer coding there either.)
    """
    codings: list[str] = []
    for name, value in scope.get("headers", []):
        if name == b"transfer-encoding":
            codings += [c.strip().lower() for c in value.decode("latin-1").split(",") if c.strip()]
    return [c for c in codings if c != "chunked"]


def _has_body(scope: Scope) -> bool:
    """Whether the request has a body (RFC 9112 6.3: one is framed by ``Transfer-Encoding``
    or by a ``Content-Length``, here above 0; a request with neither has none). An unreadable
    ``Content-Length`` counts as a body: the coding is refused rather than guessed about."""
    names = {name for name, _ in scope.get("headers", [])}
    if b"transfer-encoding" in names:
        return True
    return b"content-length" in names and _content_length(scope) != 0


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None
