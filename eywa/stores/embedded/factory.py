"""Opening the embedded default under one directory."""

from __future__ import annotations

import logging
from contextlib import suppress
from pathlib import Path
from typing import Literal

from eywa.errors import StoreError
from eywa.models import utc_now
from eywa.stores.bundle import GraphStores, Stores
from eywa.stores.embedded.access import SqliteAccessLog
from eywa.stores.embedded.audit_queries import SqliteAuditQueries
from eywa.stores.embedded.backup import backup_directory, refuse_unfinished
from eywa.stores.embedded.beliefs import SqliteBeliefStore
from eywa.stores.embedded.corrections import SqliteCorrectionLog
from eywa.stores.embedded.database import SqliteDatabase
from eywa.stores.embedded.dimensions import SqliteDimensionStore
from eywa.stores.embedded.entity_graph import SqliteEntityGraph
from eywa.stores.embedded.erasure import SqliteErasureStore
from eywa.stores.embedded.evidence import SqliteEvidenceStore
from eywa.stores.embedded.belief_index import BeliefBm25
from eywa.stores.embedded.bm25_index import Bm25Index
from eywa.stores.embedded.keyword import EVIDENCE_WEIGHTS, SqliteKeywordIndex
from eywa.stores.embedded.lock import DirectoryLock
from eywa.stores.embedded.lost_vectors import mark_lost_vectors
from eywa.stores.embedded.ledger import SqliteJobRecords, SqliteStageLedger, SqliteTombstones
from eywa.stores.embedded.migrations import migrate
from eywa.stores.embedded.presence import DirectoryWatch
from eywa.stores.embedded.spaces import SqliteSpaceCatalog
from eywa.stores.embedded.vectors import QdrantEdgeVectorStore

DATABASE_FILE = "eywa.sqlite3"
VECTORS_DIR = "vectors"

log = logging.getLogger(__name__)


def open_embedded(
    directory: Path,
    dim: int,
    embedder_id: str | None = None,
    *,
    erasure_secret: bytes | None = None,
    keyword_index: Literal["memory", "fts5"] = "memory",
) -> Stores:
    """Create or open the embedded stores in ``directory`` (created if missing).

    The directory's lock is taken first (``lock``: one writer process per directory). A
    database written by an earlier version is migrated first (``migrations``).
    ``embedder_id`` stamps every vector written and restricts searches to vectors with that
    stamp (None: no stamp, no restriction). ``keyword_index`` "memory" ranks evidence keyword
    searches from an in-memory copy of ``evidence_fts`` (``bm25_index``), built in the background.

    Raises:
        DirectoryInUseError: another process (or open memory) holds the directory.
        ConfigurationError: the directory is a backup that did not finish
            (``backup.refuse_unfinished``).
        StoreError: when the directory cannot be created, a store cannot open or a
            migration fails.
    """
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError("embedded", "open", f"cannot create {directory}: {exc}") from exc
    refuse_unfinished(directory)  # before the lock: a refused open leaves no file behind
    lock = DirectoryLock(directory)
    lock.acquire()
    try:
        db = SqliteDatabase(directory / DATABASE_FILE)
    except BaseException:
        lock.release()
        raise
    try:
        evidence = SqliteEvidenceStore(db)
        beliefs = SqliteBeliefStore(db)
        dimensions = SqliteDimensionStore(db)
        ledger, jobs, tombstones = SqliteStageLedger(db), SqliteJobRecords(db), SqliteTombstones(db)
        graph = SqliteEntityGraph(db)
        _migrate_or_close(db)
        audit = SqliteAuditQueries(db)
        access = SqliteAccessLog(db)
        vectors = QdrantEdgeVectorStore(directory / VECTORS_DIR, dim, embedder_id=embedder_id)
    except BaseException:
        try:
            with suppress(StoreError):  # the failure being raised names the cause; the close's would hide it
                db.close()
        finally:
            lock.release()
        raise
    try:
        _heal_lost_vectors(directory, db, vectors)
    except BaseException:
        try:
            vectors.close()
        finally:
            db.close()
            lock.release()
        raise

    memory_index = Bm25Index(db, EVIDENCE_WEIGHTS) if keyword_index == "memory" else None
    belief_index = BeliefBm25(db) if keyword_index == "memory" else None

    def close() -> None:
        # Every step runs whatever failed before it (a full disk fails the shards' flush and
        # the WAL checkpoint): the files are closed and the lock released, then the failures
        # are reported together, each saying what was not flushed.
        failed: list[StoreError] = []
        try:
            if memory_index is not None:  # first: its threads read the database file
                memory_index.close()
            if belief_index is not None:
                belief_index.close()
            for step in (vectors.close, db.close):
                try:
                    step()
                except StoreError as exc:
                    failed.append(exc)
        finally:
            lock.release()
        if len(failed) == 1:
            raise failed[0]
        if failed:
            raise StoreError("embedded", "close", "; ".join(str(exc) for exc in failed)) from failed[0]

    return Stores(
        backend="embedded",
        evidence=evidence,
        keyword=SqliteKeywordIndex(db, memory_index, belief_index),
        vectors=vectors,
        graph=graph,
        # A recall's routes run one by one: in parallel threads (each reading through its own
        # connection) they contended for the GIL, 10k turns: wall p50 16.3 -> 19.0 ms.
        read_concurrency=1,
        beliefs=beliefs,
        dimensions=dimensions,
        audit=audit,
        access=access,
        ledger=ledger,
        jobs=jobs,
        tombstones=tombstones,
        erasure=SqliteErasureStore(db, erasure_secret, [c for c in (memory_index, belief_index) if c is not None]),
        corrections=SqliteCorrectionLog(db),
        catalog=SqliteSpaceCatalog(db),
        close=close,
        backup=lambda dest, at: backup_directory(directory, dest, at, database=DATABASE_FILE),
        indexer=vectors,
        compactor=vectors,
        present=DirectoryWatch(directory, DATABASE_FILE, shards=vectors.lost_shard).check,
        read_snapshot=db.read_snapshot,
    )


def _heal_lost_vectors(directory: Path, db: SqliteDatabase, vectors: QdrantEdgeVectorStore) -> None:
    """Mark for embedding what the vector shards lost behind the ledger's back, with one
    warning naming the directory and the counts (``lost_vectors``); a ``vectors/`` missing
    beside the database was just created empty, and is rebuilt this way too.

    Raises:
        StoreError: SQLite or Qdrant Edge failed.
    """
    shortfalls = mark_lost_vectors(db, vectors, utc_now())
    if shortfalls:
        log.warning(
            "vector store %s holds fewer points than the ledger counts as embedded (%s); "
            "marked for embedding again, which the memory does in the background (eywa reconcile waits for it)",
            directory / VECTORS_DIR,
            "; ".join(f"{s.kind}: {s.points} points of {s.expected}, {s.marked} marked" for s in shortfalls),
        )


def open_embedded_graph(directory: Path, *, erasure_secret: bytes | None = None) -> GraphStores:
    """Open only the SQLite graph stores of an existing embedded directory (for workers).

    Raises:
        ConfigurationError: the directory is a backup that did not finish.
        StoreError: when the database cannot be opened or migrated.
    """
    refuse_unfinished(directory)
    db = SqliteDatabase(directory / DATABASE_FILE)
    try:
        stores = GraphStores(
            backend="embedded",
            evidence=SqliteEvidenceStore(db),
            beliefs=SqliteBeliefStore(db),
            dimensions=SqliteDimensionStore(db),
            audit=SqliteAuditQueries(db),
            access=SqliteAccessLog(db),
            ledger=SqliteStageLedger(db),
            jobs=SqliteJobRecords(db),
            tombstones=SqliteTombstones(db),
            erasure=SqliteErasureStore(db, erasure_secret),
            corrections=SqliteCorrectionLog(db),
            catalog=SqliteSpaceCatalog(db),
            close=db.close,
        )
    except BaseException:  # a store's schema could not be written (a read-only database)
        with suppress(StoreError):
            db.close()
        raise
    _migrate_or_close(db)
    return stores


def _migrate_or_close(db: SqliteDatabase) -> None:
    """Bring the database to this version's format (``migrations``); close it on failure."""
    try:
        migrate(db)
    except StoreError:
        db.close()
        raise
