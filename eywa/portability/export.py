"""Reading a space out as export records, in a stable order.

The order is fixed by the data, not by the backend: turns by (session, seq, id), everything
else by id (deltas by dimension, then event time), so two memories holding the same space
write the same lines — the round-trip test compares exports line by line. Entities come
before the turns that mention them, and beliefs in an order where a superseded belief comes
before the one that supersedes it, so an import can write them in file order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from eywa.models import Belief
from eywa.signals.version import current_signals_version
from eywa.portability.records import (
    BeliefLine,
    CandidateLine,
    CorrectionLine,
    DeltaLine,
    DimensionLine,
    EntityLine,
    ErasureLine,
    ExportRecord,
    MergeLine,
    TurnLine,
)
from eywa.stores.bundle import GraphStores
from eywa.stores.ledger import DERIVED_STAGES

__all__ = ["export_records", "superseded_first"]

_CHUNK = 500


def export_records(stores: GraphStores, space: str) -> Iterator[ExportRecord]:
    """Every record of ``space`` (without the header), read from the graph stores.

    Raises:
        StoreError: a store cannot be read.
    """
    for entity in sorted(stores.evidence.entities(space), key=lambda e: e.id):
        yield EntityLine(entity=entity)
    yield from _turns(stores, space)
    beliefs = stores.beliefs.beliefs(space, status=None)
    for belief in superseded_first(beliefs):
        yield BeliefLine(belief=belief)
    for candidate in sorted(stores.beliefs.candidates(space, status=None), key=lambda c: c.id):
        yield CandidateLine(candidate=candidate)
    for record in stores.dimensions.dimensions(space):
        yield DimensionLine(dimension=record)
        for delta in stores.dimensions.deltas(space, record.entity_key, record.attribute):
            yield DeltaLine(entity_key=record.entity_key, attribute=record.attribute, delta=delta)
    for edge in sorted(stores.dimensions.same_as(space, include_removed=True), key=lambda e: (e.source, e.target)):
        yield MergeLine(edge=edge)
    for correction in sorted(stores.corrections.corrections(space), key=lambda c: (c.at, c.id)):
        yield CorrectionLine(correction=correction)
    for erasure in stores.erasure.erasures(space):
        yield ErasureLine(erasure=erasure)


def _turns(stores: GraphStores, space: str) -> Iterator[TurnLine]:
    ids = stores.evidence.ids(space)
    current = current_signals_version()
    older = _older_signals(stores, space, current)
    turns = []
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start : start + _CHUNK]
        mentions = stores.evidence.mentions(space, chunk)
        pending: dict[str, set[str]] = {}
        for mark in stores.ledger.pending_for(space, chunk):
            pending.setdefault(mark.item_id, set()).add(mark.stage)
        for evidence in stores.evidence.get(space, chunk):
            owed = tuple(stage for stage in DERIVED_STAGES if stage in pending.get(evidence.id, set()))
            turns.append(
                TurnLine(
                    evidence=evidence,
                    mentions=tuple(sorted(mentions.get(evidence.id, []))),
                    pending=owed,
                    signals_version=older.get(evidence.id, current),
                )
            )
    yield from sorted(turns, key=lambda t: (t.evidence.session, t.evidence.seq, t.evidence.id))


def _older_signals(stores: GraphStores, space: str, current: int) -> dict[str, int]:
    """The turns of ``space`` stored under a signals version below ``current``, with that
    version: the store lists the turns below a version (an index seek), so going down from
    ``current`` one version at a time leaves each turn with the version it holds."""
    older: dict[str, int] = {}
    for version in range(current, 0, -1):
        below = stores.evidence.count_signals_outdated(space, version)
        if not below:
            break
        for turn_id in stores.evidence.signals_outdated(space, version, below):
            older[turn_id] = version - 1
    return older


def superseded_first(beliefs: Sequence[Belief]) -> list[Belief]:
    """``beliefs`` by id, moved so that each comes after the belief it supersedes (a store
    links ``supersedes`` to a belief already written)."""
    by_id = {b.id: b for b in beliefs}
    placed: set[str] = set()
    ordered: list[Belief] = []
    for belief in sorted(beliefs, key=lambda b: b.id):
        chain: list[Belief] = []  # this belief, the one it supersedes, and so on back
        seen: set[str] = set()
        current: Belief | None = belief
        while current is not None and current.id not in placed and current.id not in seen:
            chain.append(current)
            seen.add(current.id)
            current = by_id.get(current.supersedes) if current.supersedes is not None else None
        for item in reversed(chain):
            placed.add(item.id)
            ordered.append(item)
    return ordered
