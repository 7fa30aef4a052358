"""The runtime: how every entry point opens Eywa from settings.

The CLI, the benchmarks, the HTTP API, the MCP server and the workers all start here, and
nothing else decides between the embedded store and the servers:

- ``load_settings`` reads ``EYWA_*`` (a bad value is a ``ConfigurationError``);
- ``open_memory`` gives the ``Memory`` the settings name: on Neo4j (+ Qdrant) when
  ``EYWA_NEO4J_URI`` is set, else embedded in ``EYWA_DATA_DIR`` (``--data-dir``);
- ``open_graph_stores`` gives the graph stores alone, for audits;
- ``open_worker_stores`` gives a Celery worker its stores: the graph, plus the vectors and
  the embedder when the vector store is shared (``vectors_shared``, ``workers_embed``);
- ``open_key_store`` gives the API key store.

``eywa.runtime.commands`` holds what every entry point's commands share (the CLI error
boundary, consoles, common options) and ``eywa.runtime.ingest`` feeds turn files to a
memory; they are imported by command modules only, so a server process never loads them.
"""

from eywa.runtime.backends import (
    KEYS_FILE,
    Backend,
    backend_of,
    describe,
    open_graph_stores,
    open_key_store,
    open_memory,
)
from eywa.runtime.workers import WorkerStores, open_worker_stores, vectors_shared, workers_embed
from eywa.settings import load_settings

__all__ = [
    "KEYS_FILE",
    "Backend",
    "WorkerStores",
    "backend_of",
    "describe",
    "load_settings",
    "open_graph_stores",
    "open_key_store",
    "open_memory",
    "open_worker_stores",
    "vectors_shared",
    "workers_embed",
]
