"""The one place that chooses a backend from settings and opens it.

Server mode is on when ``EYWA_NEO4J_URI`` is set: the graph and keyword index live in Neo4j,
vectors in Qdrant (``EYWA_QDRANT_URL``, else qdrant-client's local mode at
``EYWA_QDRANT_PATH`` or ``<data_dir>/qdrant-local``). Otherwise the embedded default lives in
``EYWA_DATA_DIR``. API keys live in Neo4j in server mode (so API replicas share them), and
in ``EYWA_API_KEYS_PATH``, else ``<data_dir>/keys.sqlite``, in embedded mode.

The store factories below this module (``eywa.stores.embedded.factory``,
``eywa.stores.server``) read only the connection values of the backend they are asked for;
``Memory.open`` and ``Memory.connect`` are thin calls into them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

from eywa.errors import ConfigurationError, InvalidInputError
from eywa.settings import EywaSettings
from eywa.stores.bundle import GraphStores
from eywa.stores.keys import KeyStore

if TYPE_CHECKING:
    from eywa.embedding import Embedder
    from eywa.extraction.base import Extractor
    from eywa.memory import Memory

__all__ = [
    "KEYS_FILE", "Backend", "backend_of", "describe", "key_file_path", "open_graph_stores", "open_key_store", "open_memory",
    "require_embedded_store",
]  # fmt: skip

Backend = Literal["embedded", "server"]
KEYS_FILE = "keys.sqlite"


def backend_of(settings: EywaSettings) -> Backend:
    """``"server"`` when ``EYWA_NEO4J_URI`` is set, else ``"embedded"``."""
    return "server" if settings.neo4j_uri else "embedded"


def describe(settings: EywaSettings, backend: Backend | None = None) -> str:
    """Where the memory of ``settings`` lives, for messages ("ingested into …")."""
    if (backend or backend_of(settings)) == "server":
        return f"Neo4j at {settings.neo4j_uri} (database {settings.neo4j_database})"
    return str(settings.data_dir)


def open_memory(
    settings: EywaSettings,
    *,
    backend: Backend | None = None,
    embedder: Embedder | None = None,
    extractor: Extractor | None = None,
    must_exist: bool = False,
    embed_writes: bool = True,
) -> Memory:
    """The ``Memory`` the settings name (``backend`` overrides the choice, for benchmarks).

    ``must_exist`` refuses an embedded directory that is missing or holds no store instead of
    creating an empty memory there, which is what commands on an existing memory want: a typo
    in ``--data-dir`` (``.``, ``~``) should not look like an empty but valid memory, nor leave
    a store in that directory. ``extractor`` None lets the settings choose one.
    ``embed_writes=False`` leaves the vectors of new turns and beliefs to the workers
    (``eywa.runtime.workers_embed``).

    Example:
        >>> with open_memory(load_settings()) as mem:  # doctest: +SKIP
        ...     mem.recall("alice", "Where does Alice live?")

    Raises:
        InvalidInputError: ``must_exist`` and the embedded directory does not exist or holds
            no store.
        ConfigurationError: server mode without a usable ``EYWA_NEO4J_URI``.
        StoreError: a store cannot be opened or reached.
    """
    from eywa.memory import Memory  # deferred: the embedder stack is slow to import, --help is not

    if (backend or backend_of(settings)) == "server":
        return Memory.connect(settings, embedder=embedder, extractor=extractor, embed_writes=embed_writes)
    if must_exist:
        require_embedded_store(settings.data_dir)
    return Memory.open(
        settings.data_dir, settings=settings, embedder=embedder, extractor=extractor, embed_writes=embed_writes
    )


def require_embedded_store(directory: Path) -> None:
    """Refuse ``directory`` unless it holds an embedded store: the commands on an existing
    memory (``open_memory(must_exist=True)``) and ``eywa backup``. A typo in ``--data-dir``
    (``.``, ``~``) must not look like an empty but valid memory, nor leave a store there.

    Raises:
        InvalidInputError: the directory does not exist, or holds no store.
    """
    from eywa.stores.embedded.factory import DATABASE_FILE

    if not directory.is_dir():
        raise InvalidInputError(f"no memory at {directory} (use --data-dir or EYWA_DATA_DIR)")
    if not (directory / DATABASE_FILE).is_file():  # an existing directory is not yet a memory
        raise InvalidInputError(f"no memory at {directory}: no embedded store there (use --data-dir or EYWA_DATA_DIR)")


def open_graph_stores(settings: EywaSettings, *, backend: Backend | None = None) -> GraphStores:
    """The graph stores alone (no vectors): what workers and store audits need.

    Raises:
        ConfigurationError: server mode without a usable ``EYWA_NEO4J_URI``, or no embedded
            store in ``EYWA_DATA_DIR`` yet (the process serving reads creates it).
        StoreError: a store cannot be opened or reached.
    """
    if (backend or backend_of(settings)) == "server":
        from eywa.stores.server import open_server_graph

        return open_server_graph(settings)
    from eywa.stores.embedded.factory import DATABASE_FILE, open_embedded_graph

    if not (settings.data_dir / DATABASE_FILE).is_file():
        raise ConfigurationError(f"no memory at {settings.data_dir}: no embedded store there (use --data-dir or EYWA_DATA_DIR)")
    secret = settings.erasure_secret.get_secret_value().encode() if settings.erasure_secret else None
    return open_embedded_graph(settings.data_dir, erasure_secret=secret)


def key_file_path(settings: EywaSettings) -> Path:
    """The embedded key file: ``EYWA_API_KEYS_PATH``, else ``<data_dir>/keys.sqlite``."""
    return settings.api_keys_path or settings.data_dir / KEYS_FILE


def open_key_store(settings: EywaSettings, *, backend: Backend | None = None) -> KeyStore:
    """The API key store: Neo4j in server mode, else ``EYWA_API_KEYS_PATH`` or
    ``<data_dir>/keys.sqlite``.

    Raises:
        ConfigurationError: server mode without a usable ``EYWA_NEO4J_URI``.
        StoreError: the key file or Neo4j cannot be opened or reached.
    """
    if (backend or backend_of(settings)) == "server":
        from eywa.stores.server import open_server_keys

        return open_server_keys(settings)
    from eywa.stores.embedded.keys import SqliteKeyStore

    return SqliteKeyStore(key_file_path(settings))
