"""Turning route hits (kind, id) into provenance-carrying items, one source per item kind."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from eywa.models import Evidence, EvidenceRef
from eywa.stores.beliefs import BeliefStore
from eywa.stores.evidence import EvidenceStore
from eywa.write import entity_id


@dataclass(frozen=True)
class Hydrated:
    """An item's content before scoring: text, provenance and what it is about."""

    kind: str
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
    def kind(self) -> str:
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

    kind = "evidence"

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


class BeliefSource:
    """Belief items: provenance is the cited turns, with the caller's metadata."""

    kind = "belief"

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
