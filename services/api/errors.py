"""The API's one error boundary: every failure leaves as ``application/problem+json``.

Body: ``{"type", "title", "status", "detail", "code", "errors"?}`` (RFC 9457). ``code`` is a
stable machine-readable string clients switch on; ``errors`` lists field-level problems
as ``{"field", "message"}`` with ``field`` a dotted path into the request (``body.turns.0.text``,
``query.k``) so a caller knows exactly what to fix.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from eywa.errors import (
    ClosedError,
    ConfigurationError,
    ErasedError,
    EywaError,
    InvalidInputError,
    InvalidTurnError,
    NotFoundError,
    OverloadedError,
    StoreError,
)

PROBLEM_JSON = "application/problem+json"
TYPE_BASE = "https://eywa.dev/problems/"

__all__ = ["PROBLEM_JSON", "ApiProblem", "FieldError", "install_error_handlers", "problem_response"]

FieldError = Mapping[str, Any]

# (status, code, title) per EywaError class; the most specific class wins (checked in order).
_EYWA_MAP: tuple[tuple[type[EywaError], int, str, str], ...] = (
    (InvalidTurnError, 422, "invalid_turn", "Invalid turn"),
    (InvalidInputError, 422, "invalid_input", "Invalid input"),
    (NotFoundError, 404, "not_found", "Not found"),
    (ErasedError, 410, "erased", "Erased"),
    (OverloadedError, 503, "overloaded", "Level 1 backlog over its bound"),
    (ClosedError, 503, "unavailable", "Service unavailable"),
    (StoreError, 503, "store_unavailable", "Store unavailable"),
    (ConfigurationError, 500, "configuration_error", "Configuration error"),
)

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
) -> JSONResponse:
    """A problem+json response."""
    body: dict[str, Any] = {"type": TYPE_BASE + code, "title": title, "status": status, "detail": detail, "code": code}
    if errors is not None:
        body["errors"] = list(errors)
    return JSONResponse(body, status_code=status, media_type=PROBLEM_JSON, headers=dict(headers or {}))


def eywa_problem(exc: EywaError) -> tuple[int, str, str]:
    """(status, code, title) for a domain error; unknown ones are 500 ``internal_error``."""
    for cls, status, code, title in _EYWA_MAP:
        if isinstance(exc, cls):
            return status, code, title
    return 502, "upstream_error", "Upstream failure"  # extractor / embedder endpoints


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
    status, code, title = eywa_problem(exc)
    errors = None
    if isinstance(exc, InvalidTurnError):
        errors = [{"field": f"body.turns.{exc.index}", "message": exc.reason}]
    headers = {"Retry-After": "1"} if status == 503 else None
    if isinstance(exc, OverloadedError):
        headers = {"Retry-After": str(exc.retry_after_s)}
    return problem_response(status, code, title, str(exc), errors=errors, headers=headers)


async def _on_validation(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = _field_errors(exc)
    first = errors[0]["field"] if errors else "request"
    detail = f"{first}: {errors[0]['message']}" if errors else "the request is invalid"
    return problem_response(422, "validation_error", "Invalid request", detail, errors=errors)


async def _on_http(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code, title = _HTTP_CODES.get(exc.status_code, ("http_error", "HTTP error"))
    return problem_response(exc.status_code, code, title, str(exc.detail), headers=exc.headers)


def install_error_handlers(app: FastAPI) -> None:
    """Register the handlers that turn every known failure into problem+json."""
    app.add_exception_handler(ApiProblem, _on_problem)
    app.add_exception_handler(EywaError, _on_eywa)
    app.add_exception_handler(RequestValidationError, _on_validation)
    app.add_exception_handler(StarletteHTTPException, _on_http)
