"""The one Celery app. Redis is broker and result backend.

Configuration is lazy: ``celery_app.add_defaults`` registers a callable that Celery evaluates
when the app is first configured (a worker starting, a task being sent), so importing this
module reads no environment. Everything comes from ``EywaSettings``:

- ``EYWA_REDIS_URL`` is broker and result backend;
- ``task_acks_late`` + ``task_reject_on_worker_lost``: a message is acknowledged only after
  its task returned, so a worker killed mid-task leaves the message to be redelivered (after
  ``EYWA_CELERY_VISIBILITY_TIMEOUT_S`` with Redis); tasks are idempotent, so running one twice
  writes nothing twice;
- ``worker_prefetch_multiplier=1``: a worker holds one unacknowledged message per slot, so a
  crash strands at most that many and long Level 1 tasks are spread over workers;
- JSON only (no pickle), tracked ``STARTED`` state (the API reports ``running``);
- beat schedule: repair of ``repair`` candidates and decay materialisation for dashboards.
"""

from __future__ import annotations

from typing import Any

from celery import Celery

from eywa.errors import ConfigurationError
from eywa.settings import EywaSettings

__all__ = ["QUEUE", "build_config", "celery_app"]

QUEUE = "eywa"


def build_config(settings: EywaSettings) -> dict[str, Any]:
    """Celery configuration for ``settings`` (pure: tests inspect it).

    Raises:
        ConfigurationError: ``EYWA_REDIS_URL`` is not set.
    """
    if not settings.redis_url:
        raise ConfigurationError("workers need EYWA_REDIS_URL (e.g. redis://127.0.0.1:6379/0)")
    # Sweep for expired unacknowledged messages (a dead worker's) every few seconds, bounded by
    # the visibility timeout, instead of kombu's default of about 100 s.
    sweep = max(1, min(10, settings.celery_visibility_timeout_s // 4))
    transport = {
        "visibility_timeout": settings.celery_visibility_timeout_s,
        "unacked_restore_interval": sweep,
        "unacked_restore_throttle": 1,
    }
    return {
        "broker_url": settings.redis_url,
        "result_backend": settings.redis_url,
        "broker_transport_options": transport,
        "result_backend_transport_options": transport,
        "broker_connection_retry_on_startup": True,
        "task_default_queue": QUEUE,
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "task_track_started": True,
        "worker_prefetch_multiplier": 1,
        "task_serializer": "json",
        "result_serializer": "json",
        "accept_content": ["json"],
        "result_expires": settings.celery_result_expires_s,
        "result_extended": True,
        "worker_hijack_root_logger": False,
        "enable_utc": True,
        "beat_schedule": {
            "repair-candidates": {
                "task": "eywa.repair_candidates",
                "schedule": settings.repair_interval_s,
                "options": {"expires": settings.repair_interval_s},
            },
            "materialise-decay": {
                "task": "eywa.materialise_decay",
                "schedule": settings.decay_interval_s,
                "options": {"expires": settings.decay_interval_s},
            },
        },
    }


def _lazy_config() -> dict[str, Any]:
    return build_config(EywaSettings())


celery_app = Celery("eywa", include=["workers.tasks"])
celery_app.add_defaults(_lazy_config)

# Signal handlers (metrics, JSON logs, per-process stores) register on import.
from workers import signals as _signals  # noqa: E402,F401  (after celery_app exists)
