"""The vector aggregate: one collection per item kind, every point tagged with its space."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from eywa.errors import ConfigurationError

VectorKind = Literal["evidence", "belief", "entity"]
VECTOR_KINDS: tuple[VectorKind, ...] = ("evidence", "belief", "entity")


def other_width(where: str, width: int | None, dim: int) -> ConfigurationError:
    """The refusal of a shard or collection made by another embedder: its vectors are of
    another width, so no vector of this one can be searched or stored beside them. Not a
    store failure (retrying cannot help) but a setting to change, hence a configuration
    error naming both widths and the two ways out."""
    return ConfigurationError(
        f"{where} holds vectors of {width} dimensions and the embedder makes {dim}: open it with "
        "the embedder that made it, or export the memory and import it into a new store"
    )


@dataclass(frozen=True)
class VectorPoint:
    """One embedded item. ``id`` is the domain id (e.g. ``ev_…``); ``at`` is epoch seconds."""

    id: str
    space: str
    vector: npt.NDArray[np.float32]
    at: float = 0.0
    payload: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ShardShortfall:
    """One shard (or collection) found short at open (``eywa.stores.embedded.lost_vectors``,
    ``eywa.stores.neo4j.lost_vectors``)."""

    kind: VectorKind
    expected: int
    """Items the ledger counted as embedded (rows without an ``embed_*`` mark)."""
    points: int
    """Points the shard held."""
    marked: int
    """Items marked ``embed_*`` again: the ones without a point."""


class VectorStore(Protocol):
    """Cosine search, filtered by space (and optionally by time)."""

    def upsert(self, kind: VectorKind, points: Sequence[VectorPoint]) -> None:
        """Insert or replace points; durable when the call returns."""
        ...

    def search(
        self,
        kind: VectorKind,
        space: str,
        vector: npt.NDArray[np.float32],
        limit: int,
        not_after: float | None = None,
    ) -> list[tuple[str, float]]:
        """(id, cosine similarity) pairs, best first, only from ``space``."""
        ...

    def missing(self, kind: VectorKind, ids: Sequence[str]) -> set[str]:
        """The subset of ``ids`` that has no point (used to repair drift after a crash)."""
        ...

    def delete(self, kind: VectorKind, ids: Sequence[str]) -> None:
        """Remove points (erasure)."""
        ...

    def count(self, kind: VectorKind, space: str | None = None) -> int:
        """Number of points of ``kind`` (in ``space`` when given)."""
        ...

    def close(self) -> None:
        """Flush and release resources."""
        ...


# One search of a batch (``VectorBatchSearch``): the query vector and how many hits.
VectorQuery = tuple[npt.NDArray[np.float32], int]


@runtime_checkable
class VectorBatchSearch(Protocol):
    """Several searches of one kind's vectors run as one call (the embedded Qdrant Edge
    shards, ``QdrantEdgeVectorStore.search_batch``): a recall's vector and person routes
    search the same turns with two embeddings of the question, and one pass over the
    shard answers both (the read path uses it when a store has it, ``Query.vector_hits``)."""

    def search_batch(
        self, kind: VectorKind, space: str, queries: Sequence[VectorQuery], not_after: float | None = None
    ) -> list[list[tuple[str, float]]]:
        """Per query in order, what ``VectorStore.search`` returns for it."""
        ...


@dataclass(frozen=True)
class ShardIndex:
    """One vector shard's index state (``VectorIndexer.index_state``).

    ``indexed`` of its ``points`` sit in segments with an HNSW graph and are searched through
    it; the others are in plain segments, searched exactly (linear in their number).
    ``threshold`` is the fewest points a segment needs before a build gives it a graph:
    below it an exact scan is as fast, and a build leaves the segment plain.
    """

    kind: VectorKind
    points: int
    indexed: int
    segments: int
    threshold: int

    @property
    def unindexed(self) -> int:
        """Points a search still scans linearly."""
        return max(self.points - self.indexed, 0)


class VectorIndexer(Protocol):
    """The explicit index build of a store that does not index by itself (the embedded
    Qdrant Edge shards; a Qdrant server indexes its collections in the background)."""

    def index_state(self) -> tuple[ShardIndex, ...]:
        """The index state of every kind's shard, in ``VECTOR_KINDS`` order."""
        ...

    def build_index(self, kind: VectorKind) -> ShardIndex:
        """Build the HNSW graph of ``kind``'s shard (blocking; see the implementation for
        what else it blocks) and return its state after."""
        ...


class VectorCompactor(Protocol):
    """Rewriting a shard without what its deletions left in its files (the embedded Qdrant
    Edge shards keep a deleted point's vector and payload on disk; a Qdrant server is
    vacuumed by its own optimizer, out of Eywa's reach)."""

    def compact(self, kind: VectorKind) -> int:
        """Rewrite ``kind``'s shard with only its live points (blocking) and return how many."""
        ...
