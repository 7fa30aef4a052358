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
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from eywa.errors import EywaError, NotFoundError, OverloadedError, QuotaExceededError, SessionBusyError
from services.problems import problem_of

PROBLEM_JSON = "application/problem+json"
TYPE_BASE = "https://eywa.dev/problems/"

__all__ = [
    "PROBLEM_JSON", "ApiProblem", "FieldError", "document_problems", "install_error_handlers", "problem_response",
]  # fmt: skip

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
    501: ("not_implemented", "Not implemented"),
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
    if isinstance(exc, SessionBusyError):  # which sessions, for a client to raise the same error
        extra = {"space": exc.space, "sessions": list(exc.sessions), "attempts": exc.attempts}
    return problem_response(status, code, title, str(exc), errors=errors, headers=headers, extra=extra)


def _quota_members(exc: QuotaExceededError) -> dict[str, Any]:
    """The quota's figures as problem+json extension members, for clients to act on."""
    return {"space": exc.space, "quota": exc.quota, "limit": exc.limit, "used": exc.used, "wanted": exc.wanted}


def _overload_members(exc: OverloadedError) -> dict[str, Any]:
    """Which backlog refused the write and how far over its bound it is, for clients to act on."""
    return {"stage": exc.stage, "backlog": exc.backlog, "limit": exc.limit, "retry_after_s": exc.retry_after_s}


def _located(request: Request, field: str) -> str:
    """The core's field path prefixed with where the request carried it (path, query, a
    header the route declares, as ``POST /v1/keys``'s ``Idempotency-Key``, else body)."""
    head = field.split(".", 1)[0]
    if head in request.path_params:
        return f"path.{field}"
    if head in request.query_params:
        return f"query.{field}"
    dependant = getattr(request.scope.get("route"), "dependant", None)
    if head.lower() in {param.alias.lower() for param in getattr(dependant, "header_params", ())}:
        return f"header.{field}"
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
    headers = dict(exc.headers or {})
    if exc.status_code == 405:
        headers["Allow"] = _allowed(request) or headers.get("Allow", "")
    return problem_response(exc.status_code, code, title, str(exc.detail), headers=headers)


def _allowed(request: Request) -> str:
    """Every method the request's path is served with, as the OpenAPI schema lists them
    (RFC 9110 15.5.6; ``HEAD`` where ``GET`` is); "" for a path the schema does not hold.
    Starlette's 405 names the methods of the first route whose path matched, so
    ``PUT /v1/keys`` answered ``Allow: POST`` where ``GET`` serves the path too."""
    methods: set[str] = set()
    for template, operations in request.app.openapi()["paths"].items():
        if re.fullmatch(re.sub(r"\\\{\w+\\\}", "[^/]+", re.escape(template)), request.url.path):
            methods.update(method.upper() for method in operations)
    return ", ".join(sorted(methods | ({"HEAD"} if "GET" in methods else set())))


async def _on_unexpected(request: Request, exc: Exception) -> JSONResponse:
    """A bug: still problem+json (``internal_error``), never a plain-text page."""
    _log.error("unexpected error on %s %s", request.method, request.url.path, exc_info=exc)
    return problem_response(500, "internal_error", "Internal error", "an unexpected error occurred; it was logged")


PROBLEM_SCHEMA: Final[dict[str, Any]] = {
    "title": "Problem",
    "description": "RFC 9457 problem details. `code` is what clients switch on (the core's `EywaError.code`, or "
    "the service's own: unauthorized, forbidden, rate_limited, validation_error, not_ready, bad_request, not_found, "
    "method_not_allowed, payload_too_large, unsupported_media_type, not_implemented, internal_error). Some codes add members: "
    "not_found `kind`, `space`, `item_id`; quota_exceeded `quota`, `limit`, `used`, `wanted`; overloaded `stage`, "
    "`backlog`, `limit`, `retry_after_s`.",
    "type": "object",
    "required": ["type", "title", "status", "detail", "code"],
    "properties": {
        "type": {"type": "string", "description": "A URI ending in the code."},
        "title": {"type": "string"},
        "status": {"type": "integer", "description": "The HTTP status of the answer."},
        "detail": {"type": "string"},
        "code": {"type": "string"},
        "errors": {
            "type": "array",
            "description": "The fields refused, each prefixed with where the request carried it "
            "(`body.turns.3.text`, `path.space`, `query.as_of`, `header.Idempotency-Key`).",
            "items": {
                "type": "object", "required": ["field", "message"],
                "properties": {"field": {"type": "string"}, "message": {"type": "string"}},
            },
        },
    },
}  # fmt: skip
_PROBLEM_CONTENT: Final = {PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/Problem"}}}
_REFUSALS: Final = {
    "4XX": {"description": "Refused: the code says why (problem+json).", "content": _PROBLEM_CONTENT},
    "5XX": {"description": "Not served now: a store or dependency is unavailable (problem+json).", "content": _PROBLEM_CONTENT},
}  # fmt: skip


def document_problems(app: FastAPI) -> None:
    """Publish in ``app``'s OpenAPI schema the refusals ``install_error_handlers`` answers.

    FastAPI documents a ``422`` of its own ``HTTPValidationError`` in ``application/json``
    on every route that takes a parameter, and no other refusal; every refusal is in fact
    problem+json (``Problem``), and a /v1 route answers 401, 403, 404, 409, 413, 429 and 503
    too. A client generated from the schema, or a check against it (schemathesis), read
    every error wrongly. Each /v1 operation now documents ``4XX`` and ``5XX`` as ``Problem``
    (the readiness probe its ``503``).
    """
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = generate()
        for path, operations in schema.get("paths", {}).items():
            for operation in operations.values():
                responses = operation.setdefault("responses", {})
                if path.startswith("/v1/"):
                    responses.pop("422", None)  # FastAPI's HTTPValidationError: the API never answers it
                    responses.update(_REFUSALS)
                elif "503" in responses:
                    responses["503"] = {**responses["503"], "content": _PROBLEM_CONTENT}
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        for unused in ("HTTPValidationError", "ValidationError"):
            components.pop(unused, None)
        components["Problem"] = PROBLEM_SCHEMA
        return schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to extend the schema


def install_error_handlers(app: FastAPI) -> None:
    """Register the handlers that turn every known failure into problem+json."""
    app.add_exception_handler(ApiProblem, _on_problem)
    app.add_exception_handler(EywaError, _on_eywa)
    app.add_exception_handler(RequestValidationError, _on_validation)
    app.add_exception_handler(StarletteHTTPException, _on_http)
    app.add_exception_handler(Exception, _on_unexpected)
