"""Opening the server backends: Neo4j for the graph and keyword index, Qdrant for vectors.

Where vectors go, in order: ``EYWA_QDRANT_URL`` (a Qdrant server, with
``EYWA_QDRANT_API_KEY``), else ``EYWA_QDRANT_PATH`` (qdrant-client's local mode at that
path), else local mode under ``<data_dir>/qdrant-local``. Local mode lets a whole server-mode
``Memory`` run where no Qdrant server can (the development machines, the tests); it
searches by brute force, so deployments set ``EYWA_QDRANT_URL``.
"""

from __future__ import annotations

import logging
from contextlib import suppress
from urllib.parse import urlsplit

from neo4j import Driver, GraphDatabase
from neo4j.exceptions import ConfigurationError as DriverConfigurationError
from neo4j.exceptions import DriverError, Neo4jError
from qdrant_client import QdrantClient

from eywa.errors import ConfigurationError, EywaError, StoreError
from eywa.models import utc_now
from eywa.settings import EywaSettings
from eywa.stores.bundle import GraphStores, Stores
from eywa.stores.neo4j.access import Neo4jAccessLog
from eywa.stores.neo4j.audit_queries import Neo4jAuditQueries
from eywa.stores.neo4j.beliefs import Neo4jBeliefStore
from eywa.stores.neo4j.dimensions import Neo4jDimensionStore
from eywa.stores.neo4j.entity_graph import Neo4jEntityGraph
from eywa.stores.neo4j.corrections import Neo4jCorrectionLog
from eywa.stores.neo4j.erasure import Neo4jErasureStore
from eywa.stores.neo4j.evidence import Neo4jEvidenceStore
from eywa.stores.neo4j.graph import Neo4jGraph
from eywa.stores.neo4j.keys import Neo4jKeyStore
from eywa.stores.neo4j.keyword import Neo4jKeywordIndex
from eywa.stores.neo4j.ledger import Neo4jJobRecords, Neo4jStageLedger, Neo4jTombstones
from eywa.stores.neo4j.lost_vectors import mark_lost_vectors
from eywa.stores.neo4j.migrations import apply_migrations
from eywa.stores.neo4j.spaces import Neo4jSpaceCatalog
from eywa.stores.qdrant.local import LocalModeVectorStore
from eywa.stores.qdrant.vectors import QdrantServerVectorStore

log = logging.getLogger(__name__)

LOCAL_QDRANT_DIR = "qdrant-local"
NEO4J_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
"""The URI schemes of the Bolt protocol the stores speak. The driver also takes ``http`` and
``https`` (its preview HTTP query API, whose extra is not installed: it failed with a
``ModuleNotFoundError`` for ``aiohttp``), which has no sessions or managed transactions."""


def _check_neo4j_uri(uri: str) -> None:
    """Refuse a URI the Bolt driver would misread before it is given one.

    Raises:
        ConfigurationError: a scheme other than :data:`NEO4J_SCHEMES`, or a port that is not
            a number from 1 to 65535 (the driver took ``:99999`` as port 34463, and
            ``:abc`` failed with a bare ``ValueError`` at connection time).
    """
    try:
        parts = urlsplit(uri)
        port = parts.port
    except ValueError as exc:  # a malformed host or port ("[::1", ":abc", ":99999")
        raise ConfigurationError(f"EYWA_NEO4J_URI {uri!r}: {exc}") from None
    if parts.scheme.lower() not in NEO4J_SCHEMES:
        raise ConfigurationError(
            f"EYWA_NEO4J_URI {uri!r}: the scheme must be one of {', '.join(NEO4J_SCHEMES)} "
            "(e.g. bolt://localhost:7687)"
        )
    if port == 0:
        raise ConfigurationError(f"EYWA_NEO4J_URI {uri!r}: port 0 is no port")


def connect_neo4j(settings: EywaSettings) -> Driver:
    """A verified driver for ``EYWA_NEO4J_URI`` with ``EYWA_NEO4J_USER``/``PASSWORD``.

    Raises:
        ConfigurationError: ``neo4j_uri`` is not set, or the URI is malformed (see
            :func:`_check_neo4j_uri`).
        StoreError: the server cannot be reached or refuses the credentials.
    """
    if not settings.neo4j_uri:
        raise ConfigurationError("server mode needs EYWA_NEO4J_URI (e.g. bolt://localhost:7687)")
    _check_neo4j_uri(settings.neo4j_uri)
    password = settings.neo4j_password.get_secret_value() if settings.neo4j_password else ""
    try:
        driver = GraphDatabase.driver(
            settings.neo4j_uri,
            auth=(settings.neo4j_user, password),
            max_connection_pool_size=settings.neo4j_pool_size,
            max_transaction_retry_time=settings.neo4j_retry_s,
            connection_timeout=settings.neo4j_connect_timeout_s,
            connection_acquisition_timeout=settings.neo4j_acquire_timeout_s,
            liveness_check_timeout=settings.neo4j_liveness_check_s,
        )
    except (ValueError, DriverConfigurationError) as exc:  # a malformed URI, an unknown scheme
        raise ConfigurationError(f"EYWA_NEO4J_URI {settings.neo4j_uri!r}: {exc}") from exc
    try:
        driver.verify_connectivity()
    except (Neo4jError, DriverError, OSError) as exc:
        driver.close()
        raise StoreError("neo4j", "connect", f"{settings.neo4j_uri}: {exc}") from exc
    return driver


def connect_qdrant(settings: EywaSettings) -> QdrantClient:
    """A Qdrant client: the server at ``qdrant_url``, else local mode (see module docstring).

    Raises:
        ConfigurationError: ``qdrant_url`` is malformed (an unknown scheme, a port that is no
            number from 0 to 65535, a broken IPv6 host): qdrant-client raised its
            ``ValueError`` or urllib3's ``LocationParseError`` while building the client,
            which ended every entry point in a traceback.
        StoreError: the local-mode folder cannot be created or is used by another process.
    """
    if settings.qdrant_url:
        key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
        try:
            return QdrantClient(url=settings.qdrant_url, api_key=key)
        except ValueError as exc:  # LocationParseError is one
            raise ConfigurationError(f"EYWA_QDRANT_URL {settings.qdrant_url!r}: {exc}") from None
    path = settings.qdrant_path or settings.data_dir / LOCAL_QDRANT_DIR
    try:
        path.mkdir(parents=True, exist_ok=True)
        return QdrantClient(path=str(path))
    except (OSError, RuntimeError) as exc:  # RuntimeError: folder locked by another client
        raise StoreError("qdrant", "open", f"local mode at {path}: {exc}") from exc


def _open_graph(settings: EywaSettings) -> Neo4jGraph:
    """A Neo4j graph with every pending migration applied; closed again if one fails.

    Raises:
        ConfigurationError: ``EYWA_NEO4J_URI`` is missing or malformed.
        StoreError: Neo4j cannot be reached or a migration fails.
    """
    driver = connect_neo4j(settings)
    graph = Neo4jGraph(
        driver,
        settings.neo4j_database,
        retry_s=settings.neo4j_retry_s,
        transaction_timeout_s=settings.neo4j_transaction_timeout_s,
    )
    try:
        apply_migrations(driver, settings.neo4j_database)
    except EywaError:
        with suppress(StoreError):  # the migration failure is the error worth reporting
            graph.close()
        raise
    return graph


def open_server_graph(settings: EywaSettings) -> GraphStores:
    """The Neo4j graph stores alone (migrations applied), without a vector store: what a
    worker process needs (vectors stay with the process serving reads).

    Raises:
        ConfigurationError: ``EYWA_NEO4J_URI`` is missing or malformed.
        StoreError: Neo4j cannot be reached or a migration fails.
    """
    graph = _open_graph(settings)
    evidence = Neo4jEvidenceStore(graph)
    return GraphStores(
        backend="server",
        evidence=evidence,
        beliefs=Neo4jBeliefStore(graph),
        dimensions=Neo4jDimensionStore(graph),
        audit=Neo4jAuditQueries(graph),
        access=Neo4jAccessLog(graph),
        ledger=Neo4jStageLedger(graph),
        jobs=Neo4jJobRecords(graph),
        tombstones=Neo4jTombstones(graph),
        erasure=Neo4jErasureStore(graph, _erasure_secret(settings)),
        corrections=Neo4jCorrectionLog(graph),
        catalog=Neo4jSpaceCatalog(graph),
        close=graph.close,
        rehearse_adds=evidence.rehearse_adds,
    )


def open_server_keys(settings: EywaSettings) -> Neo4jKeyStore:
    """The API key store in Neo4j (migrations applied), on its own driver: every API
    replica over the same database shares its keys.

    Raises:
        ConfigurationError: ``EYWA_NEO4J_URI`` is missing or malformed.
        StoreError: Neo4j cannot be reached or a migration fails.
    """
    return Neo4jKeyStore(_open_graph(settings))


def open_server(settings: EywaSettings, dim: int, embedder_id: str | None = None) -> Stores:
    """Connect to Neo4j (applying pending migrations) and Qdrant; bundle the stores.

    ``embedder_id`` stamps every vector written and restricts searches to that stamp.

    Example:
        >>> settings = EywaSettings(neo4j_uri="bolt://localhost:7687")  # doctest: +SKIP
        >>> stores = open_server(settings, dim=384)  # doctest: +SKIP

    Raises:
        ConfigurationError: ``EYWA_NEO4J_URI`` is missing or malformed.
        StoreError: a server cannot be reached, a migration fails, or a vector collection
            exists with another width.
    """
    graph = _open_graph(settings)
    erasure = Neo4jErasureStore(graph, _erasure_secret(settings))
    try:
        client = connect_qdrant(settings)
        try:
            vectors = (
                QdrantServerVectorStore(client, dim, embedder_id=embedder_id) if settings.qdrant_url
                else LocalModeVectorStore(  # a folder of this process's own: sweep others' erasures
                    client, dim, done_since=erasure.done_elsewhere_since, interval_s=settings.reconcile_interval_s,
                    embedder_id=embedder_id,
                )
            )  # fmt: skip
        except EywaError:
            client.close()
            raise
        try:
            if settings.qdrant_count_check == "on" or (settings.qdrant_count_check == "auto" and settings.qdrant_url):
                _heal_lost_vectors(settings, graph, vectors)
        except EywaError:
            vectors.close()
            raise
    except EywaError:
        with suppress(StoreError):  # the open failure is the error worth reporting
            graph.close()
        raise

    def close() -> None:
        try:
            vectors.close()
        finally:
            graph.close()

    evidence = Neo4jEvidenceStore(graph)
    return Stores(
        backend="server",
        evidence=evidence,
        keyword=Neo4jKeywordIndex(graph),
        vectors=vectors,
        graph=Neo4jEntityGraph(graph),
        read_concurrency=min(settings.read_concurrency, settings.neo4j_pool_size),
        beliefs=Neo4jBeliefStore(graph),
        dimensions=Neo4jDimensionStore(graph),
        audit=Neo4jAuditQueries(graph),
        access=Neo4jAccessLog(graph),
        ledger=Neo4jStageLedger(graph),
        jobs=Neo4jJobRecords(graph),
        tombstones=Neo4jTombstones(graph),
        erasure=erasure,
        corrections=Neo4jCorrectionLog(graph),
        catalog=Neo4jSpaceCatalog(graph),
        close=close,
        rehearse_adds=evidence.rehearse_adds,
    )


def _heal_lost_vectors(settings: EywaSettings, graph: Neo4jGraph, vectors: QdrantServerVectorStore) -> None:
    """Mark for embedding what the Qdrant collections lost behind the ledger's back, with one
    warning naming where the vectors are and the counts (``neo4j.lost_vectors``).

    Raises:
        StoreError: Neo4j or Qdrant failed.
    """
    shortfalls = mark_lost_vectors(graph, vectors, utc_now())
    if shortfalls:
        where = settings.qdrant_url or str(settings.qdrant_path or settings.data_dir / LOCAL_QDRANT_DIR)
        log.warning(
            "Qdrant at %s holds fewer points than the ledger counts as embedded (%s); marked for embedding "
            "again, which the reconciler does (eywa reconcile, the API's pass, the workers)",
            where, "; ".join(f"{s.kind}: {s.points} points of {s.expected}, {s.marked} marked" for s in shortfalls),
        )  # fmt: skip


def _erasure_secret(settings: EywaSettings) -> bytes | None:
    """The configured HMAC key of erasure records, if any (else the store keeps its own)."""
    return settings.erasure_secret.get_secret_value().encode() if settings.erasure_secret else None
