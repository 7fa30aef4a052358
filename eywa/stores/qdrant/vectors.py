"""Vectors on a Qdrant server (server-mode ``VectorStore``), through ``qdrant-client``.

One collection per item kind (``eywa_evidence``, ``eywa_belief``, ``eywa_entity``), cosine
distance, a keyword payload index on ``space`` (marked as the tenant key) and a float index
on ``at`` (epoch seconds), so filtered search stays selective. As in the embedded store, a
point's id is ``uuid5`` of the domain id (re-upserting replaces it) and the domain id
travels in the payload as ``doc_id``, with the ``embedder`` stamp when the store has one
(searches then see only that embedder's points; ``eywa.stores.vector_points``).

The store takes a ready ``QdrantClient``: a server (``QdrantClient(url=…)``) in
deployments, or qdrant-client's local mode (``QdrantClient(path=…)`` or ``":memory:"``)
where no server runs, e.g. the tests. Local mode ignores payload indexes and searches by
brute force, which is fine for tests and small spaces only.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Final

import numpy as np
import numpy.typing as npt
from grpc import RpcError
from qdrant_client import QdrantClient, models
from qdrant_client.http.exceptions import ApiException

from eywa.errors import ConfigurationError, InvalidInputError, StoreError
from eywa.stores.vector_points import (
    SEARCH_PAYLOAD,
    fetched,
    kind_entry,
    point_id,
    point_payload,
    point_vector,
    query_vector,
    scored_ids,
)
from eywa.stores.vectors import VECTOR_KINDS, VectorKind, VectorPoint, other_width

_BACKEND: Final = "qdrant"
_UPSERT_BATCH: Final = 256


@contextmanager
def _mapped(operation: str) -> Iterator[None]:
    """Translate qdrant-client failures into ``StoreError`` at this boundary.

    The server transport raises ``ApiException`` (HTTP) or ``RpcError`` (gRPC); local mode
    raises ``ValueError`` (bad request, missing collection) and ``RuntimeError`` (closed).

    Raises:
        StoreError: the client failed; its exception is chained as ``__cause__``.
    """
    try:
        yield
    except (InvalidInputError, ConfigurationError):
        raise
    except (ApiException, RpcError, ValueError, RuntimeError, OSError) as exc:
        raise StoreError(_BACKEND, operation, str(exc)) from exc


class QdrantServerVectorStore:
    """The server ``VectorStore``: cosine search filtered by space and optionally by time.

    Example:
        >>> store = QdrantServerVectorStore(QdrantClient(url="http://qdrant:6333"), dim=384)  # doctest: +SKIP
        >>> store.search("evidence", "alice", query_vector, limit=5)  # doctest: +SKIP
        [('ev_…', 0.83), …]

    Args:
        client: An open ``QdrantClient``; :meth:`close` closes it.
        dim: Vector width. An existing collection of another width is refused.
        prefix: Collection name prefix (``eywa_`` gives ``eywa_evidence`` …).
        embedder_id: Stamp written on every point; searches see only points with it
            (None: no stamp, every point searched).

    Raises:
        InvalidInputError: ``dim`` is not positive.
        ConfigurationError: a collection exists with another width (another embedder's).
        StoreError: a collection cannot be created.
    """

    def __init__(
        self, client: QdrantClient, dim: int, *, prefix: str = "eywa_", embedder_id: str | None = None
    ) -> None:
        if dim < 1:
            raise InvalidInputError(f"vector dim must be positive, got {dim}")
        self._client = client
        self._dim = dim
        self._embedder_id = embedder_id
        self._names: dict[VectorKind, str] = {kind: f"{prefix}{kind}" for kind in VECTOR_KINDS}
        self._lock = threading.RLock()
        self._closed = False
        for name in self._names.values():
            self._ensure(name)

    def _ensure(self, name: str) -> None:
        """Create the collection with its payload indexes, or check the existing one's width."""
        with _mapped("open"):
            if self._client.collection_exists(name):
                vectors = self._client.get_collection(name).config.params.vectors
                size = vectors.size if isinstance(vectors, models.VectorParams) else None
                if size != self._dim:
                    raise other_width(f"the Qdrant collection {name}", size, self._dim)
                return
            self._client.create_collection(
                name, vectors_config=models.VectorParams(size=self._dim, distance=models.Distance.COSINE)
            )
            with warnings.catch_warnings():  # local mode warns that it ignores payload indexes
                warnings.filterwarnings("ignore", message="Payload indexes have no effect", category=UserWarning)
                self._client.create_payload_index(
                    name, "space", models.KeywordIndexParams(type=models.KeywordIndexType.KEYWORD, is_tenant=True)
                )
                self._client.create_payload_index(
                    name, "at", models.FloatIndexParams(type=models.FloatIndexType.FLOAT)
                )
                self._client.create_payload_index(
                    name, "embedder", models.KeywordIndexParams(type=models.KeywordIndexType.KEYWORD)
                )

    def _name(self, kind: VectorKind) -> str:
        """The collection of ``kind``.

        Raises:
            ClosedError: the store was closed.
            InvalidInputError: ``kind`` is not a vector kind.
        """
        return kind_entry(self._names, kind, closed=self._closed, store="QdrantServerVectorStore")

    def upsert(self, kind: VectorKind, points: Sequence[VectorPoint]) -> None:
        """Insert or replace points in batches; acknowledged (``wait=True``) before returning.

        Raises:
            ClosedError: the store was closed.
            InvalidInputError: a vector has the wrong shape.
            StoreError: Qdrant failed.
        """
        name = self._name(kind)
        structs = [
            models.PointStruct(
                id=point_id(point.id), vector=point_vector(point, self._dim),
                payload=point_payload(point, self._embedder_id),
            )
            for point in points
        ]
        with self._lock, _mapped("upsert"):
            for start in range(0, len(structs), _UPSERT_BATCH):
                self._client.upsert(name, points=structs[start : start + _UPSERT_BATCH], wait=True)

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
            StoreError: Qdrant failed.
        """
        name = self._name(kind)
        query = query_vector(vector, self._dim)
        if limit <= 0:
            return []
        must: list[models.Condition] = [
            models.FieldCondition(key="space", match=models.MatchValue(value=space))
        ]
        if not_after is not None:
            must.append(models.FieldCondition(key="at", range=models.Range(lte=float(not_after))))
        if self._embedder_id is not None:
            must.append(models.FieldCondition(key="embedder", match=models.MatchValue(value=self._embedder_id)))
        with self._lock, _mapped("search"):
            response = self._client.query_points(
                name, query=query, query_filter=models.Filter(must=must), limit=fetched(limit),
                with_payload=list(SEARCH_PAYLOAD),
            )  # fmt: skip
        return scored_ids(response.points, limit)

    def missing(self, kind: VectorKind, ids: Sequence[str]) -> set[str]:
        """The subset of ``ids`` that has no point.

        Raises:
            ClosedError: the store was closed.
            StoreError: Qdrant failed.
        """
        name = self._name(kind)
        if not ids:
            return set()
        by_point = {point_id(doc_id): doc_id for doc_id in ids}
        with self._lock, _mapped("missing"):
            found = self._client.retrieve(name, ids=list(by_point), with_payload=False, with_vectors=False)
        present = {str(record.id) for record in found}
        return {doc_id for pid, doc_id in by_point.items() if pid not in present}

    def delete(self, kind: VectorKind, ids: Sequence[str]) -> None:
        """Remove points (erasure); unknown ids are ignored.

        Raises:
            ClosedError: the store was closed.
            StoreError: Qdrant failed.
        """
        name = self._name(kind)
        if not ids:
            return
        selector = models.PointIdsList(points=[point_id(doc_id) for doc_id in ids])
        with self._lock, _mapped("delete"):
            self._client.delete(name, points_selector=selector, wait=True)

    def count(self, kind: VectorKind, space: str | None = None) -> int:
        """Exact number of points of ``kind``, in ``space`` when given.

        Raises:
            ClosedError: the store was closed.
            StoreError: Qdrant failed.
        """
        name = self._name(kind)
        flt = None
        if space is not None:
            flt = models.Filter(must=[models.FieldCondition(key="space", match=models.MatchValue(value=space))])
        with self._lock, _mapped("count"):
            return int(self._client.count(name, count_filter=flt, exact=True).count)

    def close(self) -> None:
        """Close the client; later calls raise ``ClosedError``. Idempotent.

        Raises:
            StoreError: the client failed to close.
        """
        with self._lock:
            if self._closed:
                return
            self._closed = True
            with _mapped("close"):
                self._client.close()
