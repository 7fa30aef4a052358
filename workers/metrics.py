"""Prometheus metrics of the workers.

Prefork children count tasks, so the worker runs prometheus-client in multiprocess mode:
``eywa worker --metrics-port`` (or ``EYWA_WORKER_METRICS_PORT``) sets
``PROMETHEUS_MULTIPROC_DIR`` before Celery forks, and the parent serves ``/metrics`` from
the children's files plus a live queue-depth reading (Redis ``LLEN`` at scrape time).
Without a port nothing is served and the counters are plain in-process ones (tests).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector
from redis import Redis
from redis.exceptions import RedisError

__all__ = [
    "CANDIDATES",
    "DIMENSIONS",
    "DIMENSION_ENTROPY",
    "METRIC_NAMES",
    "QUEUE_LAG",
    "REJECTIONS",
    "STORE_ERRORS",
    "TASKS",
    "TASK_RETRIES",
    "TASK_SECONDS",
    "QueueDepthCollector",
    "observe_level1",
    "serve_metrics",
]

TASKS = Counter("eywa_worker_tasks", "Worker tasks finished, by task and state.", ["task", "state"])
TASK_RETRIES = Counter("eywa_worker_task_retries", "Task retries (store or extractor errors).", ["task"])
TASK_SECONDS = Histogram(
    "eywa_worker_task_seconds", "Task run time.", ["task"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300),
)
QUEUE_LAG = Histogram(
    "eywa_worker_queue_lag_seconds", "Time from submission to a worker starting the task.", ["task"],
    buckets=(0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600),
)
CANDIDATES = Counter("eywa_level1_candidates", "Level 1 candidates by outcome.", ["outcome"])
REJECTIONS = Counter("eywa_level1_rejections", "Refused Level 1 candidates by reason.", ["reason"])
STORE_ERRORS = Counter("eywa_store_errors", "Store errors seen by workers.", ["backend", "operation"])
DIMENSIONS = Gauge(
    "eywa_dimensions", "Dimensions per space (beat: decay materialisation).", ["space"],
    multiprocess_mode="mostrecent",
)
DIMENSION_ENTROPY = Gauge(
    "eywa_dimension_entropy_bits_mean", "Mean entropy of a space's dimensions decayed to now.", ["space"],
    multiprocess_mode="mostrecent",
)
QUEUE_DEPTH_NAME = "eywa_queue_depth"

# The exposition names (counters gain ``_total``, histograms ``_bucket``/``_sum``/``_count``).
METRIC_NAMES: frozenset[str] = frozenset(
    {f"{m._name}_total" for m in (TASKS, TASK_RETRIES, CANDIDATES, REJECTIONS, STORE_ERRORS)}
    | {f"{m._name}_{s}" for m in (TASK_SECONDS, QUEUE_LAG) for s in ("bucket", "sum", "count")}
    | {DIMENSIONS._name, DIMENSION_ENTROPY._name, QUEUE_DEPTH_NAME}
)


def observe_level1(accepted: int, rejected: int, repair: int, by_reason: Mapping[str, int]) -> None:
    """Count one Level 1 report's outcomes and refusal reasons."""
    for outcome, count in (("accepted", accepted), ("rejected", rejected), ("repair", repair)):
        if count:
            CANDIDATES.labels(outcome).inc(count)
    for reason, count in by_reason.items():
        REJECTIONS.labels(reason).inc(count)


class QueueDepthCollector(Collector):
    """Messages waiting in each queue, read from the broker at scrape time."""

    def __init__(self, client: Redis, queues: Iterable[str]) -> None:
        self._client = client
        self._queues = tuple(queues)

    def collect(self) -> Iterable[GaugeMetricFamily]:
        """One gauge sample per queue; no sample when Redis does not answer."""
        family = GaugeMetricFamily(QUEUE_DEPTH_NAME, "Messages waiting in a worker queue.", labels=["queue"])
        for queue in self._queues:
            try:
                depth = int(self._client.llen(queue))
            except RedisError:
                continue
            family.add_metric([queue], depth)
        yield family


def serve_metrics(port: int, client: Redis, queues: Iterable[str]) -> CollectorRegistry:
    """Serve ``/metrics`` on ``port``: every process's samples plus live queue depth."""
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    else:
        from prometheus_client import REGISTRY

        registry = REGISTRY
    registry.register(QueueDepthCollector(client, queues))
    start_http_server(port, registry=registry)
    return registry
