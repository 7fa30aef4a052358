"""The dimension aggregate: Nous deltas, materialised dimension states and SAME_AS edges.

Entities are addressed by ``entity_key`` (the case-folded name, see
``eywa.ids.entity_key``); every method is scoped to one space.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final, Literal, Protocol

from eywa.models import Cardinality, Delta, Frozen


class DimensionRecord(Frozen):
    """The materialised state of one (entity, attribute), as of its last event.

    ``state`` is the engine's JSON form (``DimensionState.to_json``); ``distribution``,
    ``mode`` and ``entropy_bits`` are copies of its public view, kept for listing and audit.
    """

    space: str
    entity_key: str
    entity: str
    attribute: str
    cardinality: Cardinality
    state: dict[str, Any]
    distribution: dict[str, float]
    mode: str | None
    entropy_bits: float
    updated_at: datetime | None
    recorded_at: datetime
    delta_count: int

    @property
    def cited(self) -> tuple[str, ...] | None:
        """The ids of the deltas a state answer can cite (``eywa.nous.citations``: a few per
        value, however long the history), as the engine records them in ``state``; None
        for a state saved before they were recorded."""
        ids = self.state.get("cited")
        return None if ids is None else tuple(str(i) for i in ids)


class SameAsEdge(Frozen):
    """An accepted identity merge. Removing it (undo) keeps the row with ``removed_at`` set.

    ``author`` accepted it (a key id over HTTP and MCP, ``cli`` from the shell, ``local`` from
    Python); ``removed_by`` undid it: an author the same way, or ``erasure:<id>`` when an
    erasure took away the evidence it rested on (``eywa.erasure.merges``).
    """

    space: str
    source: str
    target: str
    score: float
    at: datetime
    removed_at: datetime | None = None
    author: str | None = None
    removed_by: str | None = None

    @property
    def active(self) -> bool:
        """Whether reads follow this edge."""
        return self.removed_at is None


@dataclass(frozen=True)
class DimensionView:
    """What one recall reads of the dimension store, read at once (``recall_dimensions``).

    ``same_as``: the space's active merge edges, as ``same_as(space)`` gives them;
    ``dimensions``: for each entity key asked, ``dimensions(space, key)``; ``deltas``: for
    each (entity key, attribute) asked, ``deltas(space, key, attribute)``, or, for the pairs
    in ``cited``, only those of its deltas its state cites (``DimensionRecord.cited``), in
    the same order.
    """

    same_as: list[SameAsEdge] = field(default_factory=list)
    dimensions: dict[str, list[DimensionRecord]] = field(default_factory=dict)
    deltas: dict[tuple[str, str], list[Delta]] = field(default_factory=dict)
    cited: frozenset[tuple[str, str]] = frozenset()


DeltaSelection = Literal["all", "cited"]
"""Which deltas ``recall_dimensions`` reads: every one, or only those a state answer can cite."""


UNCHECKED: Final = "unchecked"
"""``DimensionStore.save(..., read=UNCHECKED)``: overwrite whatever is stored (a restore)."""
ReadState = DimensionRecord | None | Literal["unchecked"]
"""What ``DimensionStore.save``'s caller computed from: the state it read (None: none was
stored), or ``UNCHECKED``."""


class DimensionMoved(Exception):
    """``DimensionStore.save`` refused: the stored state is no longer the one its caller read
    (another process saved the dimension meanwhile); ``eywa.nous.ledger`` reads it again."""


def same_version(stored: DimensionRecord | None, read: DimensionRecord | None) -> bool:
    """Whether ``stored`` is the state ``read`` was: each save stamps ``recorded_at``."""
    if stored is None or read is None:
        return stored is None and read is None
    return (stored.recorded_at, stored.delta_count) == (read.recorded_at, read.delta_count)


class DimensionStore(Protocol):
    """Persistence of the Nous layer. Writes of one dimension are atomic."""

    def save(
        self,
        record: DimensionRecord,
        deltas: Sequence[Delta],
        *,
        unless_erased: bool = False,
        read: ReadState = UNCHECKED,
    ) -> set[str]:
        """Upsert the dimension's state and the given deltas in one transaction.

        A delta whose id exists is replaced (its derived fields may have been recomputed after
        out-of-order evidence, its reliability raised by a confirmation) but keeps its
        original ``recorded_at``. With ``unless_erased``, nothing is written when a delta
        cites a tombstoned (erased) turn, checked in that transaction: returns those turns'
        ids (empty when written). The Nous update of another process may have read a belief
        before an erasure removed it and replayed the dimension (``eywa.nous.ledger``).
        Unless ``read`` is ``UNCHECKED``, it is the state (or None) the caller computed from:
        if another save came between, nothing is written and ``DimensionMoved`` is raised
        (the stored state is read under the write's lock).

        Raises:
            DimensionMoved: the stored state is not ``read``.
        """
        ...

    def existing_deltas(self, space: str, ids: Sequence[str]) -> set[str]:
        """The subset of delta ``ids`` already stored in ``space``."""
        ...

    def deltas(self, space: str, entity_key: str, attribute: str) -> list[Delta]:
        """Deltas of one dimension in event-time order (ties by id)."""
        ...

    def deltas_of_beliefs(self, space: str, belief_ids: Sequence[str]) -> list[Delta]:
        """Deltas that came from the given beliefs (erasure and repair)."""
        ...

    def remove_deltas(self, space: str, ids: Sequence[str]) -> int:
        """Delete deltas (erasure); returns how many existed. The caller rebuilds the state."""
        ...

    def delete_dimension(self, space: str, entity_key: str, attribute: str, *, read: ReadState = UNCHECKED) -> None:
        """Remove a materialised state whose last delta was erased.

        Unless ``read`` is ``UNCHECKED``, it is the state (or None) the caller found without
        deltas: if another save came between (a Nous update of another process adding a
        delta), nothing is deleted and ``DimensionMoved`` is raised, as ``save`` does; the
        erasure's replay (``eywa.nous.ledger.forget_beliefs``) then reads it again.

        Raises:
            DimensionMoved: the stored state is not ``read``.
        """
        ...

    def get(self, space: str, entity_key: str, attribute: str) -> DimensionRecord | None:
        """The materialised state, or None if the dimension was never observed."""
        ...

    def dimensions(self, space: str, entity_key: str | None = None) -> list[DimensionRecord]:
        """States of a space (or of one entity), ordered by entity then attribute."""
        ...

    def recall_dimensions(
        self,
        space: str,
        entity_keys: Sequence[str],
        pairs: Sequence[tuple[str, str]],
        deltas: DeltaSelection = "all",
    ) -> DimensionView:
        """The active merge edges of ``space``, the states of ``entity_keys`` and the deltas
        of the (entity key, attribute) ``pairs``, exactly as ``same_as``, ``dimensions`` and
        ``deltas`` give them, in one read: the recall's dimension route asks for the people
        a question names and the attributes it asks about at once.

        With ``deltas="cited"``, a pair whose state lists the deltas a state answer can cite
        (``DimensionRecord.cited``) gets only those, read by id (listed in the view's
        ``cited``): what the read costs then grows with the dimension's values, not with its
        history. A pair without such a list (a state saved before they were recorded, or no
        state) gets all its deltas."""
        ...

    def add_same_as(self, edge: SameAsEdge) -> None:
        """Record (or re-activate) a merge edge source→target."""
        ...

    def remove_same_as(self, space: str, source: str, target: str, at: datetime, by: str | None = None) -> bool:
        """Deactivate the edge in either direction, recording ``by`` as ``removed_by``; False
        when no active edge existed."""
        ...

    def delete_same_as(self, space: str, keys: Sequence[str]) -> int:
        """Delete every edge (active or undone) with an end in ``keys``; returns how many.

        Erasure only: an entity left without any evidence has an erased name, which no
        record may keep."""
        ...

    def same_as(self, space: str, include_removed: bool = False) -> list[SameAsEdge]:
        """Merge edges of a space (active ones unless ``include_removed``)."""
        ...

    def same_as_edge(self, space: str, source: str, target: str) -> SameAsEdge | None:
        """The merge edge ``source``→``target`` (entity keys; active or undone), or None: a
        keyed read, where ``same_as`` lists the whole space."""
        ...
