"""The composition root of the HTTP API: ``create_app`` wires dependencies into FastAPI.

Everything the app uses is passed in (the Memory, settings, key store, job runner, rate
limiter), so tests build it on a real embedded Memory in a temporary directory and the
``eywa serve`` command builds it from settings (``build_app``), opening the memory and the
key store through ``eywa.runtime`` like every other entry point.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from datetime import timedelta

from fastapi import APIRouter, Depends, FastAPI

from eywa.errors import ConfigurationError, EywaError, StoreError
from eywa.jobs import InlineJobRunner, JobRunner
from eywa.memory import Memory
from eywa.runtime import open_key_store, open_memory, workers_embed
from eywa.runtime.commands import check_listen, missing_extra
from eywa.settings import EywaSettings
from eywa.stores.keys import KeyStore
from services.access import AccessRecorder
from services.api import (
    routes_admin,
    routes_browse,
    routes_correct,
    routes_erase,
    routes_merge,
    routes_port,
    routes_read,
    routes_write,
)
from services.api.deps import ServiceContext, check_query_names
from services.api.errors import document_problems, install_error_handlers
from services.api.middleware import BodyLimitMiddleware, GateMiddleware, MetricsMiddleware
from services.console.pages import install_console
from services.metrics import ServiceMetrics
from services.ratelimit import FailOpenRateLimiter, RateLimiter, build_rate_limiter
from services.upkeep import PeriodicReconcile, RedisProbe

__all__ = ["V1_ROUTERS", "access_recorder", "build_app", "create_app", "freeze_startup_heap", "serve", "serve_in_thread", "warm_up_stores"]

# The /v1 routers, in the order the app includes them (the probes are not under /v1).
V1_ROUTERS: tuple[APIRouter, ...] = (
    routes_write.router, routes_erase.router, routes_correct.router, routes_merge.router,
    routes_port.router, routes_read.router, routes_browse.router, routes_admin.router,
)  # fmt: skip

WARM_UP_WAIT_S = 10.0
"""How long ``eywa serve`` waits for the warm-up (``warm_up_stores``) before serving."""
WARM_UP_TOKEN = "eyw_warmup_x"
"""A well-formed key that names no key (ids are random hex): its lookup runs the key read."""
_log = logging.getLogger(__name__)

DESCRIPTION = """Provenance-first memory for AI agents.

Authenticate with `Authorization: Bearer eyw_<id>_<secret>` (or `X-API-Key`). Keys are
scoped to spaces and to `read`, `write`, `erase` and `admin`, and may expire. Errors are
`application/problem+json` with a stable `code`, the same the Python API raises; input errors
list the offending fields in `errors`.
"""


def create_app(
    memory: Memory,
    settings: EywaSettings,
    key_store: KeyStore,
    job_runner: JobRunner | None = None,
    rate_limiter: RateLimiter | None = None,
    *,
    close_on_shutdown: bool = False,
    warm_up: bool = False,
) -> FastAPI:
    """The FastAPI app over ``memory``.

    ``close_on_shutdown`` makes the app own the Memory and key store (``eywa serve``);
    tests leave it off and close what they opened. While the app runs (its lifespan), the
    memory is reconciled every ``EYWA_RECONCILE_INTERVAL_S`` (``services.upkeep``).
    ``warm_up`` (``eywa serve``) runs the store's hot statements before the app takes
    traffic (``warm_up_stores``), then freezes the heap it leaves (``freeze_startup_heap``).
    """
    metrics = ServiceMetrics()
    limiter = rate_limiter if rate_limiter is not None else build_rate_limiter(settings)
    context = ServiceContext(
        memory=memory,
        settings=settings,
        keys=key_store,
        jobs=job_runner if job_runner is not None else InlineJobRunner(memory),
        limiter=FailOpenRateLimiter(limiter, lambda exc: metrics.rate_limiter_errors.inc()),
        metrics=metrics,
        access=access_recorder(memory, settings, lambda exc: metrics.access_log_errors.inc()),
        redis=RedisProbe(settings.redis_url, settings.redis_timeout_s) if settings.redis_url else None,
    )
    upkeep = PeriodicReconcile(memory, settings.reconcile_interval_s)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        warming = await asyncio.to_thread(warm_up_stores, memory, key_store) if warm_up else None
        if warm_up:
            freeze_startup_heap()
        upkeep.start()
        try:
            yield
        finally:
            if warming is not None:  # a warm-up still running must not meet a closing driver
                await asyncio.to_thread(warming.join, WARM_UP_WAIT_S)
            upkeep.stop()
            context.jobs.close()
            context.access.close()
            if context.redis is not None:
                context.redis.close()
            if close_on_shutdown:
                memory.close()
                key_store.close()

    app = FastAPI(title="Eywa", version="0.1.0", description=DESCRIPTION, lifespan=lifespan)
    app.state.eywa = context
    install_error_handlers(app)
    for router in V1_ROUTERS:  # a query name a route does not take, or given twice, is refused
        app.include_router(router, dependencies=[Depends(check_query_names)])
    app.include_router(routes_admin.probes)
    document_problems(app)
    secret = settings.session_secret
    install_console(app, secret.get_secret_value().encode() if secret is not None else None)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    app.add_middleware(GateMiddleware, context=context, app_paths=lambda: app.openapi()["paths"])
    app.add_middleware(MetricsMiddleware, metrics=metrics)
    return app


def freeze_startup_heap() -> int:
    """Collect, then move every object the process holds to the collector's permanent
    generation (``gc.freeze``); returns how many were frozen.

    A full (generation 2) collection walks every tracked object and holds the interpreter
    while it does, so every request thread stops for it. Once ``eywa serve`` has started,
    most of those objects are the modules, the models and the stores it opened, which live
    as long as the process: under ``eywa bench service --request-rate 50`` the collections
    after the start took 57-129 ms each, every request in flight stopped meanwhile (4-17 ms
    frozen; docs/service.md, "Latency at a fixed offered load"). Frozen, they are never
    walked again; objects made while serving are collected as before, and reference counting still frees a frozen object that is let go (only a
    cycle of frozen objects would stay). Done once, by ``eywa serve``: a process that opens
    and closes apps (the tests) would pin each one's cycles.
    """
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def warm_up_stores(memory: Memory, key_store: KeyStore, wait_s: float = WARM_UP_WAIT_S) -> threading.Thread:
    """Run the hot statements of a write, a recall and a key lookup once before serving, and
    wait for them at most ``wait_s`` seconds: on a fresh Neo4j, the first concurrent callers
    otherwise each wait for Neo4j to plan the same statements (measured, 16 agents: POST
    /turns p50 7-10 s on a fresh server, 1 s on a warm one; ``eywa.warm_up``). The warm-up
    runs on a thread of its own: past ``wait_s`` the app serves while it goes on, and a
    store that fails only costs a log line (requests then answer ``store_unavailable`` as
    they would have). Nothing is stored; on the embedded store only the embedder is warmed.

    Returns the warm-up's thread: whoever closes ``memory`` joins it first, since a driver
    closed while the warm-up still uses one of its connections fails in the closing thread.
    """

    def run() -> None:
        started = time.monotonic()
        try:
            memory.warm_up()
            key_store.authenticate(WARM_UP_TOKEN)
        except EywaError as exc:
            _log.warning("warm-up of the stores failed (serving anyway): %s", exc)
        else:
            _log.info("warm-up of the stores took %.1f s", time.monotonic() - started)

    thread = threading.Thread(target=run, name="eywa-warm-up", daemon=True)
    thread.start()
    thread.join(wait_s)
    if thread.is_alive():
        _log.warning("warm-up of the stores still running after %.0f s: serving meanwhile", wait_s)
    return thread


def access_recorder(memory: Memory, settings: EywaSettings, on_error: Callable[[EywaError], None]) -> AccessRecorder:
    """The buffered access log of a service over ``memory`` (retention from settings)."""
    days = settings.access_log_retention_days
    return AccessRecorder(memory.access_log, timedelta(days=days) if days else None, on_error=on_error)


def _celery_runner(settings: EywaSettings, memory: Memory) -> JobRunner:
    """The Celery job runner, imported only when the settings ask for it: Celery is the
    ``worker`` extra's, so the ``service`` extra alone serves with the inline runner.

    Raises:
        ConfigurationError: Celery is not installed.
    """
    try:
        from services.queue import celery_job_runner
    except ImportError as exc:
        raise missing_extra("serve with EYWA_JOB_RUNNER=celery", "worker", exc) from exc
    return celery_job_runner(settings, memory)


def build_app(settings: EywaSettings) -> FastAPI:
    """The app ``eywa serve`` runs: the memory and key store ``eywa.runtime`` opens for
    ``settings`` (Neo4j when ``EYWA_NEO4J_URI`` is set, else embedded), and the job runner
    the settings name: in-process (default) or, with ``EYWA_JOB_RUNNER=celery``, the Celery
    workers, in which case the API's memory has no extractor (Level 1 runs in the workers).
    When the workers can write the vector store too (a Qdrant server,
    ``eywa.runtime.workers_embed``) they embed, and this process embeds queries only; else it
    embeds new turns and the workers' beliefs from the stage ledger (after each batch and in
    its periodic reconciliation).

    Raises:
        StoreError: the stores or the key file cannot be opened.
        ConfigurationError: settings that cannot work together.
    """
    celery = settings.job_runner == "celery"
    if celery and not settings.redis_url:
        raise ConfigurationError("EYWA_JOB_RUNNER=celery needs EYWA_REDIS_URL")
    opened = settings.model_copy(update={"extractor": "none"}) if celery else settings
    memory = open_memory(opened, embed_writes=not workers_embed(settings))
    try:
        keys = open_key_store(settings)
        runner = _celery_runner(settings, memory) if celery else None
    except BaseException:
        memory.close()
        raise
    return create_app(memory, settings, keys, runner, close_on_shutdown=True, warm_up=True)


@contextmanager
def serve_in_thread(app: FastAPI, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Run ``app`` with uvicorn in a background thread; yields its base URL.

    For benchmarks and tests that need a real socket. ``port=0`` takes a free port (the
    socket is bound here, so no other process can grab it in between). The server is
    stopped and the thread joined on exit.

    Raises:
        StoreError: the server did not start within 30 seconds.
    """
    import uvicorn

    from services.http_protocol import PROTOCOL

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    bound: int = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on", http=PROTOCOL))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="eywa-api", daemon=True)
    thread.start()
    try:
        for _ in range(300):
            if server.started or not thread.is_alive():
                break
            time.sleep(0.1)
        if not server.started:
            raise StoreError("http", "serve", f"uvicorn did not start on {host}:{bound}")
        yield f"http://{host}:{bound}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


def serve(settings: EywaSettings, host: str = "127.0.0.1", port: int = 8000, *, access_log: bool = False) -> None:
    """Run ``build_app(settings)`` with uvicorn until interrupted (``eywa serve``).

    uvicorn's access log (a line on stderr per request) is off unless ``access_log``: every
    ``/v1`` call is already in the service's own access log and metrics, and formatting and
    writing the line was measured at 0.3-0.6 ms of CPU per request (a sixth of a small one).

    Raises:
        ConfigurationError: ``host``:``port`` cannot be listened on (``check_listen``).
        StoreError: the stores or the key file cannot be opened.
    """
    import uvicorn

    from services.http_protocol import PROTOCOL

    check_listen(host, port)  # before the memory opens: a taken port is one line, not uvicorn's log
    uvicorn.run(build_app(settings), host=host, port=port, access_log=access_log, http=PROTOCOL)
