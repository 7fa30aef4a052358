"""One table from error codes to HTTP statuses, shared by the HTTP API and the MCP server.

The core gives every ``EywaError`` a ``code`` (``eywa.errors.ErrorCode``); the surfaces
only choose how to show it. The HTTP API answers the status below in problem+json, and the
MCP server prefixes its tool errors with the code and records the same status in the access
log, so one refusal reads the same whichever door it came through. The service adds its own
codes for what only a service refuses (keys, rates).
"""

from __future__ import annotations

from typing import Final, Literal

from eywa.errors import ErrorCode, EywaError

__all__ = ["ServiceCode", "problem_of", "tool_error_text"]

ServiceCode = Literal["unauthorized", "forbidden", "rate_limited", "validation_error"]
"""Codes of refusals that only the services make (authentication, scopes, rates, shape)."""

_STATUS: Final[dict[ErrorCode, tuple[int, str]]] = {
    "invalid_input": (422, "Invalid input"),
    "invalid_turn": (422, "Invalid turn"),
    "turn_too_long": (422, "Turn too long"),
    "limit_exceeded": (422, "Limit exceeded"),
    "too_many_turns": (413, "Payload too large"),
    "quota_exceeded": (413, "Space quota exceeded"),
    "not_found": (404, "Not found"),
    "erased": (410, "Erased"),
    "conflict": (409, "Conflict"),
    "session_busy": (503, "Session busy"),
    "overloaded": (503, "Backlog over its bound"),
    "unavailable": (503, "Service unavailable"),
    "store_unavailable": (503, "Store unavailable"),
    "directory_in_use": (503, "Store unavailable"),
    "upstream_error": (502, "Upstream failure"),
    "configuration_error": (500, "Configuration error"),
}


def problem_of(exc: EywaError) -> tuple[int, ErrorCode, str]:
    """(status, code, title) of a domain error."""
    status, title = _STATUS[exc.code]
    return status, exc.code, title


def tool_error_text(code: ErrorCode | ServiceCode, message: str) -> str:
    """An MCP tool error's text: the code first, so agents can switch on it."""
    return f"{code}: {message}"
