"""What every request needs: the service context, the caller's key, its scope and rate.

The caller and the space come from the request alone: the key from ``Authorization:
Bearer`` (or ``X-API-Key``), the space from the path. Nothing per-request is ever stored on
shared objects (the Graphiti leak of issue #1331 came from mutating a shared driver's
database per call), so two concurrent callers can never see each other's space.

The dependencies here do no I/O (the key was read by ``GateMiddleware``), so they are
``async def``: FastAPI runs every sync dependency in its thread pool, a thread hop each
(three per request, measured as the largest part of a small request's CPU).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import Depends, Request
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from eywa.jobs import JobRunner
from eywa.memory import Memory
from eywa.settings import EywaSettings
from eywa.stores.keys import ALL_SPACES, ApiKey, KeyStore, Scope
from services.access import AccessRecorder
from services.api.errors import ApiProblem
from services.metrics import ServiceMetrics
from services.ratelimit import RateLimiter
from services.upkeep import RedisProbe

__all__ = ["KEY_STATE", "SPACE_STATE", "ServiceContext", "check_query_names", "context", "record_space", "require"]

KEY_STATE = "eywa_key"
"""Where ``GateMiddleware`` leaves the request's authenticated key (``request.state``)."""
SPACE_STATE = "eywa_space"
"""Where a route whose space is known only after a lookup (jobs) names it for the access log."""

_bearer = HTTPBearer(auto_error=False, description="`Authorization: Bearer eyw_<id>_<secret>`")
_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="The same key in `X-API-Key`.")


@dataclass(frozen=True)
class ServiceContext:
    """The app's dependencies, built once by ``create_app`` (the composition root)."""

    memory: Memory
    settings: EywaSettings
    keys: KeyStore
    jobs: JobRunner
    limiter: RateLimiter
    metrics: ServiceMetrics
    access: AccessRecorder
    redis: RedisProbe | None = None


def context(request: Request) -> ServiceContext:
    """The context ``create_app`` stored on the app."""
    found: ServiceContext = request.app.state.eywa
    return found


async def _context(request: Request) -> ServiceContext:
    """``context`` as a dependency (``async``: no thread hop)."""
    return context(request)


async def authenticate(
    request: Request,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    header: Annotated[str | None, Depends(_header)],
) -> ApiKey:
    """The live key of this request, authenticated (and rate-limited) by ``GateMiddleware``
    before the body was read; the two security schemes document the headers in OpenAPI.

    Raises:
        ApiProblem: 401 when the gate admitted no key (a route outside ``/v1``).
    """
    key = getattr(request.state, KEY_STATE, None)
    if not isinstance(key, ApiKey):
        raise ApiProblem(401, "unauthorized", "Unauthorized", "an API key is required", headers={"WWW-Authenticate": "Bearer"})
    return key


RequiredOn = Literal["path", "any", "every"]
"""Where a key must hold the scope: the path's ``{space}``, any space, or every space (``*``)."""


def require(scope: Scope, *, on: RequiredOn = "path") -> Callable[..., Awaitable[ApiKey]]:
    """A dependency admitting keys with ``scope`` on the path's ``{space}`` (``on="any"``: on
    some space; ``on="every"``: on ``*``).

    Raises (from the dependency):
        ApiProblem: 403 when the key lacks the space or the scope.
    """

    async def dependency(request: Request, key: Annotated[ApiKey, Depends(authenticate)]) -> ApiKey:
        space = {"path": request.path_params.get("space"), "any": None, "every": ALL_SPACES}[on]
        if not key.allows(space, scope):
            where = f" on space {space!r}" if space is not None else ""
            raise ApiProblem(403, "forbidden", "Forbidden", f"this key has no {scope!r} scope{where}")
        return key

    return dependency


def record_space(request: Request, space: str) -> None:
    """Name the space of a request whose path does not carry it, for the access log."""
    setattr(request.state, SPACE_STATE, space)


Reader = Annotated[ApiKey, Depends(require("read"))]
Writer = Annotated[ApiKey, Depends(require("write"))]
Admin = Annotated[ApiKey, Depends(require("admin", on="every"))]
"""Key management: ``admin`` on every space (``*``). A key that creates, rotates or revokes
keys can mint itself any key, so one confined to some spaces must not (it would reach every
other tenant's memory)."""
Eraser = Annotated[ApiKey, Depends(require("erase"))]
Ctx = Annotated[ServiceContext, Depends(_context)]


_QUERY_NAMES: dict[int, frozenset[str]] = {}
"""The query parameter names of each route (by the route object's id), built on first use."""


async def check_query_names(request: Request) -> None:
    """Refuse a query parameter the route does not take, or one given twice.

    Both were silent: ``GET …/beliefs?subjct=Bo`` (a typo) answered every belief, as though
    unfiltered were what was asked, and ``?subject=Bo&subject=Tom`` answered Tom's, the first
    value dropped. A body's unknown field is refused (``validation_error``), as an MCP tool's
    unknown argument is; so is a query's now, and a repeated one is ``invalid_input`` (one
    value per parameter), as ``eywa audit`` refuses a ``--param`` given twice.

    Raises:
        ApiProblem: 422, ``validation_error`` (an unknown name) or ``invalid_input`` (a
            repeated one), the field ``query.<name>``.
    """
    if not request.scope.get("query_string"):
        return
    route = request.scope.get("route")
    known = _QUERY_NAMES.get(id(route))
    if known is None:
        known = _QUERY_NAMES.setdefault(id(route), _query_names(getattr(route, "dependant", None)))
    seen: set[str] = set()
    for name, _ in request.query_params.multi_items():
        if name not in known:
            allowed = ", ".join(sorted(known)) or "none"
            message = f"not a parameter of this route (its parameters: {allowed})"
            raise ApiProblem(
                422, "validation_error", "Invalid request", f"query.{name}: {message}",
                errors=[{"field": f"query.{name}", "message": message}],
            )  # fmt: skip
        if name in seen:
            message = "given more than once; give each parameter once"
            raise ApiProblem(
                422, "invalid_input", "Invalid input", f"{name}: {message}",
                errors=[{"field": f"query.{name}", "message": message}],
            )  # fmt: skip
        seen.add(name)


def _query_names(dependant: Any) -> frozenset[str]:
    """The query parameter names of a route's dependant and of its dependencies."""
    names: set[str] = set()
    stack = [dependant] if dependant is not None else []
    while stack:
        current = stack.pop()
        names.update(param.alias for param in current.query_params)
        stack.extend(current.dependencies)
    return frozenset(names)
