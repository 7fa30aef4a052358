"""Celery workers: Level 1, Nous updates and periodic upkeep, run out of the API process.

A composition root like ``services/``: it reads settings, opens stores and calls the idempotent
task functions of ``eywa.tasks``. The embedded default never needs it (Level 1 runs
in-process); server deployments run ``eywa worker`` and ``eywa beat`` next to ``eywa serve``.

Modules: ``app`` (the one Celery app), ``tasks`` (thin tasks), ``stores`` (opening the graph
stores per worker process), ``locks`` (per-dimension Redis locks), ``repair`` (re-validation of
repairable candidates), ``runner`` (``CeleryJobRunner`` for the API), ``metrics`` and
``logging`` (observability).
"""
