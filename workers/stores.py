"""Opening the graph stores a worker needs, once per worker process.

Workers touch only the graph (evidence, beliefs, dimensions); vectors stay with the process
that serves reads, which embeds new beliefs through ``Memory.repair_vectors`` (drift repair).
The backend follows the settings: Neo4j when ``EYWA_NEO4J_URI`` is set, else the embedded
SQLite database under ``EYWA_DATA_DIR`` (WAL mode: safe next to the API process).

Prefork children must not inherit an open SQLite handle or a Neo4j driver from the parent,
so stores are opened lazily on a child's first task and closed on its shutdown
(``workers.signals``).
"""

from __future__ import annotations

import threading
from contextlib import suppress
from functools import lru_cache

import redis

from eywa.errors import ConfigurationError, StoreError
from eywa.settings import EywaSettings
from eywa.stores.bundle import GraphStores

__all__ = ["close_worker_resources", "open_graph", "worker_redis", "worker_settings",
           "worker_stores"]

_lock = threading.Lock()
_stores: GraphStores | None = None


def open_graph(settings: EywaSettings) -> GraphStores:
    """The graph stores the settings name: Neo4j with ``neo4j_uri``, else embedded.

    Raises:
        ConfigurationError: the embedded directory holds no database yet (the API creates it).
        StoreError: a store cannot be opened.
    """
    if settings.neo4j_uri:
        from eywa.stores.server import open_server_graph

        return open_server_graph(settings)
    from eywa.stores.embedded.factory import DATABASE_FILE, open_embedded_graph

    if not (settings.data_dir / DATABASE_FILE).is_file():
        raise ConfigurationError(f"no embedded store in {settings.data_dir} (set EYWA_DATA_DIR)")
    return open_embedded_graph(settings.data_dir)


@lru_cache(maxsize=1)
def worker_settings() -> EywaSettings:
    """Settings of this worker process, read once (at the first task, not at import)."""
    return EywaSettings()


def worker_stores() -> GraphStores:
    """This process's graph stores, opened on first use.

    Raises:
        ConfigurationError, StoreError: as ``open_graph``.
    """
    global _stores
    with _lock:
        if _stores is None:
            _stores = open_graph(worker_settings())
        return _stores


@lru_cache(maxsize=1)
def worker_redis() -> redis.Redis:
    """A Redis client for locks and queue depth (the broker's own URL).

    Raises:
        ConfigurationError: ``EYWA_REDIS_URL`` is not set.
    """
    url = worker_settings().redis_url
    if not url:
        raise ConfigurationError("workers need EYWA_REDIS_URL")
    return redis.Redis.from_url(url)


def close_worker_resources() -> None:
    """Close what this process opened (worker process shutdown); safe to call twice."""
    global _stores
    with _lock:
        stores, _stores = _stores, None
    if stores is not None:
        with suppress(StoreError):
            stores.close()
    if worker_redis.cache_info().currsize:
        worker_redis().close()
        worker_redis.cache_clear()
