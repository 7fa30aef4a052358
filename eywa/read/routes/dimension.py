"""The dimension route: the dimensions of the named entities (Nous), and the answer to a
current-state question when one of them is sure of it.

The plan names (entity, attribute) pairs: the people the question names × the registry
attributes its words point at ("Where does Priya work now?" → Priya × employer, occupation),
and any dimension of theirs whose values the question names ("Does Dario still go
climbing?" → Dario × hobbies, which holds climbing).
Their dimensions, read as of the query's time, come first, each worded for the question
(``eywa.read.answers``); for a current-state question the first one whose answer reaches
``ANSWER_THRESHOLD`` is *claimed*, and the reader ranks it first. Other dimensions of the
named entities follow, ranked by word overlap with the question.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Final, TypeVar

from eywa.ids import entity_key
from eywa.nous import ledger as nous
from eywa.errors import NotFoundError
from eywa.read.answers import (
    ANSWER_THRESHOLD,
    EVENT_ATTRIBUTES,
    StateAnswer,
    asked_values,
    names_only_values,
    unrealised_plan,
)
from eywa.read.items import DimensionSource, dimension_id, dimension_key
from eywa.read.overlap import rank_by_overlap
from eywa.read.plan import Plan
from eywa.models import Delta, as_utc
from eywa.read.routes.base import Query, RouteHit
from eywa.stores.bundle import Stores
from eywa.stores.dimensions import DimensionRecord, DimensionStore, DimensionView, SameAsEdge

__all__ = ["DimensionReads", "DimensionRoute", "dimension_id", "dimension_key", "may_claim"]

_T = TypeVar("_T")


def may_claim(answer: StateAnswer, plan: Plan) -> bool:
    """Whether an answer may rank first: a current-state question about nothing but this
    person, this attribute and its values (``Plan.other_words``), a state attribute, and a
    confidence of at least ``ANSWER_THRESHOLD``. A question that names a value is answered
    only if it asks whether the value holds (yes/no): "What kind of writing does Dario do?"
    asks about the value, which the dimension does not know."""
    return (
        plan.current_state
        and answer.attribute not in EVENT_ATTRIBUTES
        and answer.confidence >= ANSWER_THRESHOLD
        and (not answer.asked or plan.shape == "yes_no")
        and names_only_values(answer, plan.other_words)
    )


class DimensionReads:
    """One recall's view of the dimension store: each read is made once.

    The Nous reads the route makes overlap: listing a person's dimensions reads every state
    and, per state, the merge edges again (``nous.identity.cluster``); answering a planned
    pair reads its state, the merge edges and its deltas again. Within one recall the store
    does not need to be asked twice (a write landing meanwhile may be seen or not either
    way). Writes go through to the store; nothing is kept beyond the route's run.
    """

    def __init__(self, store: DimensionStore) -> None:
        self._store = store
        self._reads: dict[tuple[Any, ...], Any] = {}

    def _once(self, key: tuple[Any, ...], read: Callable[[], _T]) -> _T:
        if key not in self._reads:
            self._reads[key] = read()
        value: _T = self._reads[key]
        return value

    def prefetch(self, space: str, entities: Sequence[str], attributes: Sequence[str]) -> None:
        """Read at once what the route will ask first: the merge edges, the named
        entities' states and the deltas of each (entity, attribute) the plan asks about
        (``DimensionStore.recall_dimensions``, one round trip on a server). Later reads
        of the same things are served from it; anything else is read as it is asked."""
        keys = list(dict.fromkeys(entity_key(e) for e in entities))
        names = list(dict.fromkeys(nous.registry_resolver()(a).name for a in attributes))
        view = self._store.recall_dimensions(space, keys, [(k, a) for k in keys for a in names])
        self._reads[("same_as", space, False)] = view.same_as
        for key, records in view.dimensions.items():
            self._reads[("dimensions", space, key)] = records
        for (key, attribute), deltas in view.deltas.items():
            self._reads[("deltas", space, key, attribute)] = deltas

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
        self, space: str, entity_keys: Sequence[str], pairs: Sequence[tuple[str, str]]
    ) -> DimensionView:
        return self._store.recall_dimensions(space, entity_keys, pairs)

    def deltas(self, space: str, entity_key: str, attribute: str) -> list[Delta]:
        return list(self._once(("deltas", space, entity_key, attribute),
                               lambda: self._store.deltas(space, entity_key, attribute)))  # fmt: skip

    def get(self, space: str, entity_key: str, attribute: str) -> DimensionRecord | None:
        listed = self._reads.get(("dimensions", space, entity_key))
        if listed is not None:  # the entity's states are already read: this one is among them or absent
            return next((r for r in listed if r.attribute == attribute), None)
        return self._once(("get", space, entity_key, attribute), lambda: self._store.get(space, entity_key, attribute))

    def dimensions(self, space: str, entity_key: str | None = None) -> list[DimensionRecord]:
        return list(self._once(("dimensions", space, entity_key), lambda: self._store.dimensions(space, entity_key)))

    def same_as(self, space: str, include_removed: bool = False) -> list[SameAsEdge]:
        return list(self._once(("same_as", space, include_removed), lambda: self._store.same_as(space, include_removed)))

    def save(self, record: DimensionRecord, deltas: Sequence[Delta]) -> None:
        self._store.save(record, deltas)

    def existing_deltas(self, space: str, ids: Sequence[str]) -> set[str]:
        return self._store.existing_deltas(space, ids)

    def deltas_of_beliefs(self, space: str, belief_ids: Sequence[str]) -> list[Delta]:
        return self._store.deltas_of_beliefs(space, belief_ids)

    def remove_deltas(self, space: str, ids: Sequence[str]) -> int:
        return self._store.remove_deltas(space, ids)

    def delete_dimension(self, space: str, entity_key: str, attribute: str) -> None:
        self._store.delete_dimension(space, entity_key, attribute)

    def add_same_as(self, edge: SameAsEdge) -> None:
        self._store.add_same_as(edge)

    def remove_same_as(self, space: str, source: str, target: str, at: datetime, by: str | None = None) -> bool:
        return self._store.remove_same_as(space, source, target, at, by)

    def delete_same_as(self, space: str, keys: Sequence[str]) -> int:
        return self._store.delete_same_as(space, keys)


class DimensionRoute:
    """Dimension lines of the named entities; the planned (entity, attribute) pairs first,
    the confident answer to a current-state question claimed."""

    name: Final = "dimension"

    def __init__(self, stores: Stores) -> None:
        self._stores = stores

    def run(self, query: Query) -> list[RouteHit]:
        plan = query.plan
        if not plan.entities:
            return []
        reads = DimensionReads(self._stores.dimensions)
        reads.prefetch(query.space, plan.entities, plan.attributes)
        if query.as_of is not None:
            reads.prefetch_history(query.space, plan.entities, query.as_of)
        listed = {
            subject: nous.list_dimensions(reads, query.space, subject, query.as_of) for subject in plan.entities
        }
        # The pairs to answer: the planned attributes of each named entity; when the question
        # names no attribute, its dimensions whose values the question names ("Does Dario
        # still go climbing?" names a value of his hobbies without saying "hobby"). With an
        # attribute named, a value of another one is a modifier ("What type of diet do
        # Dario's turtles have?").
        pairs = [(subject, attribute) for subject in plan.entities for attribute in plan.attributes]
        if not plan.attributes:
            pairs += [
                (subject, dim.attribute) for subject, dims in listed.items() for dim in dims
                if asked_values(query.text, dim)
            ]  # fmt: skip
        planned = self._planned(query, pairs, reads)
        seen = {h.id for h in planned}
        # The rest needs only which attributes and values exist: rank by overlap; the source
        # words the few that get hydrated, as of the query's time.
        candidates = [
            ("dimension", dimension_id(dim.entity, dim.attribute),
             f"{dim.attribute.replace('_', ' ')} {' '.join(dim.distribution)}", 1.0)
            for dims in listed.values()
            for dim in dims
            if dimension_id(dim.entity, dim.attribute) not in seen
        ]  # fmt: skip
        ranked = rank_by_overlap(query.text, candidates)
        rest = [RouteHit("dimension", i, score) for _, i, score in ranked]
        return (planned + rest)[: query.limit]

    def _planned(self, query: Query, pairs: Sequence[tuple[str, str]], reads: DimensionReads) -> list[RouteHit]:
        """The pairs' answers: claimed ones first (in the pairs' order), then by confidence."""
        source = DimensionSource(reads, self._stores.evidence)
        claimed: list[RouteHit] = []
        others: list[RouteHit] = []
        done: set[tuple[str, str]] = set()
        answered: list[tuple[str, str, StateAnswer]] = []
        for subject, attribute in pairs:
            if (entity_key(subject), attribute) in done:
                continue
            done.add((entity_key(subject), attribute))
            answer = source.answer(query.space, subject, attribute, query.text, query.as_of)
            if answer is not None:
                answered.append((subject, attribute, answer))
        # The turns of every answer, read at once.
        turns = source.turns(query.space, [i for _, _, answer in answered for i in answer.evidence_ids])
        for subject, attribute, answer in answered:
            item = source.item(query.space, answer, query.as_of, turns)
            if item is None:
                continue
            claim = may_claim(answer, query.plan)
            if not claim and (unrealised := self._unrealised_plan(query, subject, attribute, answer, reads)) is not None:
                answer, claim = unrealised, True
                item = source.item(query.space, answer, query.as_of) or item
            hit = RouteHit("dimension", item.id, answer.confidence, claim=claim, item=item)
            (claimed if claim else others).append(hit)
        others.sort(key=lambda h: -h.score)
        return claimed + others

    def _unrealised_plan(
        self, query: Query, subject: str, attribute: str, answer: StateAnswer, reads: DimensionReads
    ) -> StateAnswer | None:
        """For a past-tense yes/no question about a state attribute with no time window, the
        confident answer "not <value>, only planned/hedged" when the subject's plans hold the
        named value only tentatively (``eywa.read.answers.unrealised_plan``)."""
        plan = query.plan
        if plan.shape != "yes_no" or plan.current_state or plan.window is not None or attribute in EVENT_ATTRIBUTES:
            return None
        try:
            dimension = nous.get_dimension(reads, query.space, subject, attribute, query.as_of)
        except NotFoundError:
            return None
        plans = [
            d for d in nous.list_deltas(reads, query.space, subject, "plans")
            if query.as_of is None or d.at <= query.as_of
        ]  # fmt: skip
        # The value the question names: its other words, and the names of the other
        # entities it names ("Did Ines move to Lisbury?" names the place Lisbury).
        named = [w for e in plan.entities if entity_key(e) != entity_key(subject) for w in e.split()]
        found = unrealised_plan(answer, dimension, plans, (*named, *plan.other_words))
        return found if found is not None and found.confidence >= ANSWER_THRESHOLD else None
