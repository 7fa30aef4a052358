"""The API's one error boundary: every failure leaves as ``application/problem+json``.

Body: ``{"type", "title", "status", "detail", "code", "errors"?}`` (RFC 9457). ``code`` is a
stable machine-readable string clients switch on: the core's ``EywaError.code`` (the same on
every surface; statuses in ``services.problems``) or one of the service's own
(``unauthorized``, ``forbidden``, ``rate_limited``, ``validation_error`` for a body that does
not match the schema). ``errors`` lists field-level problems as ``{"field", "message"}`` with
``field`` the core's path prefixed with where the request carried it (``body.turns.0.text``,
``path.space``, ``query.as_of``) so a caller knows exactly what to fix.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from eywa.errors import EywaError, NotFoundError, OverloadedError, QuotaExceededError
from services.problems import problem_of

PROBLEM_JSON = "application/problem+json"
TYPE_BASE = "https://eywa.dev/problems/"

__all__ = ["PROBLEM_JSON", "ApiProblem", "FieldError", "install_error_handlers", "problem_response"]

FieldError = Mapping[str, Any]
_log = logging.getLogger("eywa.api")
QueryCode = Literal["invalid_input", "limit_exceeded"]
_STATUS_TITLES: Final[dict[QueryCode, str]] = {"invalid_input": "Invalid input", "limit_exceeded": "Limit exceeded"}

_HTTP_CODES = {
    400: ("bad_request", "Bad request"),
    404: ("not_found", "Not found"),
    405: ("method_not_allowed", "Method not allowed"),
    413: ("payload_too_large", "Payload too large"),
    415: ("unsupported_media_type", "Unsupported media type"),
}


class ApiProblem(Exception):
    """An HTTP-level refusal raised by the service itself (auth, limits, rate)."""

    def __init__(
        self,
        status: int,
        code: str,
        title: str,
        detail: str,
        *,
        errors: Sequence[FieldError] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.errors = list(errors) if errors is not None else None
        self.headers = dict(headers or {})


def problem_response(
    status: int,
    code: str,
    title: str,
    detail: str,
    *,
    errors: Sequence[FieldError] | None = None,
    headers: Mapping[str, str] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> JSONResponse:
    """A problem+json response (``extra``: extension members). Text is made encodable first: a message may quote a field
    name the caller sent, and a lone surrogate there must not turn a 4xx into a 500."""
    body: dict[str, Any] = {
        "type": TYPE_BASE + code, "title": title, "status": status, "detail": _encodable(detail), "code": code,
    }  # fmt: skip
    if errors is not None:
        body["errors"] = [{k: _encodable(str(v)) for k, v in error.items()} for error in errors]
    body.update(extra or {})
    return JSONResponse(body, status_code=status, media_type=PROBLEM_JSON, headers=dict(headers or {}))


def _encodable(text: str) -> str:
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _field_errors(exc: RequestValidationError) -> list[dict[str, str]]:
    return [
        {"field": ".".join(str(p) for p in err.get("loc", ())), "message": str(err.get("msg", ""))}
        for err in exc.errors()
    ]


async def _on_problem(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiProblem)
    return problem_response(exc.status, exc.code, exc.title, exc.detail, errors=exc.errors, headers=exc.headers)


async def _on_eywa(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, EywaError)
    status, code, title = problem_of(exc)
    problems = getattr(exc, "problems", ())
    errors = [{"field": _located(request, p.field), "message": p.message} for p in problems] or None
    headers = {"Retry-After": "1"} if status == 503 else None
    if isinstance(exc, OverloadedError):
        headers = {"Retry-After": str(exc.retry_after_s)}
    extra = _quota_members(exc) if isinstance(exc, QuotaExceededError) else None
    if isinstance(exc, OverloadedError):
        extra = _overload_members(exc)
    if isinstance(exc, NotFoundError):
        extra = {"kind": exc.kind, "space": exc.space, "item_id": exc.item_id}
    return problem_response(status, code, title, str(exc), errors=errors, headers=headers, extra=extra)


def _quota_members(exc: QuotaExceededError) -> dict[str, Any]:
    """The quota's figures as problem+json extension members, for clients to act on."""
    return {"space": exc.space, "quota": exc.quota, "limit": exc.limit, "used": exc.used, "wanted": exc.wanted}


def _overload_members(exc: OverloadedError) -> dict[str, Any]:
    """Which backlog refused the write and how far over its bound it is, for clients to act on."""
    return {"stage": exc.stage, "backlog": exc.backlog, "limit": exc.limit, "retry_after_s": exc.retry_after_s}


def _located(request: Request, field: str) -> str:
    """The core's field path prefixed with where the request carried it (path, query, body)."""
    head = field.split(".", 1)[0]
    if head in request.path_params:
        return f"path.{field}"
    if head in request.query_params:
        return f"query.{field}"
    return f"body.{field}"


_BOUNDS: Final = frozenset({"less_than", "less_than_equal", "string_too_long", "too_long"})
"""Pydantic's error types of a value past an upper bound: the core calls that a limit."""


def _query_code(exc: RequestValidationError) -> QueryCode | None:
    """The core's code for a refusal of query or path parameters alone (a page's ``offset``
    or ``limit``, which only HTTP takes): ``limit_exceeded`` when every value is over a
    bound, else ``invalid_input``; None when a body is involved (``validation_error``)."""
    found = exc.errors()
    if not found or any(not err.get("loc") or err["loc"][0] not in ("query", "path") for err in found):
        return None
    return "limit_exceeded" if all(err.get("type") in _BOUNDS for err in found) else "invalid_input"


async def _on_validation(request: Request, exc: Exception) -> JSONResponse:
    """A request the schema refuses. A query or path value answers the core's code (the
    same vocabulary every surface uses for a bad argument); a body that does not match its
    schema (a missing or unknown field) is ``validation_error``."""
    assert isinstance(exc, RequestValidationError)
    errors = _field_errors(exc)
    first = errors[0]["field"] if errors else "request"
    detail = f"{first}: {errors[0]['message']}" if errors else "the request is invalid"
    code = _query_code(exc)
    if code is not None:
        return problem_response(422, code, _STATUS_TITLES[code], detail, errors=errors)
    return problem_response(422, "validation_error", "Invalid request", detail, errors=errors)


async def _on_http(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code, title = _HTTP_CODES.get(exc.status_code, ("http_error", "HTTP error"))
    return problem_response(exc.status_code, code, title, str(exc.detail), headers=exc.headers)


async def _on_unexpected(request: Request, exc: Exception) -> JSONResponse:
    """A bug: still problem+json (``internal_error``), never a plain-text page."""
    _log.error("unexpected error on %s %s", request.method, request.url.path, exc_info=exc)
    return problem_response(500, "internal_error", "Internal error", "an unexpected error occurred; it was logged")


def install_error_handlers(app: FastAPI) -> None:
    """Register the handlers that turn every known failure into problem+json."""
    app.add_exception_handler(ApiProblem, _on_problem)
    app.add_exception_handler(EywaError, _on_eywa)
    app.add_exception_handler(RequestValidationError, _on_validation)
    app.add_exception_handler(StarletteHTTPException, _on_http)
    app.add_exception_handler(Exception, _on_unexpected)
