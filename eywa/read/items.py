"""Turning route hits (kind, id) into provenance-carrying items, one source per item kind."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final, Protocol

from eywa.errors import NotFoundError
from eywa.models import Evidence, EvidenceRef, ItemKind
from eywa.stores.beliefs import BeliefStore
from eywa.stores.dimensions import DimensionStore
from eywa.stores.evidence import EvidenceStore
from eywa.ids import entity_id


@dataclass(frozen=True)
class Hydrated:
    """An item's content before scoring: text, provenance and what it is about."""

    kind: ItemKind
    id: str
    text: str
    provenance: tuple[EvidenceRef, ...]
    session: str | None
    observed_at: datetime | None
    speaker: str | None
    about: tuple[str, ...]  # entity ids the item is about (speaker and mentions)


class ItemSource(Protocol):
    """Loads items of one kind by id, within a space."""

    @property
    def kind(self) -> ItemKind:
        """The item kind this source serves."""
        ...

    def hydrate(self, space: str, ids: Sequence[str]) -> dict[str, Hydrated]:
        """The items found (missing ids are left out)."""
        ...


def evidence_ref(evidence: Evidence) -> EvidenceRef:
    """Provenance for one stored turn."""
    return EvidenceRef(
        id=evidence.id,
        session=evidence.session,
        speaker=evidence.speaker,
        observed_at=evidence.observed_at,
        metadata=evidence.metadata,
    )


class EvidenceSource:
    """Evidence items: a turn is its own provenance."""

    kind: Final = "evidence"

    def __init__(self, store: EvidenceStore) -> None:
        self._store = store

    def hydrate(self, space: str, ids: Sequence[str]) -> dict[str, Hydrated]:
        turns = self._store.get(space, ids)
        mentions = self._store.mentions(space, [t.id for t in turns])
        return {
            t.id: Hydrated(
                kind="evidence",
                id=t.id,
                text=t.text,
                provenance=(evidence_ref(t),),
                session=t.session,
                observed_at=t.observed_at,
                speaker=t.speaker,
                about=tuple(mentions.get(t.id, ())),
            )
            for t in turns
        }

    def neighbours(self, space: str, evidence_id: str) -> list[Hydrated]:
        """The turns just before and after ``evidence_id`` in its session."""
        around = self._store.neighbours(space, evidence_id, 1, 1)
        return list(self.hydrate(space, [t.id for t in around]).values())


class BeliefSource:
    """Belief items: provenance is the cited turns, with the caller's metadata."""

    kind: Final = "belief"

    def __init__(self, beliefs: BeliefStore, evidence: EvidenceStore) -> None:
        self._beliefs = beliefs
        self._evidence = evidence

    def hydrate(self, space: str, ids: Sequence[str]) -> dict[str, Hydrated]:
        beliefs = [b for b in self._beliefs.get_many(space, ids) if b.status == "active"]
        cited_ids = sorted({i for b in beliefs for i in b.evidence_ids})
        turns = {t.id: t for t in self._evidence.get(space, cited_ids)}
        mentions = self._evidence.mentions(space, cited_ids)
        found: dict[str, Hydrated] = {}
        for belief in beliefs:
            cited = [turns[i] for i in belief.evidence_ids if i in turns]
            if not cited:
                continue  # a belief whose evidence is gone is not served
            about = {entity_id(space, belief.subject)}
            for turn in cited:
                about.update(mentions.get(turn.id, ()))
            found[belief.id] = Hydrated(
                kind="belief",
                id=belief.id,
                text=belief.statement,
                provenance=tuple(evidence_ref(t) for t in cited),
                session=cited[0].session,
                observed_at=cited[0].observed_at,
                speaker=None,
                about=tuple(sorted(about)),
            )
        return found


class DimensionSource:
    """Dimension fact lines: "Caroline — relationship_status: single (0.93)".

    Provenance is the evidence of the dimension's deltas; multi-valued dimensions list
    their set members (delta-log aggregation).
    """

    kind: Final = "dimension"

    def __init__(self, dimensions: DimensionStore, evidence: EvidenceStore) -> None:
        self._dimensions = dimensions
        self._evidence = evidence

    def hydrate(self, space: str, ids: Sequence[str]) -> dict[str, Hydrated]:
        from eywa.nous import ledger as nous

        found: dict[str, Hydrated] = {}
        for item_id in ids:
            if not item_id.startswith("dim:"):
                continue
            entity, _, attribute = item_id[4:].rpartition(":")
            try:
                dim = nous.get_dimension(self._dimensions, space, entity, attribute)
            except NotFoundError:
                continue
            deltas = nous.list_deltas(self._dimensions, space, entity, attribute)
            if dim.cardinality == "multi":
                members = nous.set_members(dim, deltas)
                values = ", ".join(f"{v} ({dim.distribution.get(v, 0.0):.2f})" for v in members)
            else:
                values = f"{dim.mode} ({dim.distribution.get(dim.mode or '', 0.0):.2f})" if dim.mode else ""
            if not values:
                continue
            turns = self._evidence.get(space, list(dict.fromkeys(i for d in deltas for i in d.evidence_ids)))
            if not turns:
                continue
            latest = max(turns, key=lambda t: t.observed_at)
            found[item_id] = Hydrated(
                kind="dimension",
                id=item_id,
                text=f"{dim.entity} — {attribute}: {values}",
                provenance=tuple(evidence_ref(t) for t in turns[-5:]),
                session=None,
                observed_at=latest.observed_at,
                speaker=None,
                about=(entity_id(space, entity),),
            )
        return found
