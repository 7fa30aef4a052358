"""The stores and the Redis client of one worker process, opened once.

The stores are the ones ``eywa.runtime.open_worker_stores`` opens for the settings: the graph
(Neo4j when ``EYWA_NEO4J_URI`` is set, else the embedded SQLite database under
``EYWA_DATA_DIR``, WAL mode: safe next to the API process), plus the vector store and the
embedder when several processes can write the vectors (a Qdrant server): then the workers
embed new turns and beliefs and the API embeds only queries. Otherwise the vectors stay with
the API process, which embeds from the stage ledger's marks.

Prefork children must not inherit an open SQLite handle or a Neo4j driver from the parent,
so stores are opened lazily on a child's first task and closed on its shutdown
(``workers.signals``).
"""

from __future__ import annotations

import logging
import threading
from functools import lru_cache

import redis

from eywa.errors import ConfigurationError, StoreError
from eywa.embedding import Embedder
from eywa.runtime import WorkerStores, load_settings, open_worker_stores
from eywa.settings import EywaSettings
from eywa.stores.bundle import GraphStores, Stores

__all__ = ["close_worker_resources", "worker_embedding", "worker_redis", "worker_settings", "worker_stores"]

log = logging.getLogger(__name__)

_lock = threading.Lock()
_stores: WorkerStores | None = None


@lru_cache(maxsize=1)
def worker_settings() -> EywaSettings:
    """Settings of this worker process, read once (at the first task, not at import).

    Raises:
        ConfigurationError: an ``EYWA_*`` value does not validate.
    """
    return load_settings()


def _opened() -> WorkerStores:
    global _stores
    with _lock:
        if _stores is None:
            _stores = open_worker_stores(worker_settings())
        return _stores


def worker_stores() -> GraphStores:
    """This process's graph stores, opened on first use.

    Raises:
        ConfigurationError, StoreError: as ``eywa.runtime.open_worker_stores``.
    """
    return _opened().graph


def worker_embedding() -> tuple[Stores, Embedder] | None:
    """The vector stores and embedder of this process when it embeds, else None.

    Raises:
        ConfigurationError, StoreError: as ``eywa.runtime.open_worker_stores``.
    """
    opened = _opened()
    if opened.vectors is None or opened.embedder is None:
        return None
    return opened.vectors, opened.embedder


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
        try:
            stores.close()
        except StoreError as failed:  # the process is ending: said, not raised (nothing acknowledged is lost)
            log.warning("worker stores closed without their last flush: %s", failed)
    if worker_redis.cache_info().currsize:
        worker_redis().close()
        worker_redis.cache_clear()
