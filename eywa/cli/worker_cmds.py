"""``eywa worker`` and ``eywa beat``: run the Celery workers and scheduler of server mode.

Celery is an optional extra (``pip install 'eywa[worker]'``) and ``eywa`` (the core) must not
import it, so the ``workers`` package is imported inside the commands only. In the embedded
default neither command is needed: Level 1 runs in-process.
"""

from __future__ import annotations

import os
import tempfile
from typing import Annotated, Any

import typer

from eywa.cli._common import load_settings
from eywa.errors import ConfigurationError

__all__ = ["beat", "worker"]


def _celery_app() -> Any:
    try:
        from workers.app import celery_app
    except ImportError as exc:
        raise ConfigurationError(f"the workers need the worker extra: pip install 'eywa[worker]' ({exc})") from exc
    return celery_app


def worker(
    concurrency: Annotated[int, typer.Option(help="Worker processes (prefork pool).", min=1)] = 2,
    loglevel: Annotated[str, typer.Option("--loglevel", "-l", help="Log level.")] = "info",
    metrics_port: Annotated[
        int | None, typer.Option(help="Serve /metrics here (default EYWA_WORKER_METRICS_PORT; 0 = off).")
    ] = None,
) -> None:
    """Start a Celery worker for Level 1, dimension updates, repair and decay."""
    settings = load_settings()
    port = settings.worker_metrics_port if metrics_port is None else metrics_port
    if port:
        # Prefork children write their samples to files; set before prometheus-client loads.
        os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="eywa-metrics-"))
        os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)  # a named one may not exist yet
    app = _celery_app()
    if port:
        from redis import Redis

        from eywa.jobs import QUEUE
        from workers.metrics import serve_metrics

        serve_metrics(port, Redis.from_url(settings.redis_url or ""), [QUEUE])
    app.worker_main(["worker", "--pool=prefork", f"--concurrency={concurrency}", f"--loglevel={loglevel}"])


def beat(
    loglevel: Annotated[str, typer.Option("--loglevel", "-l", help="Log level.")] = "info",
    schedule: Annotated[str, typer.Option(help="Beat's schedule state file.")] = "celerybeat-schedule",
) -> None:
    """Start the scheduler: repair of 'repair' candidates and decay materialisation."""
    load_settings()  # fail early, in one line, on a bad EYWA_* value
    _celery_app().start(["beat", f"--loglevel={loglevel}", f"--schedule={schedule}"])
