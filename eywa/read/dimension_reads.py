"""One recall's view of the dimension store (``DimensionReads``), shared by the dimension
route and the dimension items' source: each read is made once, the first ones together."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Literal, TypeVar

from eywa.ids import entity_key
from eywa.models import Delta, as_utc
from eywa.nous import ledger as nous
from eywa.stores.dimensions import (
    UNCHECKED,
    DeltaSelection,
    DimensionRecord,
    DimensionStore,
    DimensionView,
    ReadState,
    SameAsEdge,
)

__all__ = ["DimensionReads"]

_T = TypeVar("_T")


class DimensionReads:
    """One recall's view of the dimension store: each read is made once.

    The Nous reads the route makes overlap: listing a person's dimensions reads every state
    and, per state, the merge edges again (``nous.identity.cluster``); answering a planned
    pair reads its state, the merge edges and its deltas again. Within one recall the store
    does not need to be asked twice (a write landing meanwhile may be seen or not either
    way). Writes go through to the store; nothing is kept beyond the route's run.
    """

    def __init__(self, store: DimensionStore, *, cited_as_of: datetime | None | Literal["unknown"] = "unknown") -> None:
        """``cited_as_of``: the time every answer of this recall is read as of (None: now).
        Given, ``prefetch`` reads only the deltas a state answer can cite of each pair whose
        state lists them (``DimensionStore.recall_dimensions(..., deltas="cited")``), and
        ``deltas`` gives those where an answer as of that time needs nothing else: one
        entity key (a merged cluster is replayed from all its deltas) and a state last
        changed by then (an earlier one is replayed too). Left "unknown", every delta."""
        self._store = store
        self._reads: dict[tuple[Any, ...], Any] = {}
        self._cited_as_of = cited_as_of

    def _once(self, key: tuple[Any, ...], read: Callable[[], _T]) -> _T:
        if key not in self._reads:
            self._reads[key] = read()
        value: _T = self._reads[key]
        return value

    def prefetch(
        self, space: str, entities: Sequence[str], attributes: Sequence[str], also: Sequence[tuple[str, str]] = ()
    ) -> None:
        """Read at once what the route will ask first: the merge edges, the named
        entities' states and the deltas of each (entity, attribute) the plan asks about,
        and of the pairs ``also`` (``DimensionStore.recall_dimensions``, one round trip on
        a server). Later reads of the same things are served from it; anything else is
        read as it is asked."""
        self._prefetch(space, entities, [*((e, a) for e in entities for a in attributes), *also])

    def prefetch_pairs(self, space: str, pairs: Sequence[tuple[str, str]]) -> None:
        """``prefetch`` for the given (entity, attribute) pairs only: the merge edges, the
        pairs' entities' states and each pair's deltas, in one read."""
        self._prefetch(space, [entity for entity, _ in pairs], pairs)

    def _prefetch(self, space: str, entities: Sequence[str], pairs: Sequence[tuple[str, str]]) -> None:
        resolve = nous.registry_resolver()
        keys = list(dict.fromkeys(entity_key(e) for e in entities))
        wanted = list(dict.fromkeys((entity_key(e), resolve(a).name) for e, a in pairs))
        selection: DeltaSelection = "all" if self._cited_as_of == "unknown" else "cited"
        view = self._store.recall_dimensions(space, keys, wanted, selection)
        self._reads[("same_as", space, False)] = view.same_as
        for key, records in view.dimensions.items():
            self._reads[("dimensions", space, key)] = records
        for (key, attribute), deltas in view.deltas.items():
            kind = "cited" if (key, attribute) in view.cited else "deltas"
            self._reads[(kind, space, key, attribute)] = deltas

    def prefetch_deltas(self, space: str, pairs: Sequence[tuple[str, str]]) -> None:
        """Read at once the deltas of the (entity key, attribute) ``pairs`` not read yet (the
        cited ones where ``cited_as_of`` allows, see ``__init__``): the route's pairs found
        after the first read, whose deltas were otherwise read one pair at a time."""
        resolve = nous.registry_resolver()
        wanted = [
            (key, attribute) for key, attribute in dict.fromkeys((k, resolve(a).name) for k, a in pairs)
            if ("deltas", space, key, attribute) not in self._reads and ("cited", space, key, attribute) not in self._reads
        ]  # fmt: skip
        if not wanted:
            return
        selection: DeltaSelection = "all" if self._cited_as_of == "unknown" else "cited"
        view = self._store.recall_dimensions(space, [], wanted, selection)
        for (key, attribute), deltas in view.deltas.items():
            kind = "cited" if (key, attribute) in view.cited else "deltas"
            self._reads[(kind, space, key, attribute)] = deltas

    def prefetch_history(self, space: str, entities: Sequence[str], as_of: datetime) -> None:
        """Read at once the deltas of the named entities' dimensions that changed after
        ``as_of``: a state read as of an earlier time is replayed from its deltas, one read
        per dimension otherwise. Call after ``prefetch`` (it looks at the states read)."""
        when = as_utc(as_of)
        pairs = [
            (key, record.attribute)
            for key in dict.fromkeys(entity_key(e) for e in entities)
            for record in self._reads.get(("dimensions", space, key), [])
            if (record.updated_at is None or record.updated_at > when)
            and ("deltas", space, key, record.attribute) not in self._reads
        ]  # fmt: skip
        if pairs:
            for (key, attribute), deltas in self._store.recall_dimensions(space, [], pairs).deltas.items():
                self._reads[("deltas", space, key, attribute)] = deltas

    def recall_dimensions(
        self,
        space: str,
        entity_keys: Sequence[str],
        pairs: Sequence[tuple[str, str]],
        deltas: DeltaSelection = "all",
    ) -> DimensionView:
        return self._store.recall_dimensions(space, entity_keys, pairs, deltas)

    def deltas(self, space: str, entity_key: str, attribute: str) -> list[Delta]:
        """Every delta of the pair, or its cited ones where they answer the same (see
        ``__init__``)."""
        key = ("deltas", space, entity_key, attribute)
        if key not in self._reads and (cited := self._reads.get(("cited", space, entity_key, attribute))) is not None:
            if self._cited_suffice(space, entity_key, attribute):
                return list(cited)
        return list(self._once(key, lambda: self._store.deltas(space, entity_key, attribute)))

    def _cited_suffice(self, space: str, key: str, attribute: str) -> bool:
        """Whether an answer as of ``cited_as_of`` reads the same from the cited deltas: the
        key is merged with no other (merges read as of now: the recall's edges) and its
        state (read with the prefetch) changed last by then."""
        if self._cited_as_of == "unknown":
            return False
        edges = self.same_as(space)
        if any(key in (edge.source, edge.target) for edge in edges):
            return False
        record = self.get(space, key, attribute)
        if record is None or record.updated_at is None:
            return False
        return self._cited_as_of is None or record.updated_at <= as_utc(self._cited_as_of)

    def get(self, space: str, entity_key: str, attribute: str) -> DimensionRecord | None:
        listed = self._reads.get(("dimensions", space, entity_key))
        if listed is not None:  # the entity's states are already read: this one is among them or absent
            return next((r for r in listed if r.attribute == attribute), None)
        return self._once(("get", space, entity_key, attribute), lambda: self._store.get(space, entity_key, attribute))

    def dimensions(self, space: str, entity_key: str | None = None) -> list[DimensionRecord]:
        return list(self._once(("dimensions", space, entity_key), lambda: self._store.dimensions(space, entity_key)))

    def same_as(self, space: str, include_removed: bool = False) -> list[SameAsEdge]:
        return list(self._once(("same_as", space, include_removed), lambda: self._store.same_as(space, include_removed)))

    def same_as_edge(self, space: str, source: str, target: str) -> SameAsEdge | None:
        return self._store.same_as_edge(space, source, target)  # a write path's read: not one recall's

    def save(
        self,
        record: DimensionRecord,
        deltas: Sequence[Delta],
        *,
        unless_erased: bool = False,
        read: ReadState = UNCHECKED,
    ) -> set[str]:
        return self._store.save(record, deltas, unless_erased=unless_erased, read=read)

    def existing_deltas(self, space: str, ids: Sequence[str]) -> set[str]:
        return self._store.existing_deltas(space, ids)

    def deltas_of_beliefs(self, space: str, belief_ids: Sequence[str]) -> list[Delta]:
        return self._store.deltas_of_beliefs(space, belief_ids)

    def remove_deltas(self, space: str, ids: Sequence[str]) -> int:
        return self._store.remove_deltas(space, ids)

    def delete_dimension(self, space: str, entity_key: str, attribute: str, *, read: ReadState = UNCHECKED) -> None:
        self._store.delete_dimension(space, entity_key, attribute, read=read)

    def add_same_as(self, edge: SameAsEdge) -> None:
        self._store.add_same_as(edge)

    def remove_same_as(self, space: str, source: str, target: str, at: datetime, by: str | None = None) -> bool:
        return self._store.remove_same_as(space, source, target, at, by)

    def delete_same_as(self, space: str, keys: Sequence[str]) -> int:
        return self._store.delete_same_as(space, keys)
