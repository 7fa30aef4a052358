"""The composition root of the HTTP API: ``create_app`` wires dependencies into FastAPI.

Everything the app uses is passed in (the Memory, settings, key store, job runner, rate
limiter), so tests build it on a real embedded Memory in a temporary directory and the
``eywa serve`` command builds it from settings (``build_app``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from eywa.memory import Memory
from eywa.settings import EywaSettings
from services.api import routes_admin, routes_read, routes_write
from services.api.deps import ServiceContext
from services.api.errors import install_error_handlers
from services.api.middleware import BodyLimitMiddleware, MetricsMiddleware
from services.jobs import InlineJobRunner, JobRunner
from services.keys import KeyStore
from services.metrics import ServiceMetrics
from services.ratelimit import RateLimiter, build_rate_limiter

__all__ = ["build_app", "create_app", "key_store_path", "serve"]

DESCRIPTION = """Provenance-first memory for AI agents.

Authenticate with `Authorization: Bearer eyw_<id>_<secret>` (or `X-API-Key`). Keys are
scoped to spaces and to `read`, `write` and `admin`. Errors are `application/problem+json`
with a stable `code`; validation errors list the offending fields in `errors`.
"""


def create_app(
    memory: Memory,
    settings: EywaSettings,
    key_store: KeyStore,
    job_runner: JobRunner | None = None,
    rate_limiter: RateLimiter | None = None,
    *,
    close_on_shutdown: bool = False,
) -> FastAPI:
    """The FastAPI app over ``memory``.

    ``close_on_shutdown`` makes the app own the Memory and key store (``eywa serve``);
    tests leave it off and close what they opened.
    """
    metrics = ServiceMetrics()
    context = ServiceContext(
        memory=memory,
        settings=settings,
        keys=key_store,
        jobs=job_runner if job_runner is not None else InlineJobRunner(),
        limiter=rate_limiter if rate_limiter is not None else build_rate_limiter(settings),
        metrics=metrics,
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        if close_on_shutdown:
            memory.close()
            key_store.close()

    app = FastAPI(title="Eywa", version="0.1.0", description=DESCRIPTION, lifespan=lifespan)
    app.state.eywa = context
    install_error_handlers(app)
    app.include_router(routes_write.router)
    app.include_router(routes_read.router)
    app.include_router(routes_admin.router)
    app.include_router(routes_admin.probes)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    app.add_middleware(MetricsMiddleware, metrics=metrics)
    return app


def key_store_path(settings: EywaSettings) -> str:
    """Where the key file lives: ``EYWA_API_KEYS_PATH``, else ``<data_dir>/keys.sqlite``."""
    return str(settings.api_keys_path or settings.data_dir / "keys.sqlite")


def build_app(settings: EywaSettings) -> FastAPI:
    """The app ``eywa serve`` runs: an embedded Memory (or the server stores when
    ``EYWA_NEO4J_URI`` is set), keys from the key file, the in-process job runner.

    Raises:
        StoreError: the stores or the key file cannot be opened.
        ConfigurationError: settings that cannot work together.
    """
    memory = Memory.connect(settings) if settings.neo4j_uri else Memory.open(settings.data_dir, settings=settings)
    keys = KeyStore(key_store_path(settings))
    return create_app(memory, settings, keys, close_on_shutdown=True)


def serve(settings: EywaSettings, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run ``build_app(settings)`` with uvicorn until interrupted (``eywa serve``).

    Raises:
        StoreError: the stores or the key file cannot be opened.
    """
    import uvicorn

    uvicorn.run(build_app(settings), host=host, port=port)
