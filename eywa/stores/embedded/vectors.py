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

Sole-space shards: a search filters on ``space`` and ``embedder`` so that it never sees
another space's or another embedder's points; in the usual embedded directory every point
of a shard is of one space and carries the store's stamp, and the filter then selects every
point while costing its checks (10k turns: a 150-hit evidence search 5.5 against 4.1 ms of
CPU with the space condition alone, 2.8-3.0 with none; the same hits and scores). So the
store keeps, per kind, the one space every point is of when each also carries its stamp
(``_sole``: read once at open, kept by ``upsert``), and a search of that space runs without
those two conditions (the time condition stays). A point that breaks it (another space,
written in this process: the directory is locked to one) clears it before it is written;
only a reopen finds a shard sole again.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext, suppress
from enum import Enum
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt
import qdrant_edge as qe

from eywa.errors import EywaError, InvalidInputError, StoreError
from eywa.stores.vector_points import point_id as point_id  # re-exported: tests and callers use it
from eywa.stores.vector_points import (
    SEARCH_PAYLOAD,
    fetched,
    kind_entry,
    point_payload,
    point_vector,
    query_vector,
    scored_ids,
)
from eywa.stores.vectors import VECTOR_KINDS, VectorKind, VectorPoint

_BACKEND = "qdrant-edge"
_RESERVED = ("doc_id", "space", "at")
# Automatic index builds are off by default: building HNSW over 100k points took minutes
# on two cores and blocks the writer, while an unindexed segment prefiltered by the
# ``space`` index answers in ~4 ms at 100k points (10k in the space) with exact results.
_OPTIMIZE_AFTER = 0
FLUSH_EVERY_S = 5.0
"""The longest a shard's upserts stay in its write-ahead log only (see the module docstring)."""


class _Empty(Enum):
    """``_sole`` of a shard without points: the first space written makes it sole."""

    EMPTY = "empty"


_EMPTY: Final = _Empty.EMPTY


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
        # Per kind: the space every point is of, each with this store's stamp (a search of it
        # needs no space or embedder condition), ``_EMPTY`` for a shard without points, None
        # when mixed (see the module docstring).
        self._sole: dict[VectorKind, str | _Empty | None] = {}
        self._sole_guard = threading.Lock()
        try:
            for kind in VECTOR_KINDS:
                self._shards[kind] = self._open(Path(directory) / kind)
                self._sole[kind] = self._sole_space(self._shards[kind])
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

    def _sole_space(self, shard: qe.EdgeShard) -> str | _Empty | None:
        """The one space of every point of ``shard`` when each carries this store's stamp
        (``_EMPTY`` for no point, None otherwise): two facet reads on indexed fields.

        Raises:
            StoreError: Qdrant Edge failed.
        """
        with _mapped("open"):
            total = int(shard.count(qe.CountRequest(exact=True)))
            if total == 0:
                return _EMPTY
            spaces = list(shard.facet(qe.FacetRequest("space", limit=2, exact=True)))
            if len(spaces) != 1 or spaces[0].count != total:
                return None
            if self._embedder_id is not None:
                stamps = list(shard.facet(qe.FacetRequest("embedder", limit=2, exact=True)))
                if len(stamps) != 1 or stamps[0].value != self._embedder_id or stamps[0].count != total:
                    return None
        return str(spaces[0].value)

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
        spaces = {point.space for point in points}
        sole = self._sole[kind]
        if sole is not None and spaces != {sole} and (sole is not _EMPTY or len(spaces) > 1):
            with self._sole_guard:  # before the write, after any unfiltered search in progress
                self._sole[kind] = None
        with _mapped("upsert"):
            shard.update(qe.UpdateOperation.upsert_points(records))
            if self._sole[kind] is _EMPTY:  # after the write: searches filtered until then
                self._sole[kind] = spaces.pop()
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
        unfiltered = self._sole[kind] == space  # a sole-space shard's points all pass both
        # An unfiltered search holds the guard, so an upsert that clears ``_sole`` (say, the
        # first point of another space) waits until it has ended, and one that cleared it
        # meanwhile is seen here: no other space's point is ever searched unfiltered.
        with self._sole_guard if unfiltered else nullcontext():
            unfiltered = unfiltered and self._sole[kind] == space
            must: list[qe.ConditionType] = []
            if not unfiltered:
                must.append(qe.FieldCondition("space", match=qe.MatchValue(space)))
                if self._embedder_id is not None:
                    must.append(qe.FieldCondition("embedder", match=qe.MatchValue(self._embedder_id)))
            if not_after is not None:
                must.append(qe.FieldCondition("at", range=qe.RangeFloat(lte=float(not_after))))
            request = qe.QueryRequest(
                limit=fetched(limit),
                query=qe.Query.Nearest(query),
                filter=qe.Filter(must=must) if must else None,
                with_payload=list(SEARCH_PAYLOAD),
            )
            with _mapped("search"):
                hits = shard.query(request)
        return scored_ids(hits, limit)

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
