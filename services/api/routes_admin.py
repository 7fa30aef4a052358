"""Key management over HTTP (``admin`` scope) and the process probes."""

from __future__ import annotations

import logging
from typing import Annotated

from fastapi import APIRouter, Path, Response

from services.api.deps import Admin, Ctx
from services.api.errors import problem_response
from services.api.schemas import CreatedKey, CreateKeyRequest
from eywa.stores.keys import ApiKey
from services.metrics import CONTENT_TYPE_LATEST

log = logging.getLogger(__name__)
router = APIRouter(prefix="/v1/keys", tags=["admin"])
probes = APIRouter(tags=["ops"])


@router.post("", response_model=CreatedKey, status_code=201, summary="Create an API key")
def create_key(body: CreateKeyRequest, key: Admin, ctx: Ctx) -> CreatedKey:
    """Create a key scoped to spaces; the secret is returned once and never stored."""
    record, secret = ctx.keys.create(body.spaces, body.scopes, body.name)
    return CreatedKey(key=record, secret=secret)


@router.get("", response_model=list[ApiKey], summary="List API keys")
def list_keys(key: Admin, ctx: Ctx) -> list[ApiKey]:
    """Every key's public record (never a secret)."""
    return ctx.keys.list()


@router.delete("/{key_id}", response_model=ApiKey, summary="Revoke an API key")
def revoke_key(key_id: Annotated[str, Path(min_length=1, max_length=64)], key: Admin, ctx: Ctx) -> ApiKey:
    """Revoke a key; its requests get 401 from now on."""
    return ctx.keys.revoke(key_id)


@probes.get("/healthz", summary="Liveness")
def healthz() -> dict[str, str]:
    """The process is up and serving (no dependency is checked)."""
    return {"status": "ok"}


@probes.get("/readyz", summary="Readiness", responses={503: {"description": "A dependency is unreachable."}})
def readyz(ctx: Ctx) -> Response:
    """Stores, key file, job runner (broker) and rate limiter (Redis) all reachable; also
    reports whether Redis persists its data and the Level 1 backlog."""
    checks = {
        "stores": _stores_ok(ctx),
        "keys": ctx.keys.ping(),
        "jobs": ctx.jobs.ping(),
        "rate_limiter": ctx.limiter.ping(),
    }
    if all(checks.values()):
        from fastapi.responses import JSONResponse

        body: dict[str, object] = {"status": "ready", "checks": checks}
        body.update(_backlog(ctx))
        body["redis"] = ctx.redis.status() if ctx.redis is not None else {"configured": False}
        return JSONResponse(body)
    failing = ", ".join(name for name, ok in checks.items() if not ok)
    return problem_response(503, "not_ready", "Not ready", f"unreachable: {failing}", headers={"Retry-After": "5"})


@probes.get("/metrics", summary="Prometheus metrics", response_class=Response)
def metrics(ctx: Ctx) -> Response:
    """Request counts and latencies, recall stage timings, turns ingested, stage backlog."""
    from eywa.errors import EywaError

    try:
        ctx.metrics.observe_backlog(ctx.memory.backlog())
    except EywaError as exc:  # the store is down: the other metrics still matter
        log.warning("backlog not read for /metrics: %s", exc)
    return Response(ctx.metrics.render(), media_type=CONTENT_TYPE_LATEST)


def _backlog(ctx: Ctx) -> dict[str, object]:
    """``level1_backlog`` and the marks per stage (``Memory.backlog``)."""
    figures = ctx.memory.backlog()
    return {"level1_backlog": figures.pop("level1_backlog"), "backlog": figures}


def _stores_ok(ctx: Ctx) -> bool:
    from eywa.errors import EywaError

    try:
        ctx.memory.spaces()
    except EywaError:
        return False
    return True
