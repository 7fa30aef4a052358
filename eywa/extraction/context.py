"""What was said before a batch of turns that its turns may lean on.

A turn is not always readable alone. "Pescatarian, yes." answers the question of the turn
before it; "Biscuit died on Tuesday." names a pet its speaker introduced sessions ago. An
extractor that reads such turns declares it by implementing ``ContextualExtractor``; the
Level 1 pipeline then hands it an ``Earlier`` built from the stores (``earlier_context``):
the turn before the first turn of each session of the batch, and the names the earlier
beliefs of its speakers and of the people its turns name gave values to. Inside one batch
the extractor carries both forward itself.

Nothing here is believed on its own: a proposal that leans on an earlier turn still cites
only the turn it was read from, and the validator checks it against that turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from eywa.attributes.kin import kin_spoken_of
from eywa.extraction.base import Extractor
from eywa.models import Belief, CandidateFact, Evidence, SignalKind
from eywa.stores.beliefs import BeliefStore
from eywa.stores.evidence import EvidenceStore

__all__ = [
    "NAMED_ATTRIBUTES", "ContextualExtractor", "Earlier", "Named", "earlier_context", "named_values", "people_of",
]

NAMED_ATTRIBUTES = frozenset({"pets", "employer", "residence", "possessions", "partner"})
"""Attributes whose values may be names a later turn refers to by the name alone: "Biscuit
died" (a pet; "the cat passed", a pet held by its kind), "I left Initech" (a workplace: "left" a name alone is a job left only when
the name is one, not a party or a town), "I left Leeds" (a home), "I sold my Civic" (a car
said by its make and model before, "honda civic"), "Tobias passed away" (a partner)."""

Named = Mapping[str, Mapping[str, tuple[str, str]]]
"""Person (case-folded) → name (case-folded) → (attribute, value) of that person's beliefs."""


@dataclass(frozen=True)
class Earlier:
    """What came before a batch.

    Attributes:
        previous: evidence id of a batch turn → the turn just before it in its session,
            for turns whose previous turn is not in the batch.
        named: per person (the batch's speakers and the people its turns name), the names
            that person's earlier beliefs hold as values of a ``NAMED_ATTRIBUTES`` attribute
            ("Biscuit" → pets "Biscuit"; Eva's "Globex" → employer "Globex").
    """

    previous: Mapping[str, Evidence] = field(default_factory=dict)
    named: Named = field(default_factory=dict)


@runtime_checkable
class ContextualExtractor(Extractor, Protocol):
    """An extractor that reads a batch knowing what came before it."""

    def propose_after(self, space: str, evidence: Sequence[Evidence], earlier: Earlier) -> Iterable[CandidateFact]:
        """Candidate facts for ``evidence``, which follows what ``earlier`` describes."""
        ...


def named_values(facts: Iterable[Belief | CandidateFact]) -> dict[str, dict[str, tuple[str, str]]]:
    """The names positive, asserted facts of ``NAMED_ATTRIBUTES`` hold, per subject.

    A name is a value that starts with a capital ("Biscuit"). An employer is kept whatever its
    case: a workplace said by its kind ("law firm") is left by its kind ("I left the law firm",
    read only where the speaker held it). A possession is kept when it is a make and a model
    ("honda civic", said in lower case): sold by its model. A pet is kept by its kind too
    ("cat"): a pet held by no name is spoken of by its kind ("The cat passed").
    """
    out: dict[str, dict[str, tuple[str, str]]] = {}
    for f in facts:
        value = f.value or ""
        named = value[:1].isupper() or (f.attribute == "employer" and bool(value)) or (
            f.attribute == "possessions" and len(value.split()) > 1) or (
            f.attribute == "pets" and value.isalpha() and value.islower())
        if f.attribute in NAMED_ATTRIBUTES and f.polarity == "positive" and f.modality == "asserted" and named:
            out.setdefault(f.subject.casefold(), {})[value.casefold()] = (f.attribute, value)
    return out


def earlier_context(
    space: str, turns: Sequence[Evidence], evidence_store: EvidenceStore, belief_store: BeliefStore
) -> Earlier:
    """The ``Earlier`` of a batch, read from the stores.

    One neighbour read per session of the batch (for its first turn) and one belief read
    per person (a speaker, or someone a turn names) and named attribute: the cost grows with
    the people a batch speaks of, not with its length.

    Raises:
        StoreError: a store failed.
    """
    ids = {t.id for t in turns}
    first: dict[str, Evidence] = {}
    for turn in turns:
        if turn.session not in first or turn.seq < first[turn.session].seq:
            first[turn.session] = turn
    previous: dict[str, Evidence] = {}
    for turn in first.values():
        if turn.seq > 0:
            before = [t for t in evidence_store.neighbours(space, turn.id, 1, 0) if t.id not in ids]
            if before:
                previous[turn.id] = before[-1]
    beliefs = [
        b for person in people_of(turns) for attribute in sorted(NAMED_ATTRIBUTES)
        for b in belief_store.beliefs(space, subject=person, attribute=attribute)
    ]  # fmt: skip
    return Earlier(previous=previous, named=named_values(beliefs))


def people_of(turns: Iterable[Evidence]) -> list[str]:
    """The people ``turns`` speak of, one name each (case-insensitive), sorted: their
    speakers, the people Level 0 found named in them (by canonical name, as the rules make
    them the subject of what they read) and the relatives of both spoken of by no name ("my
    sister", "Eva's dad": "Ana's sister", "Eva's father", ``eywa.attributes.kin``)."""
    people: dict[str, str] = {}
    for turn in turns:
        if turn.speaker:
            people.setdefault(turn.speaker.casefold(), turn.speaker)
            for kin in kin_spoken_of(turn.speaker, turn.text):  # "my sister": "Ana's sister"
                people.setdefault(kin.casefold(), kin)
        for signal in turn.signals:
            if signal.kind is SignalKind.PERSON:
                name = signal.normalized or signal.text
                people.setdefault(name.casefold(), name)
                for kin in kin_spoken_of(name, turn.text, speaker=False):  # "Eva's dad": "Eva's father"
                    people.setdefault(kin.casefold(), kin)
    return sorted(people.values(), key=str.casefold)
