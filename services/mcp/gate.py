"""The MCP server's gate: key, scope, rate and access log of every tool call over HTTP.

The same rules as the HTTP API's ``GateMiddleware``, with the same key store, the same rate
limiter (Redis when configured, failing open) and the same access log: a call over HTTP
must carry a live key holding the tool's scope on the call's space; every call, refused or
not, counts against its caller's rate (the key id, else the client address); and every call
is recorded with the HTTP status its outcome has on the API (200, or the status of its
error code). The limits on what a call may contain are the core's, so ``Memory`` enforces
them here exactly as it does for the API.

Errors reach the agent as ``ToolError``s whose text (after the SDK's ``Error executing
tool <name>: ``) starts with the code (``limit_exceeded: k: at most 100``), so an agent can
switch on it.

Over stdio the caller is the local user who launched the server: no key, no rate, no log.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError

from eywa.errors import EywaError, InvalidInputError
from eywa.models import utc_now
from eywa.stores.access import AccessEvent
from eywa.stores.keys import ApiKey, KeyStore, Scope
from services.access import AccessRecorder
from services.api.middleware import TWO_KEYS
from services.problems import ServiceCode, problem_of, tool_error_text
from services.ratelimit import NoRateLimiter, RateLimiter, caller_of

__all__ = ["McpGate"]


class _Refusal(Exception):
    """A call the gate refuses: its HTTP status and service code."""

    def __init__(self, status: int, code: ServiceCode, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


class McpGate:
    """Admits, counts and records the tool calls of one MCP server.

    Args:
        keys: the key store (None: a stdio-only server; HTTP calls are refused).
        limiter: the per-caller rate limiter shared with the HTTP API's settings.
        access: the access log buffer (None: calls are not recorded).
    """

    def __init__(
        self, keys: KeyStore | None, limiter: RateLimiter | None = None, access: AccessRecorder | None = None
    ) -> None:
        self._keys = keys
        self._limiter = limiter if limiter is not None else NoRateLimiter()
        self._access = access

    @contextmanager
    def call(self, ctx: Context[Any, Any] | None, tool: str, space: object, scope: Scope) -> Iterator[str | None]:
        """Admit one call of ``tool`` on ``space``; yields the caller's key id (None on stdio).

        Domain errors raised inside the block leave as ``ToolError`` prefixed with their code.
        ``space`` is as the agent sent it (``Memory`` checks it): one that is no string is
        refused once the key is known (``invalid_input``), since no scope can name it.

        Raises:
            ToolError: the call is refused (``unauthorized``, ``forbidden``,
                ``rate_limited``, or the key store's error code when it cannot be reached,
                ``store_unavailable``) or failed (the ``EywaError``'s code).
        """
        request = ctx.request_context.request if ctx is not None else None
        headers: Mapping[str, str] | None = getattr(request, "headers", None)
        if headers is None:  # stdio: the local user who launched the server
            try:
                yield None
            except EywaError as exc:
                raise ToolError(tool_error_text(exc.code, str(exc))) from exc
            return
        client = getattr(request, "client", None)
        key: ApiKey | None = None
        status = 500
        try:
            try:
                key, two_keys = self._authenticate(headers)
                admitted = self._admit(key, getattr(client, "host", None), space, scope, two_keys=two_keys)
            except EywaError as exc:  # the key store is unreachable (Neo4j restarting): as on the API
                status = problem_of(exc)[0]
                raise ToolError(tool_error_text(exc.code, f"{exc}; retry shortly")) from exc
            try:
                yield admitted.id
            except EywaError as exc:
                status = problem_of(exc)[0]
                raise ToolError(tool_error_text(exc.code, str(exc))) from exc
            status = 200
        except _Refusal as refusal:
            status = refusal.status
            raise ToolError(tool_error_text(refusal.code, str(refusal))) from None
        finally:
            self._record(key, tool, space, status)

    def _authenticate(self, headers: Mapping[str, str]) -> tuple[ApiKey | None, bool]:
        """The live key the call carries (None: no key, or not a live one), and whether it
        carries two different keys, of which none is taken (``TWO_KEYS``, as on the API).

        Raises:
            _Refusal: 401, this server has no key store.
        """
        if self._keys is None:
            raise _Refusal(401, "unauthorized", "this server has no key store")
        every = getattr(headers, "getlist", None)
        authorizations = every("authorization") if every is not None else [headers.get("authorization") or ""]
        bearers = {raw[7:].strip() for raw in authorizations if raw.lower().startswith("bearer ") and raw[7:].strip()}
        api_keys = {raw.strip() for raw in (every("x-api-key") if every is not None else [headers.get("x-api-key", "")])}
        chosen = bearers or (api_keys - {""})
        if len(chosen) > 1:
            return None, True
        token = next(iter(chosen), "")
        return (self._keys.authenticate(token) if token else None), False

    def _admit(
        self, key: ApiKey | None, address: str | None, space: object, scope: Scope, *, two_keys: bool = False
    ) -> ApiKey:
        decision = self._limiter.hit(caller_of(None if key is None else key.id, address))
        if not decision.allowed:
            who = f"key {key.id}" if key is not None else "this client (no valid key)"
            raise _Refusal(
                429, "rate_limited",
                f"{who} is over {decision.limit} calls per minute; retry in {decision.retry_after} s",
            )  # fmt: skip
        if key is None:
            raise _Refusal(
                401, "unauthorized", TWO_KEYS if two_keys else "a valid API key is required (missing, unknown, expired or revoked)"
            )
        if not isinstance(space, str):
            raise InvalidInputError.at("space", "must be a non-empty string")
        if not key.allows(space, scope):
            raise _Refusal(403, "forbidden", f"this key has no {scope!r} scope on space {space!r}")
        return key

    def _record(self, key: ApiKey | None, tool: str, space: object, status: int) -> None:
        if self._access is None:
            return
        event = AccessEvent(
            at=utc_now(), key_id=None if key is None else key.id, surface="mcp", route=f"mcp {tool}",
            space=space.encode("utf-8", "backslashreplace").decode("utf-8") if isinstance(space, str) else None,
            status=status,
        )  # fmt: skip
        if self._access.add(event):
            self._access.flush()  # tools run in worker threads: writing here blocks no loop
