"""What a Celery worker process opens: the graph stores, and the vectors when it can share them.

Workers run Level 1 and Nous on the graph stores (SQLite in WAL mode and Neo4j both accept
several processes). They embed too — the costly part of the write path — when the vector
store is one that several processes can write: a Qdrant server (``EYWA_QDRANT_URL``) in server
mode. The embedded Qdrant Edge shard and qdrant-client's local mode belong to the one process
that opened them (the API, which serves reads from them), so with those the API embeds and
the workers do not. ``vectors_shared`` is that one decision; the API asks it to know whether
to leave embedding to the workers, the workers to know whether to embed.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING

from eywa.errors import StoreError
from eywa.runtime.backends import backend_of, open_graph_stores
from eywa.settings import EywaSettings
from eywa.stores.bundle import GraphStores, Stores

if TYPE_CHECKING:
    from eywa.embedding import Embedder

__all__ = ["WorkerStores", "open_worker_stores", "vectors_shared", "workers_embed"]


def vectors_shared(settings: EywaSettings) -> bool:
    """Whether processes other than the one serving reads can write the vector store of
    ``settings``: server mode with a Qdrant server (``EYWA_QDRANT_URL``)."""
    return backend_of(settings) == "server" and bool(settings.qdrant_url)


def workers_embed(settings: EywaSettings) -> bool:
    """Whether the API of ``settings`` leaves embedding to the Celery workers: the Celery
    runner over a vector store the workers can write (``vectors_shared``)."""
    return settings.job_runner == "celery" and vectors_shared(settings)


@dataclass(frozen=True)
class WorkerStores:
    """One worker process's stores: ``graph`` always; ``vectors`` and ``embedder`` together
    when this worker embeds (``vectors_shared``), else both None."""

    graph: GraphStores
    vectors: Stores | None = None
    embedder: Embedder | None = None

    def close(self) -> None:
        """Close what was opened (the vector bundle holds the graph stores too).

        Raises:
            StoreError: a store failed to close.
        """
        (self.vectors or self.graph).close()


def open_worker_stores(settings: EywaSettings) -> WorkerStores:
    """The stores a worker needs for ``settings``: the whole server bundle and the embedder
    the settings name when the vectors are shared, else the graph stores alone.

    Raises:
        ConfigurationError: as ``open_graph_stores`` (no usable ``EYWA_NEO4J_URI``, no
            embedded store yet).
        StoreError: a store cannot be opened or reached.
    """
    if not vectors_shared(settings):
        return WorkerStores(graph=open_graph_stores(settings))
    from eywa.embedding import build_embedder, embedder_id
    from eywa.stores.server import open_server

    embedder = build_embedder(settings)
    stores = open_server(settings, embedder.dim, embedder_id(embedder))
    try:
        return WorkerStores(graph=stores, vectors=stores, embedder=embedder)
    except BaseException:
        with suppress(StoreError):
            stores.close()
        raise
