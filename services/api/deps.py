"""What every request needs: the service context, the caller's key, its scope and rate.

The caller and the space come from the request alone: the key from ``Authorization:
Bearer`` (or ``X-API-Key``), the space from the path. Nothing per-request is ever stored on
shared objects (the Graphiti leak of issue #1331 came from mutating a shared driver's
database per call), so two concurrent callers can never see each other's space.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from eywa.memory import Memory
from eywa.settings import EywaSettings
from services.api.errors import ApiProblem
from eywa.jobs import JobRunner
from eywa.stores.keys import ApiKey, KeyStore, Scope
from services.metrics import ServiceMetrics
from services.ratelimit import RateLimiter
from services.upkeep import RedisProbe

__all__ = ["ServiceContext", "context", "require"]

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
    redis: RedisProbe | None = None


def context(request: Request) -> ServiceContext:
    """The context ``create_app`` stored on the app."""
    found: ServiceContext = request.app.state.eywa
    return found


def _unauthorized(detail: str) -> ApiProblem:
    return ApiProblem(401, "unauthorized", "Unauthorized", detail, headers={"WWW-Authenticate": "Bearer"})


def authenticate(
    request: Request,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    header: Annotated[str | None, Depends(_header)],
) -> ApiKey:
    """The live key of this request.

    Raises:
        ApiProblem: 401 when no key is given or it is unknown, wrong or revoked.
    """
    token = bearer.credentials if bearer is not None else header
    if not token:
        raise _unauthorized("an API key is required (Authorization: Bearer <key> or X-API-Key)")
    key = context(request).keys.authenticate(token)
    if key is None:
        raise _unauthorized("the API key is invalid or revoked")
    return key


def require(scope: Scope, *, space_from_path: bool = True) -> Callable[..., ApiKey]:
    """A dependency admitting keys with ``scope`` on the path's ``{space}``, then rate-limiting.

    Raises (from the dependency):
        ApiProblem: 403 when the key lacks the space or the scope; 429 (with
            ``Retry-After``) when the key is over its rate.
    """

    def dependency(request: Request, key: Annotated[ApiKey, Depends(authenticate)]) -> ApiKey:
        space = request.path_params.get("space") if space_from_path else None
        if not key.allows(space, scope):
            where = f" on space {space!r}" if space is not None else ""
            raise ApiProblem(403, "forbidden", "Forbidden", f"this key has no {scope!r} scope{where}")
        admit(request, key)
        return key

    return dependency


def admit(request: Request, key: ApiKey) -> None:
    """Count the request against the key's rate.

    Raises:
        ApiProblem: 429 with ``Retry-After`` when the key is over its rate.
        StoreError: the rate limiter's store cannot be reached (503).
    """
    ctx = context(request)
    decision = ctx.limiter.hit(key.id)
    if not decision.allowed:
        ctx.metrics.rate_limited.inc()
        raise ApiProblem(
            429, "rate_limited", "Too many requests",
            f"key {key.id} is over {decision.limit} requests per minute",
            headers={"Retry-After": str(decision.retry_after)},
        )


def authorize_space(request: Request, key: ApiKey, space: str, scope: Scope) -> None:
    """For routes whose space is known only after a lookup (jobs).

    Raises:
        ApiProblem: 403 when the key lacks ``scope`` on ``space``.
    """
    if not key.allows(space, scope):
        raise ApiProblem(403, "forbidden", "Forbidden", f"this key has no {scope!r} scope on space {space!r}")


Reader = Annotated[ApiKey, Depends(require("read"))]
Writer = Annotated[ApiKey, Depends(require("write"))]
Admin = Annotated[ApiKey, Depends(require("admin", space_from_path=False))]
Ctx = Annotated[ServiceContext, Depends(context)]
