"""Turning route hits (kind, id) into provenance-carrying items, one source per item kind."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final, Protocol

from eywa.errors import NotFoundError
from eywa.models import EvidenceRef, ItemKind
from eywa.read.answers import StateAnswer, state_answer
from eywa.read.dimension_reads import DimensionReads
from eywa.stores.beliefs import BeliefStore
from eywa.stores.dimensions import DimensionStore
from eywa.stores.evidence import EvidenceStore, RecallTurn
from eywa.ids import entity_id


# The turns around a hit that the rescue reads (``EvidenceSource.neighbours``): the one
# before it, and two after it. A conversation continues after what it introduces: when a
# question's words are in the turn that opens a topic ("Have a look at my sketch for the gallery
# opening!"), what it asks is often said next, in the reply or in the same speaker's next turn.
# On the LoCoMo development file, 32 of the 59 single-hop gold turns recall@10 missed were
# one or two turns after a returned turn, 7 one or two before. Reading two after instead of
# one: recall@10 (1-4) +0.3 (single-hop +0.5, temporal +0.2; per conversation 0.0, 0.0,
# +0.7, +0.5, +0.1), no conversation lower (docs/evaluation.md).
NEIGHBOURS_BEFORE: Final = 1
NEIGHBOURS_AFTER: Final = 2


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
    subject: str | None = None
    """Whose state or words the item gives: a turn's speaker, a belief's or dimension's
    subject. The named-speaker boost reads it."""


class ItemSource(Protocol):
    """Loads items of one kind by id, within a space."""

    @property
    def kind(self) -> ItemKind:
        """The item kind this source serves."""
        ...

    def hydrate(self, space: str, ids: Sequence[str], as_of: datetime | None = None) -> dict[str, Hydrated]:
        """The items found (missing ids are left out), as they stand at ``as_of``."""
        ...


def evidence_ref(turn: RecallTurn) -> EvidenceRef:
    """Provenance for one stored turn. Its fields were validated with the turn, but
    pydantic's compiled validation (~1.7 us) is cheaper than ``model_construct``, which
    walks the fields in Python (~3.1 us): ~70 references a recall at 10k."""
    return EvidenceRef(
        id=turn.id,
        session=turn.session,
        speaker=turn.speaker,
        observed_at=turn.observed_at,
        metadata=turn.metadata,
    )


class EvidenceSource:
    """Evidence items: a turn is its own provenance."""

    kind: Final = "evidence"

    def __init__(self, store: EvidenceStore) -> None:
        self._store = store

    def hydrate(self, space: str, ids: Sequence[str], as_of: datetime | None = None) -> dict[str, Hydrated]:
        return {t.id: _turn_item(t) for t in self._store.recall_turns(space, ids)}

    def speakers(self, space: str, ids: Sequence[str]) -> dict[str, str | None]:
        """The speakers of turns, read alone (the evidence strength needs nothing else)."""
        return self._store.speakers(space, ids)

    def neighbours(self, space: str, evidence_ids: Sequence[str]) -> dict[str, list[Hydrated]]:
        """The turns around each of ``evidence_ids`` in its session (``NEIGHBOURS_BEFORE``
        before it, ``NEIGHBOURS_AFTER`` after it), in their order, all read at once (a
        recall rescues around several turns: one store read, not one per turn and another
        for its mentions)."""
        around = self._store.recall_neighbours(space, evidence_ids, NEIGHBOURS_BEFORE, NEIGHBOURS_AFTER)
        return {anchor: [_turn_item(t) for t in turns] for anchor, turns in around.items()}


def _turn_item(turn: RecallTurn) -> Hydrated:
    return Hydrated(
        kind="evidence",
        id=turn.id,
        text=turn.text,
        provenance=(evidence_ref(turn),),
        session=turn.session,
        observed_at=turn.observed_at,
        speaker=turn.speaker,
        about=turn.mentions,
        subject=turn.speaker,
    )


class BeliefSource:
    """Belief items: provenance is the cited turns, with the caller's metadata."""

    kind: Final = "belief"

    def __init__(self, beliefs: BeliefStore) -> None:
        self._beliefs = beliefs

    def hydrate(self, space: str, ids: Sequence[str], as_of: datetime | None = None) -> dict[str, Hydrated]:
        found: dict[str, Hydrated] = {}
        for belief in self._beliefs.recall_beliefs(space, ids):  # active ones, with their turns: one read
            cited = belief.cited
            if not cited:
                continue  # a belief whose evidence is gone is not served
            about = {entity_id(space, belief.subject)}
            for turn in cited:
                about.update(turn.mentions)
            found[belief.id] = Hydrated(
                kind="belief",
                id=belief.id,
                text=belief.statement,
                provenance=tuple(evidence_ref(t) for t in cited),
                session=cited[0].session,
                observed_at=cited[0].observed_at,
                speaker=None,
                about=tuple(sorted(about)),
                subject=belief.subject,
            )
        return found


class DimensionSource:
    """Dimension items: the dimension's line as of the read time ("Priya — employer:
    Fernbrook since 6 May 2024 …", see ``eywa.read.answers``), with the turns that
    established its value as provenance.
    """

    kind: Final = "dimension"

    def __init__(self, dimensions: DimensionStore, evidence: EvidenceStore) -> None:
        self._dimensions = dimensions
        self._evidence = evidence

    def hydrate(self, space: str, ids: Sequence[str], as_of: datetime | None = None) -> dict[str, Hydrated]:
        """The dimension lines of ``ids`` as of ``as_of``. Their states, deltas and merge
        edges are read together first (``DimensionReads.prefetch_pairs``: one round trip
        on a server, where each line cost its own reads of the merge edges, its state and
        its deltas; only the deltas an answer can cite where they suffice), then every
        line's turns in one read."""
        pairs = {item_id: key for item_id in ids if (key := dimension_key(item_id)) is not None}
        if not pairs:
            return {}
        # The deltas a state answer can cite, not every delta of each pair (where they
        # answer the same as of ``as_of``: ``DimensionReads``).
        reads = DimensionReads(self._dimensions, cited_as_of=as_of)
        reads.prefetch_pairs(space, list(pairs.values()))
        source = DimensionSource(reads, self._evidence)
        answers = {
            item_id: answer for item_id, (entity, attribute) in pairs.items()
            if (answer := source.answer(space, entity, attribute, "", as_of)) is not None
        }  # fmt: skip
        turns = source.turns(space, [i for answer in answers.values() for i in answer.evidence_ids])
        found: dict[str, Hydrated] = {}
        for item_id, answer in answers.items():
            if (item := source.item(space, answer, as_of, turns)) is not None:
                found[item_id] = item
        return found

    def answer(
        self, space: str, entity: str, attribute: str, question: str, as_of: datetime | None,
        *, held_at: datetime | None = None,
    ) -> StateAnswer | None:
        """What (entity, attribute) answers to ``question`` as of ``as_of``; None if unknown.
        ``held_at``: the state as it stood at that earlier time instead (a question about a
        past time, ``Plan.state_at``), still worded for a reader at ``as_of``."""
        from eywa.nous import ledger as nous

        at = held_at if held_at is not None else as_of
        try:
            dimension = nous.get_dimension(self._dimensions, space, entity, attribute, at)
        except NotFoundError:
            return None
        deltas = [
            d for d in nous.list_deltas(self._dimensions, space, entity, attribute)
            if at is None or d.at <= at
        ]  # fmt: skip
        return state_answer(dimension, deltas, question, as_of)

    def turns(self, space: str, evidence_ids: Sequence[str]) -> dict[str, RecallTurn]:
        """The stored turns among ``evidence_ids``, for ``item`` (one read for several answers)."""
        return {t.id: t for t in self._evidence.recall_turns(space, list(dict.fromkeys(evidence_ids)))} if evidence_ids else {}

    def item(
        self, space: str, answer: StateAnswer, as_of: datetime | None, turns: Mapping[str, RecallTurn] | None = None
    ) -> Hydrated | None:
        """The recall item of an answer; None when none of its turns was said by ``as_of``.
        ``turns``: its turns already read (``turns``), else they are read here."""
        if turns is None:
            turns = self.turns(space, answer.evidence_ids)
        cited = [turns[i] for i in answer.evidence_ids if i in turns and (as_of is None or turns[i].observed_at <= as_of)]
        if not cited:
            return None
        return Hydrated(
            kind="dimension",
            id=dimension_id(answer.entity, answer.attribute),
            text=answer.text,
            provenance=tuple(evidence_ref(t) for t in cited),
            session=None,
            observed_at=max(t.observed_at for t in cited),
            speaker=None,
            about=(entity_id(space, answer.entity),),
            subject=answer.entity,
        )


def dimension_id(entity: str, attribute: str) -> str:
    """The item id of a dimension line."""
    return f"dim:{entity}:{attribute}"


def dimension_key(item_id: str) -> tuple[str, str] | None:
    """(entity, attribute) of a dimension item id; None for any other id."""
    if not item_id.startswith("dim:"):
        return None
    entity, _, attribute = item_id[4:].rpartition(":")
    return (entity, attribute) if entity and attribute else None
