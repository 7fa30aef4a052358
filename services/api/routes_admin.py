"""Key management and the access log over HTTP (``admin`` scope), and the process probes."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Annotated

from fastapi import APIRouter, Header, Path, Query, Response

from eywa.contract import check_label, check_since, check_time
from eywa.errors import InvalidInputError
from eywa.ids import check_space
from eywa.models import utc_now
from eywa.stores.access import AccessEvent
from eywa.stores.keys import MAX_GRACE, ApiKey, parse_scopes
from services.api.bodies import UniqueKeysRoute
from services.api.deps import Admin, Ctx
from services.api.errors import problem_response
from services.api.schemas import CreatedKey, CreateKeyRequest, RotateKeyRequest
from services.metrics import CONTENT_TYPE_LATEST

log = logging.getLogger(__name__)
router = APIRouter(prefix="/v1/keys", tags=["admin"], route_class=UniqueKeysRoute)
probes = APIRouter(tags=["ops"])
# A key id is checked as ``eywa keys rotate|revoke`` checks it (a label: ``limit_exceeded``
# past EYWA_MAX_LABEL_CHARS, else 404 when no key has it); a bound of 64 here answered
# ``validation_error`` for an id the CLI calls unknown.
KeyIdPath = Annotated[str, Path(description="The key id (the part after eyw_).")]


@router.post("", response_model=CreatedKey, status_code=201, summary="Create an API key")
def create_key(
    body: CreateKeyRequest,
    key: Admin,
    ctx: Ctx,
    idempotency_key: Annotated[str | None, Header(
        alias="Idempotency-Key",
        description="One value per key to create, sent again with its retries: a repeat (within 24 h, "
        "by the same admin key) is answered with the same key id and a new secret, the first one "
        "replaced at once; a repeat asking for another key, or of a key revoked since, is 409.",
    )] = None,  # fmt: skip
) -> CreatedKey:
    """Create a key scoped to spaces, optionally expiring; the secret is returned once."""
    # The expiry is read as every other time of the API (ISO-8601, range-checked): typed as a
    # datetime, pydantic read ``1900000000`` as Unix time (a key expiring in 2030).
    expires_at = check_time(body.expires_at, "expires_at")
    spaces, scopes = _names(body.spaces, "spaces"), parse_scopes(_names(body.scopes, "scopes"))
    # The request key is the caller's: another admin's same header value is another request.
    request_key = (
        None if idempotency_key is None
        else f"{key.id}/{check_label(idempotency_key, 'Idempotency-Key', ctx.memory.limits)}"
    )  # fmt: skip
    record, secret = ctx.keys.create(spaces, scopes, body.name, expires_at, request_key=request_key)
    return CreatedKey(key=record, secret=secret)


@router.get("", response_model=list[ApiKey], summary="List API keys")
def list_keys(key: Admin, ctx: Ctx) -> list[ApiKey]:
    """Every key's public record (never a secret)."""
    return ctx.keys.list()


@router.get("/log", response_model=list[AccessEvent], summary="The access log")
def access_log(
    key: Admin,
    ctx: Ctx,
    space: Annotated[str | None, Query(description="Only calls on this space.")] = None,
    key_id: Annotated[str | None, Query(description="Only calls with this key.")] = None,
    since: Annotated[str | None, Query(
        description="Only calls from then on: an ISO-8601 time or a duration back (90s, 15m, 1h, 7d, 2w); "
        "a bare number is refused.",
    )] = None,  # fmt: skip
    limit: Annotated[int, Query(ge=1, le=10_000)] = 100,
) -> list[AccessEvent]:
    """Who called what, newest first: key id, route or tool, space, time and status (never
    content). Buffered events are written first, so the answer includes every call so far."""
    # The filters are checked as ``eywa keys log`` checks them (the log is read directly, not
    # through a Memory call): a space as a space, a key id as a label; unchecked, a space of
    # ``*`` or a 10,000-character id was read as a filter that matched nothing.
    space = None if space is None else check_space(space)
    key_id = None if key_id is None else check_label(key_id, "key_id", ctx.memory.limits)
    ctx.access.flush()
    # Read as ``eywa keys log --since`` reads it (typed as a datetime, ``since=5`` was Unix
    # time: every call since 1970); as its UTC instant, range-checked: Neo4j cannot carry an
    # offset past ±18:00 (a valid Python one, +21:00, broke the Bolt connection: a 503), nor
    # a year past 9999 in UTC.
    start = check_since(since, "since", utc_now())
    return ctx.memory.access_log.events(space=space, key_id=key_id, since=start, limit=limit)


@router.post("/{key_id}/rotate", response_model=CreatedKey, summary="Rotate an API key's secret")
def rotate_key(
    key_id: KeyIdPath, body: RotateKeyRequest, key: Admin, ctx: Ctx
) -> CreatedKey:
    """A new secret for the key (shown once); the current one keeps working for
    ``grace_seconds``, so agents can move over without an outage."""
    key_id = check_label(key_id, "key_id", ctx.memory.limits)
    record, secret = ctx.keys.rotate(key_id, _grace(body.grace_seconds))
    return CreatedKey(key=record, secret=secret)


def _names(value: object, field: str) -> list[str]:
    """A list of strings as sent (the key store checks each), else ``invalid_input``."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise InvalidInputError.at(field, "must be a list of strings")
    return value


def _grace(seconds: object) -> timedelta:
    """``grace_seconds`` as a timedelta in ``[0, MAX_GRACE]`` (``invalid_input`` otherwise;
    ``true`` is no number of seconds)."""
    if isinstance(seconds, bool) or not isinstance(seconds, int) or not 0 <= seconds <= MAX_GRACE.total_seconds():
        raise InvalidInputError.at("grace_seconds", f"must be a whole number of seconds from 0 to {MAX_GRACE.days} days")
    return timedelta(seconds=seconds)


@router.delete("/{key_id}", response_model=ApiKey, summary="Revoke an API key")
def revoke_key(key_id: KeyIdPath, key: Admin, ctx: Ctx) -> ApiKey:
    """Revoke a key; its requests get 401 from now on."""
    return ctx.keys.revoke(check_label(key_id, "key_id", ctx.memory.limits))


@probes.get("/healthz", summary="Liveness")
def healthz() -> dict[str, str]:
    """The process is up and serving (no dependency is checked)."""
    return {"status": "ok"}


@probes.get("/readyz", summary="Readiness", responses={503: {"description": "A dependency is unreachable."}})
def readyz(ctx: Ctx) -> Response:
    """Stores, key file, job runner (broker) and rate limiter (Redis) all reachable; also
    reports whether Redis persists its data, the backlogs and their bounds."""
    stores_problem = _stores_problem(ctx)
    checks = {
        "stores": stores_problem is None,
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
    why = f" ({stores_problem})" if stores_problem is not None else ""
    return problem_response(503, "not_ready", "Not ready", f"unreachable: {failing}{why}", headers={"Retry-After": "5"})


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
    """``level1_backlog``, the marks per stage (``Memory.backlog``; ``embed_evidence``: turns
    not yet embedded) and the bounds over which writes are refused (0: none)."""
    figures = ctx.memory.backlog()
    bounds = {"embed": ctx.settings.max_embed_backlog, "level1": ctx.settings.max_backlog}
    return {"level1_backlog": figures.pop("level1_backlog"), "backlog": figures, "backlog_bounds": bounds}


def _stores_problem(ctx: Ctx) -> str | None:
    """Why the stores cannot serve (a server unreachable, the embedded directory deleted
    under the process: ``eywa.stores.embedded.presence``), or None when they answer."""
    from eywa.errors import EywaError

    try:
        ctx.memory.spaces()
    except EywaError as exc:
        return str(exc)
    return None
