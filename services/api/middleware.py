"""Pure ASGI middleware: the body size limit and request metrics.

Pure ASGI (not ``BaseHTTPMiddleware``) so the body is never buffered twice and errors
raised while reading it reach the app's exception handlers.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from services.api.errors import problem_response
from services.metrics import ServiceMetrics

__all__ = ["BodyLimitMiddleware", "MetricsMiddleware"]


class BodyLimitMiddleware:
    """Refuse bodies over ``max_bytes`` with 413, by Content-Length or while streaming."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
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
            template = getattr(route, "path", None) or "unmatched"
            self.metrics.observe_request(template, scope["method"], status, time.perf_counter() - started)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None
