"""A worker app for the crash test: the Level 1 job stalls after writing its beliefs.

``celery -A tests.workers.slow_worker worker`` runs the real tasks, except that taking a
dimension's lock (the first thing the Nous update does) waits ``EYWA_TEST_STALL_S`` seconds
first, so the test can kill the worker at the worst moment: beliefs written, dimensions not
yet.
"""

from __future__ import annotations

import os
import time
from contextlib import AbstractContextManager

from eywa.level1 import DimensionKey
from workers import tasks
from workers.app import celery_app

__all__ = ["celery_app"]

_lock = tasks._dimension_lock


def _stalled(key: DimensionKey) -> AbstractContextManager[None]:
    time.sleep(float(os.environ.get("EYWA_TEST_STALL_S", "60")))
    return _lock(key)


tasks._dimension_lock = _stalled
