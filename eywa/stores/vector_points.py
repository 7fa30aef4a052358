"""Pure helpers shared by the vector stores (Qdrant Edge embedded, Qdrant server).

Both backends lay points out the same way, so a shard written by one reads the same as a
collection written by the other: Qdrant point ids must be integers or UUIDs while Eywa's
ids are strings (``ev_…``), so a point's id is ``uuid5`` of the domain id (deterministic:
re-upserting replaces) and the domain id travels in the payload as ``doc_id``, next to
``space`` and ``at`` (epoch seconds) that the filters use, and ``embedder`` (the id of the
embedder that made the vector) when the store was opened with one: such a store searches only
the vectors of its own embedder, so a change of embedder never mixes two vector spaces while
the old points are re-embedded. Keeping that in one place keeps the two layouts from
drifting apart.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from eywa.errors import ClosedError, InvalidInputError
from eywa.stores.vectors import VectorKind, VectorPoint

T = TypeVar("T")
_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://eywa.dev/vector-point")


def point_id(doc_id: str) -> str:
    """The Qdrant point id (a UUID string) for a domain id; stable across processes."""
    return str(uuid.uuid5(_NAMESPACE, doc_id))


def kind_entry(entries: Mapping[VectorKind, T], kind: VectorKind, *, closed: bool, store: str) -> T:
    """What a store keeps for ``kind`` (a shard, a collection name), once it is known usable.

    Raises:
        ClosedError: ``closed`` is set (``store`` names the closed store).
        InvalidInputError: ``kind`` is not a vector kind.
    """
    if closed:
        raise ClosedError(store)
    try:
        return entries[kind]
    except KeyError:
        raise InvalidInputError(f"unknown vector kind {kind!r}") from None


def point_vector(point: VectorPoint, dim: int) -> list[float]:
    """The point's vector as float32 values, checked against the store's width.

    Raises:
        InvalidInputError: the vector does not have shape ``(dim,)``.
    """
    vector = np.asarray(point.vector, dtype=np.float32)
    if vector.shape != (dim,):
        raise InvalidInputError(
            f"vector of {point.id!r} has shape {vector.shape}, expected ({dim},)"
        )
    values: list[float] = vector.tolist()
    return values


def point_payload(point: VectorPoint, embedder_id: str | None = None) -> dict[str, Any]:
    """The stored payload: the caller's fields, then the reserved ``doc_id``, ``space``, ``at``
    and, when given, ``embedder``."""
    payload = {**point.payload, "doc_id": point.id, "space": point.space, "at": float(point.at)}
    if embedder_id is not None:
        payload["embedder"] = embedder_id
    return payload


def query_vector(vector: npt.NDArray[np.float32], dim: int) -> list[float]:
    """A search vector as float32 values, checked against the store's width.

    Raises:
        InvalidInputError: the vector does not have shape ``(dim,)``.
    """
    query = np.asarray(vector, dtype=np.float32)
    if query.shape != (dim,):
        raise InvalidInputError(f"query vector has shape {query.shape}, expected ({dim},)")
    values: list[float] = query.tolist()
    return values


TIE_MARGIN = 16
"""Hits a search asks for beyond its limit, so that points tied at the cut are ordered
before the cut is made (``scored_ids``); more equal points than this at the cut are cut in
the engine's order."""

SEARCH_PAYLOAD: tuple[str, ...] = ("doc_id", "at")
"""The payload fields a search reads back: what ``scored_ids`` names and orders hits by."""


def fetched(limit: int) -> int:
    """How many hits a search for ``limit`` asks the engine for (``TIE_MARGIN`` more)."""
    return limit + TIE_MARGIN


def scored_ids(hits: Iterable[Any], limit: int) -> list[tuple[str, float]]:
    """(doc_id, score) pairs of search hits, best first, ties in ``at`` then ``doc_id``
    order, at most ``limit``; hits without a payload are skipped.

    Points with the same vector score the same: a belief stated alike from several turns
    is common (1,084 tied hits over 200 development questions' belief searches, top 50).
    The engine returns such points in its own order, which follows the order they were
    written in, so two stores holding the same points, written in batches of other sizes,
    answered the same question in another order (31-34 of 999 development contexts differed
    between two fresh ingests). ``hits`` are driver's scored points (``payload`` with
    ``SEARCH_PAYLOAD``, and ``score``), ``fetched(limit)`` of them.
    """
    rows = [
        (str(payload["doc_id"]), float(hit.score), float(payload.get("at", 0.0)))
        for hit in hits
        if (payload := hit.payload)  # built anew at each access by the driver: read once
    ]
    return best_rows(rows, limit)


def best_rows(rows: list[tuple[str, float, float]], limit: int) -> list[tuple[str, float]]:
    """(doc_id, score) of ``rows`` (doc_id, score, at), best first, ties in ``at`` then
    ``doc_id`` order (``scored_ids``), at most ``limit``; ``rows`` is sorted in place."""
    rows.sort(key=lambda row: (-row[1], row[2], row[0]))
    return [(doc_id, score) for doc_id, score, _ in rows[:limit]]
