"""The one Celery app of the workers (the consumer side). Redis is broker and result backend.

Configuration is lazy: ``celery_app.add_defaults`` registers a callable that Celery evaluates
when the app is first configured (a worker starting), so importing this module reads no
environment. What the configuration says, and why, is ``eywa.jobs.celery_config``: the
API's sender (``services.queue``) builds its own app from the same function.
"""

from __future__ import annotations

from typing import Any

from celery import Celery

from eywa.jobs import celery_config
from eywa.runtime import load_settings

__all__ = ["celery_app"]


def _lazy_config() -> dict[str, Any]:
    return celery_config(load_settings())


celery_app = Celery("eywa", include=["workers.tasks"])
celery_app.add_defaults(_lazy_config)

# Signal handlers (metrics, JSON logs, per-process stores) register on import.
from workers import signals as _signals  # noqa: E402,F401  (after celery_app exists)
