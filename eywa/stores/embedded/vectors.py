"""Vectors in-process: one Qdrant Edge shard per item kind, every point tagged with its space.

Qdrant Edge is Qdrant's own segment engine (HNSW, payload indexes, WAL) linked into the
process, so the embedded store searches with the same machinery as the Qdrant server
instead of a brute-force Python fallback.

Layout: ``<directory>/<kind>/`` holds the shard of ``kind`` (evidence, belief, entity).
Qdrant point ids must be integers or UUIDs while Eywa's ids are strings (``ev_…``), so a
point's id is ``uuid5`` of the domain id (deterministic: re-upserting replaces) and the
domain id travels in the payload as ``doc_id``. ``space`` has a tenant keyword index and
``at`` (epoch seconds) a float index, so filtered search stays selective; ``embedder`` (the
stamp of the embedder that made a point, ``eywa.stores.vector_points``) a keyword index.

Durability: an ``upsert`` is in the shard's write-ahead log when it returns, and a process
killed after that loses none of it (the next load replays the log; a test kills one). The
segments are flushed to disk at most every ``FLUSH_EVERY_S`` per shard and on close, not after
every upsert: qdrant_edge holds the GIL through a flush's fsync (tens of ms on a busy disk),
so a flush per upsert stalled every other thread of the process (an API's requests) that
often. Like SQLite's ``synchronous=NORMAL`` beside it, what the kernel had not written
when the machine itself lost power may be lost; a deletion (erasure) is still flushed at once.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path

import numpy as np
import numpy.typing as npt
import qdrant_edge as qe

from eywa.errors import EywaError, InvalidInputError, StoreError
from eywa.stores.vector_points import point_id as point_id  # re-exported: tests and callers use it
from eywa.stores.vector_points import kind_entry, point_payload, point_vector, query_vector, scored_ids
from eywa.stores.vectors import VECTOR_KINDS, VectorKind, VectorPoint

_BACKEND = "qdrant-edge"
_RESERVED = ("doc_id", "space", "at")
# Automatic index builds are off by default: building HNSW over 100k points took minutes
# on two cores and blocks the writer, while an unindexed segment prefiltered by the
# ``space`` index answers in ~4 ms at 100k points (10k in the space) with exact results.
_OPTIMIZE_AFTER = 0
FLUSH_EVERY_S = 5.0
"""The longest a shard's upserts stay in its write-ahead log only (see the module docstring)."""


@contextmanager
def _mapped(operation: str) -> Iterator[None]:
    """Translate qdrant_edge failures into ``StoreError`` at this boundary.

    qdrant_edge raises the builtin ``Exception`` for every failure (dimension errors,
    I/O, a closed shard), so that is the only class there is to catch; Eywa's own errors
    pass through untouched.

    Raises:
        StoreError: the driver failed; its exception is chained as ``__cause__``.
    """
    try:
        yield
    except EywaError:
        raise
    except Exception as exc:  # noqa: BLE001 - the driver's only exception type, re-raised
        raise StoreError(_BACKEND, operation, str(exc)) from exc


class QdrantEdgeVectorStore:
    """The embedded ``VectorStore``: cosine search filtered by space and optionally by time.

    Example:
        >>> store = QdrantEdgeVectorStore(Path("/tmp/eywa/vectors"), dim=384)  # doctest: +SKIP
        >>> store.search("evidence", "alice", query_vector, limit=5)  # doctest: +SKIP
        [('ev_…', 0.83), …]

    Args:
        directory: Parent folder; each kind's shard lives in ``directory/<kind>``.
        dim: Vector width. An existing shard of another width is refused.
        embedder_id: Stamp written on every point; searches see only points with it
            (None: no stamp, every point searched).
        optimize_after: Points written since the last index build that trigger one at the
            end of ``upsert``; 0 (the default) never builds one automatically.
        flush_every_s: An ``upsert`` flushes its shard when the last flush is older than
            this; 0 flushes after every upsert.

    Raises:
        StoreError: a shard cannot be created or loaded (including a width mismatch).
        InvalidInputError: ``dim`` is not positive.
    """

    def __init__(
        self,
        directory: Path,
        dim: int,
        *,
        embedder_id: str | None = None,
        optimize_after: int = _OPTIMIZE_AFTER,
        flush_every_s: float = FLUSH_EVERY_S,
    ) -> None:
        if dim < 1:
            raise InvalidInputError(f"vector dim must be positive, got {dim}")
        self._dim = dim
        self._embedder_id = embedder_id
        self._optimize_after = optimize_after
        self._flush_every_s = flush_every_s
        self._flushed_at: dict[VectorKind, float] = {kind: time.monotonic() for kind in VECTOR_KINDS}
        self._lock = threading.Lock()
        self._closed = False
        self._pending: dict[VectorKind, int] = {kind: 0 for kind in VECTOR_KINDS}
        self._shards: dict[VectorKind, qe.EdgeShard] = {}
        try:
            for kind in VECTOR_KINDS:
                self._shards[kind] = self._open(Path(directory) / kind)
        except StoreError:
            with suppress(StoreError):  # the open failure is the error worth reporting
                self._close_shards()
            raise

    def _open(self, path: Path) -> qe.EdgeShard:
        """Load the shard at ``path``, or create it with its payload indexes."""
        config = qe.EdgeConfig(
            vectors=qe.EdgeVectorParams(size=self._dim, distance=qe.Distance.Cosine)
        )
        with _mapped("open"):
            if path.is_dir() and any(path.iterdir()):
                shard = qe.EdgeShard.load(str(path), config)
                if self._embedder_id is not None:  # shards written before stamps existed
                    shard.update(qe.UpdateOperation.create_field_index("embedder", qe.KeywordIndexParams()))
                return shard
            shard = qe.EdgeShard.create(str(path), config)
            shard.update(
                qe.UpdateOperation.create_field_index(
                    "space", qe.KeywordIndexParams(is_tenant=True)
                )
            )
            shard.update(qe.UpdateOperation.create_field_index("at", qe.FloatIndexParams()))
            shard.update(qe.UpdateOperation.create_field_index("embedder", qe.KeywordIndexParams()))
            shard.flush()
            return shard

    def _shard(self, kind: VectorKind) -> qe.EdgeShard:
        """The open shard of ``kind``.

        Raises:
            ClosedError: the store was closed.
            InvalidInputError: ``kind`` is not a vector kind.
        """
        return kind_entry(self._shards, kind, closed=self._closed, store="QdrantEdgeVectorStore")

    def upsert(self, kind: VectorKind, points: Sequence[VectorPoint]) -> None:
        """Insert or replace points; in the shard's write-ahead log before returning, its
        segments flushed when the last flush is older than ``flush_every_s``.

        Raises:
            ClosedError: the store was closed.
            InvalidInputError: a vector has the wrong shape.
            StoreError: Qdrant Edge failed.
        """
        shard = self._shard(kind)
        if not points:
            return
        records = [
            qe.Point(point_id(point.id), point_vector(point, self._dim), point_payload(point, self._embedder_id))
            for point in points
        ]
        with _mapped("upsert"):
            shard.update(qe.UpdateOperation.upsert_points(records))
            now = time.monotonic()
            if now - self._flushed_at[kind] >= self._flush_every_s:
                shard.flush()
                self._flushed_at[kind] = now
        self._pending[kind] += len(records)
        if self._optimize_after and self._pending[kind] >= self._optimize_after:
            self._optimize_kind(kind)

    def search(
        self,
        kind: VectorKind,
        space: str,
        vector: npt.NDArray[np.float32],
        limit: int,
        not_after: float | None = None,
    ) -> list[tuple[str, float]]:
        """(doc_id, cosine) pairs, best first, only from ``space`` (and ``at <= not_after``).

        Raises:
            ClosedError: the store was closed.
            InvalidInputError: the query vector has the wrong shape.
            StoreError: Qdrant Edge failed.
        """
        shard = self._shard(kind)
        query = query_vector(vector, self._dim)
        if limit <= 0:
            return []
        must: list[qe.ConditionType] = [qe.FieldCondition("space", match=qe.MatchValue(space))]
        if not_after is not None:
            must.append(qe.FieldCondition("at", range=qe.RangeFloat(lte=float(not_after))))
        if self._embedder_id is not None:
            must.append(qe.FieldCondition("embedder", match=qe.MatchValue(self._embedder_id)))
        request = qe.QueryRequest(
            limit=limit,
            query=qe.Query.Nearest(query),
            filter=qe.Filter(must=must),
            with_payload=["doc_id"],
        )
        with _mapped("search"):
            hits = shard.query(request)
        return scored_ids(hits)

    def missing(self, kind: VectorKind, ids: Sequence[str]) -> set[str]:
        """The subset of ``ids`` that has no point.

        Raises:
            ClosedError: the store was closed.
            StoreError: Qdrant Edge failed.
        """
        shard = self._shard(kind)
        if not ids:
            return set()
        by_point = {point_id(doc_id): doc_id for doc_id in ids}
        with _mapped("missing"):
            found = shard.retrieve(list(by_point), with_payload=False, with_vector=False)
        present = {str(uuid.UUID(str(record.id))) for record in found}
        return {doc_id for pid, doc_id in by_point.items() if pid not in present}

    def delete(self, kind: VectorKind, ids: Sequence[str]) -> None:
        """Remove points (erasure); flushed before returning. Unknown ids are ignored.

        Raises:
            ClosedError: the store was closed.
            StoreError: Qdrant Edge failed.
        """
        shard = self._shard(kind)
        if not ids:
            return
        with _mapped("delete"):
            shard.update(qe.UpdateOperation.delete_points([point_id(doc_id) for doc_id in ids]))
            shard.flush()

    def count(self, kind: VectorKind, space: str | None = None) -> int:
        """Exact number of points of ``kind``, in ``space`` when given.

        Raises:
            ClosedError: the store was closed.
            StoreError: Qdrant Edge failed.
        """
        shard = self._shard(kind)
        flt = None
        if space is not None:
            flt = qe.Filter(must=[qe.FieldCondition("space", match=qe.MatchValue(space))])
        with _mapped("count"):
            return int(shard.count(qe.CountRequest(exact=True, filter=flt)))

    def optimize(self) -> None:
        """Build HNSW indexes and merge segments in every shard (blocking).

        Searches are exact but linear until a segment is indexed; call this after a bulk
        load if a space holds far more than ~100k points. ``upsert`` calls it by itself
        past ``optimize_after`` new points when that is set.

        Raises:
            ClosedError: the store was closed.
            StoreError: Qdrant Edge failed.
        """
        for kind in VECTOR_KINDS:
            self._shard(kind)
            self._optimize_kind(kind)

    def _optimize_kind(self, kind: VectorKind) -> None:
        with _mapped("optimize"):
            self._shards[kind].optimize()
        self._pending[kind] = 0

    def close(self) -> None:
        """Flush and close every shard; later calls raise ``ClosedError``. Idempotent.

        Raises:
            StoreError: a shard failed to flush or close (all shards are still closed).
        """
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._close_shards()

    def _close_shards(self) -> None:
        """Flush and close every opened shard, reporting the first failure after trying all."""
        first: StoreError | None = None
        for shard in self._shards.values():
            try:
                with _mapped("close"):
                    shard.flush()
                    shard.close()
            except StoreError as exc:
                first = first or exc
        if first is not None:
            raise first
