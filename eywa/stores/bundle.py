"""The bundle of stores one Memory uses, passed explicitly (never module-level clients)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Protocol

from eywa.contract import SpaceQuota
from eywa.embedding.cache import WindowCache
from eywa.models import Entity, Evidence
from eywa.stores.access import AccessLog
from eywa.stores.audit import AuditQueries
from eywa.stores.backup import BackupReport
from eywa.stores.beliefs import BeliefStore
from eywa.stores.corrections import CorrectionLog
from eywa.stores.dimensions import DimensionStore
from eywa.stores.entity_graph import EntityGraph
from eywa.stores.erasure import ErasureStore
from eywa.stores.evidence import EvidenceStore, KeywordIndex
from eywa.stores.ledger import JobRecords, StageLedger, Tombstones
from eywa.stores.spaces import SpaceCatalog
from eywa.stores.vectors import VectorCompactor, VectorIndexer, VectorStore


Batch = tuple[Sequence[Evidence], Sequence[tuple[str, Entity]]]
"""A Level 0 batch as ``EvidenceStore.add`` takes it: the turns and the entities they mention."""


def _nothing_to_check() -> None:
    """``Stores.present`` of a backend whose stores report their own failures (the servers)."""


class RehearseAdds(Protocol):
    """``GraphStores.rehearse_adds``: ``evidence.add``'s statements on ``batches``, with
    ``quota`` checked as ``add`` checks it, rolled back."""

    def __call__(self, batches: Sequence[Batch], quota: SpaceQuota | None = None) -> None: ...


@dataclass(frozen=True)
class GraphStores:
    """The graph stores alone: what Level 1 and Nous need (no vectors), and a worker opens.

    SQLite in WAL mode and Neo4j both accept several processes, so workers open these next
    to the process that serves reads and holds the vector store.
    """

    backend: str
    evidence: EvidenceStore
    beliefs: BeliefStore
    dimensions: DimensionStore
    audit: AuditQueries
    access: AccessLog
    ledger: StageLedger
    jobs: JobRecords
    tombstones: Tombstones
    erasure: ErasureStore
    corrections: CorrectionLog
    catalog: SpaceCatalog
    """Counts of many spaces in one read (the list of spaces)."""
    close: Callable[[], None]
    rehearse_adds: RehearseAdds | None = field(default=None, kw_only=True)
    """Run ``evidence.add``'s statements on batches (with its quota check when given a
    quota), one after the other in one transaction that is rolled back (nothing is stored):
    the warm-up (``eywa.warm_up``) of a backend that plans its statements, Neo4j. None: the
    backend has nothing to warm (the embedded store's SQLite statements plan in
    microseconds)."""


@dataclass(frozen=True)
class Stores(GraphStores):
    """Every store of one backend: the graph stores plus what the read path searches.

    ``read_concurrency`` is how many retrieval routes the backend serves well at once: a
    server's connection pool takes several queries in parallel, while the embedded store
    serialises them on one SQLite connection (1: the reader runs routes one by one).
    """

    keyword: KeywordIndex
    vectors: VectorStore
    graph: EntityGraph
    read_concurrency: int
    backup: Callable[[Path, datetime], BackupReport] | None = None
    """An online backup of the store into a directory (embedded only; None: the backend has
    none of its own — Neo4j is backed up with its own tools)."""
    indexer: VectorIndexer | None = None
    """The explicit HNSW build of the vector shards (embedded only; None: a Qdrant server
    indexes its collections in the background)."""
    compactor: VectorCompactor | None = None
    """The rewrite of a vector shard without its deleted points' bytes, run by an erasure
    (embedded only; None: the backend's vector files are out of Eywa's reach)."""
    present: Callable[[], None] = field(default=_nothing_to_check, kw_only=True)
    """Raise ``StoreError`` when the files the stores opened are no longer the ones on disk
    (the embedded directory, or a vector shard, deleted or replaced under the process:
    ``eywa.stores.embedded.presence``), so that a call is refused instead of written into
    unlinked files; run before every public call of ``Memory`` (a few ``stat`` calls). A
    server backend reports its own failures: nothing to check."""
    read_snapshot: Callable[[], AbstractContextManager[None]] = field(default=nullcontext, kw_only=True)
    """One committed state for a recall's reads, made in the calling thread (the embedded
    store: one SQLite read transaction, ``SqliteDatabase.read_snapshot``); a server backend
    has none of its own (each query is a round trip on a pooled session): nothing."""
    windows: WindowCache = field(default_factory=WindowCache, kw_only=True)
    """The window embeddings of recent turns, kept beside the vectors (``eywa.embedding.
    cache``): a turn re-embedded when its reply arrives reuses the window embedded when it
    arrived. One per bundle, in this process's memory; cleared by an erasure."""
