"""Prometheus metrics of one API app, on a registry of its own.

A dedicated ``CollectorRegistry`` per app keeps tests (which build many apps in one
process) from colliding on the global registry, and lets ``/metrics`` show only this app.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

__all__ = ["CONTENT_TYPE_LATEST", "ServiceMetrics"]

_STAGE_BUCKETS = (0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500)
_REQUEST_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)


class ServiceMetrics:
    """Request counts and latencies by route, recall stage latencies, turns ingested, backlog."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        # The children of the labelled metrics a request touches, by label values:
        # ``labels()`` checks and joins its values under a lock on every call (a recall
        # observes some twenty stages). Label sets are bounded (route templates, stages).
        self._children: dict[tuple[object, ...], Any] = {}
        self.requests = Counter(
            "eywa_http_requests", "HTTP requests by route template, method and status.",
            ["route", "method", "status"], registry=self.registry,
        )
        self.request_seconds = Histogram(
            "eywa_http_request_seconds", "HTTP request latency by route template.",
            ["route", "method"], buckets=_REQUEST_BUCKETS, registry=self.registry,
        )
        self.recall_stage_ms = Histogram(
            "eywa_recall_stage_ms", "Recall latency per read-path stage (trace.timings_ms).",
            ["stage"], buckets=_STAGE_BUCKETS, registry=self.registry,
        )
        self.turns_ingested = Counter(
            "eywa_turns_ingested", "Turns accepted by POST /turns (new or already stored).",
            registry=self.registry,
        )
        self.rate_limited = Counter(
            "eywa_rate_limited", "Requests refused with 429.", registry=self.registry,
        )
        self.rate_limiter_errors = Counter(
            "eywa_rate_limiter_errors", "Rate-limiter store failures; the request was allowed (fail open).",
            registry=self.registry,
        )
        self.recall_routes_skipped = Counter(
            "eywa_recall_routes_skipped", "Recall routes skipped because their store failed (trace.skipped).",
            ["route"], registry=self.registry,
        )
        self.access_log_errors = Counter(
            "eywa_access_log_errors", "Access-log batches that could not be written (and were dropped).",
            registry=self.registry,
        )
        self.stage_backlog = Gauge(
            "eywa_stage_backlog", "Pending stage marks (the stage ledger), read at scrape time.",
            ["stage"], registry=self.registry,
        )
        self.level1_backlog = Gauge(
            "eywa_level1_backlog", "Turns not yet through Level 1 and their dimension update.",
            registry=self.registry,
        )
        self.writes_refused = Counter(
            "eywa_writes_refused", "Write batches refused by backpressure (503 overloaded), by backlog.",
            ["stage"], registry=self.registry,
        )

    def observe_request(self, route: str, method: str, status: int, seconds: float) -> None:
        """Record one finished request under its route template (never the raw path)."""
        self._child(self.requests, route, method, str(status)).inc()
        self._child(self.request_seconds, route, method).observe(seconds)

    def observe_recall(self, timings_ms: Mapping[str, object], skipped: Mapping[str, object] | None = None) -> None:
        """Record each stage timing of one recall trace, and the routes it skipped."""
        for stage, value in timings_ms.items():
            if isinstance(value, (int, float)):
                self._child(self.recall_stage_ms, stage).observe(float(value))
        for route in skipped or {}:
            self.recall_routes_skipped.labels(route).inc()

    def _child(self, metric: Counter | Histogram, *values: str) -> Any:
        """``metric.labels(*values)``, kept (dict reads and writes are atomic under the GIL;
        two threads making the same child at once get the same one from ``labels``)."""
        found = self._children.get((metric, *values))
        if found is None:
            found = self._children[(metric, *values)] = metric.labels(*values)
        return found

    def observe_backlog(self, backlog: Mapping[str, int]) -> None:
        """Set the backlog gauges from ``Memory.backlog()``."""
        for stage, value in backlog.items():
            if stage == "level1_backlog":
                self.level1_backlog.set(value)
            else:
                self.stage_backlog.labels(stage).set(value)

    def render(self) -> bytes:
        """The text exposition of this app's registry."""
        return generate_latest(self.registry)
