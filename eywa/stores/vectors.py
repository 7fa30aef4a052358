"""The vector aggregate: one collection per item kind, every point tagged with its space."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt

VectorKind = Literal["evidence", "belief", "entity"]
VECTOR_KINDS: tuple[VectorKind, ...] = ("evidence", "belief", "entity")


@dataclass(frozen=True)
class VectorPoint:
    """One embedded item. ``id`` is the domain id (e.g. ``ev_…``); ``at`` is epoch seconds."""

    id: str
    space: str
    vector: npt.NDArray[np.float32]
    at: float = 0.0
    payload: dict[str, Any] = field(default_factory=dict)


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
