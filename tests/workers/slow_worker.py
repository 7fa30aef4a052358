"""A worker app for the crash test: the Level 1 job stalls after writing its beliefs.

``celery -A tests.workers.slow_worker worker`` runs the real tasks, except that the Nous
update waits ``EYWA_TEST_STALL_S`` seconds first, so the test can kill the worker at the
worst moment: beliefs written, dimensions not yet.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence

from eywa.models import Belief
from eywa.stores.bundle import GraphStores
from workers import tasks
from workers.app import celery_app

__all__ = ["celery_app"]

_update = tasks._update_locked


def _stalled(stores: GraphStores, space: str, beliefs: Sequence[Belief]) -> int:
    time.sleep(float(os.environ.get("EYWA_TEST_STALL_S", "60")))
    return _update(stores, space, beliefs)


tasks._update_locked = _stalled
