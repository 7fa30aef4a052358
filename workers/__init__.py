"""Celery workers: Level 1, Nous updates and periodic upkeep, run out of the API process.

An entry point like ``services/``: it reads settings and opens stores through
``eywa.runtime``, and its tasks call the core's workflows (``eywa.level1``). It never imports
``services`` (the API sends jobs by task name, ``eywa.jobs``). The embedded default never
needs it (Level 1 runs in-process); server deployments run ``eywa worker`` and ``eywa beat``
next to ``eywa serve``.

Modules: ``app`` (the one Celery app), ``tasks`` (thin tasks), ``stores`` (the graph stores of
a worker process), ``locks`` (per-dimension Redis locks), ``cli`` (``eywa worker``, ``eywa
beat``), ``metrics`` and ``logging`` (observability), ``signals`` (their Celery hooks).
"""
