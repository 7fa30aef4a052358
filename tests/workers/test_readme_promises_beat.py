"""README, "Retention": "``eywa beat`` runs ``eywa.apply_retention`` every
``EYWA_RETENTION_INTERVAL_S`` (3600)", and "What survives a crash": the reconciler runs
"every ``EYWA_RECONCILE_INTERVAL_S`` in the API, in the workers' beat" (audit of s40).

tests/workers/test_worker_units.py checks which tasks the beat schedules, and
tests/unit/test_readme_reference.py the settings' defaults; nothing checked that the beat
reads the two settings, so a schedule fixed in code would have passed.
"""

from __future__ import annotations

from eywa.jobs import RECONCILE_TASK, RETENTION_TASK, celery_config
from eywa.settings import EywaSettings


def _every(settings: EywaSettings, task: str) -> float:
    (entry,) = [e for e in celery_config(settings)["beat_schedule"].values() if e["task"] == task]
    schedule: float = entry["schedule"]
    return schedule


def test_the_beat_runs_retention_and_the_reconciler_at_the_intervals_the_settings_give() -> None:
    default = EywaSettings(redis_url="redis://h:1/0")
    assert (_every(default, RETENTION_TASK), _every(default, RECONCILE_TASK)) == (3600, 30)
    chosen = EywaSettings(redis_url="redis://h:1/0", retention_interval_s=120, reconcile_interval_s=7)
    assert (_every(chosen, RETENTION_TASK), _every(chosen, RECONCILE_TASK)) == (120, 7)
