"""``eywa worker`` and ``eywa beat``: the Celery worker and scheduler, plugins of ``eywa``.

Registered under ``[project.entry-points."eywa.commands"]``. Celery is an optional extra
(``pip install 'eywa[worker]'``): this module imports only the core's command kit, and the
Celery app inside the commands, so ``eywa --help`` works without it. In the embedded default
neither command is needed: Level 1 runs in-process.
"""

from __future__ import annotations

import os
import tempfile
from typing import Annotated, Any

import typer

from eywa.jobs import QUEUE
from eywa.runtime import load_settings
from eywa.runtime.commands import missing_extra

__all__ = ["beat", "worker"]


def _celery_app(command: str) -> Any:
    try:
        from workers.app import celery_app
    except ImportError as exc:
        raise missing_extra(command, "worker", exc) from exc
    return celery_app


def worker(
    concurrency: Annotated[int, typer.Option(help="Worker processes (prefork pool).", min=1)] = 2,
    loglevel: Annotated[str, typer.Option("--loglevel", "-l", help="Log level.")] = "info",
    metrics_port: Annotated[
        int | None, typer.Option(help="Serve /metrics here (default EYWA_WORKER_METRICS_PORT; 0 = off).", min=0, max=65535)
    ] = None,
) -> None:
    """Start a Celery worker for Level 1, dimension updates, repair and decay."""
    settings = load_settings()
    port = settings.worker_metrics_port if metrics_port is None else metrics_port
    if port:
        # Prefork children write their samples to files; set before prometheus-client loads.
        os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="eywa-metrics-"))
        os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)  # a named one may not exist yet
    app = _celery_app("worker")
    if port:
        from redis import Redis

        from workers.metrics import serve_metrics

        serve_metrics(port, Redis.from_url(settings.redis_url or ""), [QUEUE])
    app.worker_main(["worker", "--pool=prefork", f"--concurrency={concurrency}", f"--loglevel={loglevel}"])


def beat(
    loglevel: Annotated[str, typer.Option("--loglevel", "-l", help="Log level.")] = "info",
    schedule: Annotated[str, typer.Option(help="Beat's schedule state file.")] = "celerybeat-schedule",
) -> None:
    """Start the scheduler: repair of 'repair' candidates and decay materialisation."""
    load_settings()  # fail early, in one line, on a bad EYWA_* value
    _celery_app("beat").start(["beat", f"--loglevel={loglevel}", f"--schedule={schedule}"])
