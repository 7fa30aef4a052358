"""The Nous ledger: store I/O of dimensions and deltas (apply observations, read, replay,
resolve identity). ``Memory`` and the Level 1 workflow call it.

Dependencies come in as arguments (a ``DimensionStore``, an attribute resolver, the
``NousParams``); nothing here reads settings or the clock except for ``recorded_at``.

What "immutable delta" means here. A delta has two parts:

* the *observation* it records: id (derived from space, entity, attribute and belief),
  observed value, polarity, modality, reliability, change signal, event time, record time,
  belief and evidence ids. These never change once written, and re-applying the same
  belief writes nothing (the id already exists). The one exception is a person's
  decision: confirming a belief raises its reliability (``reweigh_beliefs``), and the
  dimension is replayed as if it had entered that way.
* the *derived* fields: prior, posterior, surprise, hazard. They are a pure function of the
  observations of the dimension up to that delta **in event-time order**. When evidence
  arrives out of order (an older turn ingested later), the dimension is rebuilt by replaying
  all its observations by event time and the derived fields of the later deltas are
  recomputed, so every stored delta and the materialised state are exactly what in-order
  ingestion would have produced. Ingestion order is kept in ``recorded_at``.

The alternative, freezing derived fields as first computed, would leave a delta log whose
priors and posteriors chain into nothing a replay can reproduce, and the audit question
"why is the mode X?" would get an answer that depends on when turns happened to be ingested.
Erasure uses the same replay (``forget_beliefs``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Final, TypeVar

from eywa.errors import NotFoundError, StoreError
from eywa.ids import entity_key
from eywa.models import Delta, Dimension, as_utc, utc_now
from eywa.nous import engine
from eywa.nous.engine import DimensionState
from eywa.nous.identity import (
    MergeProposal,
    accept_merge,
    cluster,
    name_compatibility,
    undo_merge,
)
from eywa.nous.identity import merge_holds as _merge_holds
from eywa.nous.identity import propose_merges as _propose_merges
from eywa.nous.observations import Observation
from eywa.nous.params import DEFAULT_PARAMS, AttributeSpecLike, NousParams
from eywa.stores.dimensions import DimensionMoved, DimensionRecord, DimensionStore

T = TypeVar("T")

SpecResolver = Callable[[str], AttributeSpecLike]

__all__ = [
    "MergeProposal",
    "SpecResolver",
    "accept_merge",
    "apply_beliefs",
    "forget_beliefs",
    "get_dimension",
    "list_deltas",
    "list_dimensions",
    "merge_holds",
    "name_compatibility",
    "propose_merges",
    "registry_resolver",
    "reweigh_beliefs",
    "set_members",
    "undo_merge",
]


def registry_resolver() -> SpecResolver:
    """``eywa.attributes.get_attribute``, imported lazily so the math never depends on it."""
    from eywa.attributes import get_attribute

    return get_attribute


def _resolver(spec_for: SpecResolver | None) -> SpecResolver:
    return spec_for if spec_for is not None else registry_resolver()


def _record(
    state: DimensionState, space: str, key: str, entity: str, attribute: str, count: int,
    recorded_at: datetime,
) -> DimensionRecord:  # fmt: skip
    view = engine.to_dimension(state, space, entity, attribute, None)
    return DimensionRecord(
        space=space, entity_key=key, entity=entity, attribute=attribute,
        cardinality=state.cardinality, state=state.to_json(), distribution=view.distribution,
        mode=view.mode, entropy_bits=view.entropy_bits, updated_at=state.last_at,
        recorded_at=recorded_at, delta_count=count,
    )  # fmt: skip


def apply_beliefs(
    store: DimensionStore,
    observations: Sequence[Observation],
    *,
    spec_for: SpecResolver | None = None,
    params: NousParams = DEFAULT_PARAMS,
    recorded_at: datetime | None = None,
) -> list[Delta]:
    """Apply observations to their dimensions; returns the deltas that were new.

    Idempotent: an observation whose delta exists (same space, entity, attribute, belief) is
    skipped. Observations that predate a dimension's last event trigger a rebuild by replay
    in event-time order (see the module docstring), so the result never depends on the order
    in which turns were ingested.

    Example:
        >>> apply_beliefs(store, [observation])  # doctest: +SKIP
        [Delta(...)]
    """
    resolve = _resolver(spec_for)
    now = as_utc(recorded_at) if recorded_at is not None else utc_now()
    groups: dict[tuple[str, str, str], list[Observation]] = defaultdict(list)
    specs: dict[str, AttributeSpecLike] = {}
    for obs in observations:
        spec = resolve(obs.attribute)
        specs[spec.name] = spec
        canonical = obs.model_copy(update={"attribute": spec.name})
        groups[(obs.space, entity_key(obs.entity), spec.name)].append(canonical)
    created: list[Delta] = []
    for (space, key, attribute), group in groups.items():
        created.extend(_apply_group(store, space, key, specs[attribute], group, params, now))
    return created


def _apply_group(
    store: DimensionStore,
    space: str,
    key: str,
    spec: AttributeSpecLike,
    group: Sequence[Observation],
    params: NousParams,
    now: datetime,
) -> list[Delta]:
    by_id = {engine.observation_key(o)[1]: o for o in group}
    existing = store.existing_deltas(space, list(by_id))
    fresh = [o for i, o in by_id.items() if i not in existing]
    erased: set[str] = set()
    while fresh:
        created, refused = _stable(lambda: _try_group(store, space, key, spec, fresh, erased, params, now))
        if not refused:
            return created
        erased |= refused  # grows each time (what it holds is left out), so this ends
        fresh = [o for o in fresh if erased.isdisjoint(o.evidence_ids)]
    return []


def _try_group(
    store: DimensionStore,
    space: str,
    key: str,
    spec: AttributeSpecLike,
    fresh: Sequence[Observation],
    erased: set[str],
    params: NousParams,
    now: datetime,
) -> tuple[list[Delta], set[str]]:
    """One attempt of ``_apply_group``: the new deltas, or nothing and the erased turns a
    delta cited (the observations were read before an erasure that has since committed:
    another process's Nous step beside an erasure; those turns' deltas are left out and the
    dimension read again)."""
    record = store.get(space, key, spec.name)
    first_new = min(engine.observation_key(o) for o in fresh)
    incremental = record is None or (
        record.cardinality == spec.cardinality
        and (record.updated_at is None or first_new[0] > record.updated_at)
        and DimensionState.has_history(record.state)
        and DimensionState.has_citations(record.state)
    )
    entity = record.entity if record is not None else fresh[0].entity
    if incremental:
        start = DimensionState.from_json(record.state) if record is not None else None
        state, steps = engine.replay(fresh, spec.cardinality, spec.tau_days, params, start)
        deltas = [engine.make_delta(o, r, now) for o, r in steps]
        count = (record.delta_count if record is not None else 0) + len(deltas)
        refused = store.save(
            _record(state, space, key, entity, spec.name, count, now), deltas, unless_erased=True, read=record
        )
        return ([], refused) if refused else (deltas, set())
    # Deltas of erased turns still stored are the erasure's to remove (it replays after).
    old = [d for d in store.deltas(space, key, spec.name) if erased.isdisjoint(d.evidence_ids)]
    recorded = {d.id: d.recorded_at for d in old}
    everything = [*(engine.observation_of(d) for d in old), *fresh]
    state, steps = engine.replay(everything, spec.cardinality, spec.tau_days, params)
    deltas = [engine.make_delta(o, r, now) for o, r in steps]
    deltas = [d.model_copy(update={"recorded_at": recorded.get(d.id, now)}) for d in deltas]
    refused = store.save(
        _record(state, space, key, entity, spec.name, len(deltas), now), deltas, unless_erased=True, read=record
    )
    if refused:
        return [], refused
    new_ids = {engine.observation_key(o)[1] for o in fresh}
    return [d for d in deltas if d.id in new_ids], set()


def forget_beliefs(
    store: DimensionStore,
    space: str,
    belief_ids: Sequence[str],
    *,
    spec_for: SpecResolver | None = None,
    params: NousParams = DEFAULT_PARAMS,
    recorded_at: datetime | None = None,
) -> int:
    """Erase the deltas of ``belief_ids`` and rebuild the dimensions they touched by replay.

    Returns the number of deltas removed.
    """
    resolve = _resolver(spec_for)
    now = as_utc(recorded_at) if recorded_at is not None else utc_now()
    doomed = store.deltas_of_beliefs(space, belief_ids)
    touched = {(entity_key(d.entity), d.attribute) for d in doomed}
    removed = store.remove_deltas(space, [d.id for d in doomed])
    for key, attribute in sorted(touched):
        _stable(lambda: _replay_remaining(store, space, key, attribute, resolve, params, now))
    return removed


def _replay_remaining(
    store: DimensionStore,
    space: str,
    key: str,
    attribute: str,
    resolve: Callable[[str], AttributeSpecLike],
    params: NousParams,
    now: datetime,
) -> None:
    """One attempt of ``forget_beliefs`` on one dimension: its state replayed from the
    deltas it holds now. The state is read first, the deltas after, and the save checks the
    state is still the one read (``DimensionMoved``: another process saved it between), and so
    does the delete of a state left without deltas (a save landing between would be lost)."""
    record = store.get(space, key, attribute)
    remaining = store.deltas(space, key, attribute)
    if not remaining or record is None:
        store.delete_dimension(space, key, attribute, read=record)
        return
    spec = resolve(attribute)
    state, steps = engine.replay([engine.observation_of(d) for d in remaining], record.cardinality, spec.tau_days, params)
    recorded = {d.id: d.recorded_at for d in remaining}
    deltas = [
        engine.make_delta(o, r, now).model_copy(update={"recorded_at": recorded[engine.observation_key(o)[1]]})
        for o, r in steps
    ]
    store.save(_record(state, space, key, record.entity, attribute, len(deltas), now), deltas, read=record)


_MOVES: Final = 64
"""How many times a dimension may be saved by others while one writer computes it."""


def _stable(step: Callable[[], T]) -> T:
    """``step`` again while another process saved its dimension in between (optimistic
    concurrency: the API's replays do not hold the workers' per-dimension lease).

    Raises:
        StoreError: the dimension moved ``_MOVES`` times in a row.
    """
    for _ in range(_MOVES):
        try:
            return step()
        except DimensionMoved:
            continue
    raise StoreError("dimension", "save dimension", f"saved by others {_MOVES} times while computed")


def reweigh_beliefs(
    store: DimensionStore,
    space: str,
    reliabilities: Mapping[str, float],
    *,
    spec_for: SpecResolver | None = None,
    params: NousParams = DEFAULT_PARAMS,
    recorded_at: datetime | None = None,
) -> list[Delta]:
    """Give the deltas of some beliefs a new reliability and replay the dimensions they touch.

    A correction (a person confirming a belief) changes what an observation is worth, not
    what was observed: the dimension is rebuilt in event time exactly as if the belief had
    entered with that reliability. Returns the reweighed deltas (empty when the beliefs
    observe no dimension).
    """
    resolve = _resolver(spec_for)
    now = as_utc(recorded_at) if recorded_at is not None else utc_now()
    touched = {(entity_key(d.entity), d.attribute) for d in store.deltas_of_beliefs(space, list(reliabilities))}
    changed: list[Delta] = []
    for key, attribute in sorted(touched):
        deltas = _stable(lambda: _reweigh_one(store, space, key, attribute, reliabilities, resolve, params, now))
        changed.extend(d for d in deltas if d.belief_id in reliabilities)
    return changed


def _reweigh_one(
    store: DimensionStore,
    space: str,
    key: str,
    attribute: str,
    reliabilities: Mapping[str, float],
    resolve: Callable[[str], AttributeSpecLike],
    params: NousParams,
    now: datetime,
) -> list[Delta]:
    """One attempt of ``reweigh_beliefs`` on one dimension: replayed from the deltas it holds
    now, saved only if its state is still the one read (``DimensionMoved`` otherwise: another
    process's Nous update saved between, and its observation would be lost from the state)."""
    record = store.get(space, key, attribute)
    remaining = store.deltas(space, key, attribute)
    if record is None or not remaining:
        return []
    observations = [
        engine.observation_of(d).model_copy(update={"reliability": reliabilities[d.belief_id]})
        if d.belief_id in reliabilities else engine.observation_of(d)
        for d in remaining
    ]  # fmt: skip
    state, steps = engine.replay(observations, record.cardinality, resolve(attribute).tau_days, params)
    recorded = {d.id: d.recorded_at for d in remaining}
    deltas = [
        engine.make_delta(o, r, now).model_copy(update={"recorded_at": recorded[engine.observation_key(o)[1]]})
        for o, r in steps
    ]
    store.save(_record(state, space, key, record.entity, attribute, len(deltas), now), deltas, read=record)
    return deltas


def list_deltas(
    store: DimensionStore,
    space: str,
    entity: str,
    attribute: str,
    *,
    spec_for: SpecResolver | None = None,
    follow_same_as: bool = True,
) -> list[Delta]:
    """Every delta of the dimension (and of merged entities), in event-time order."""
    name = _resolver(spec_for)(attribute).name
    key = entity_key(entity)
    keys = cluster(store, space, key) if follow_same_as else {key}
    deltas = [d for k in sorted(keys) for d in store.deltas(space, k, name)]
    return sorted(deltas, key=lambda d: (d.at, d.id))


def get_dimension(
    store: DimensionStore,
    space: str,
    entity: str,
    attribute: str,
    as_of: datetime | None = None,
    *,
    spec_for: SpecResolver | None = None,
    params: NousParams = DEFAULT_PARAMS,
    follow_same_as: bool = True,
) -> Dimension:
    """The dimension of (entity, attribute) at ``as_of``; merged entities are read as one.

    Without ``as_of`` the state is read at its last event (no decay): the freshest knowledge.
    With ``as_of`` only deltas at or before it count and the state decays lazily from its
    last event to ``as_of``.

    Raises:
        NotFoundError: nothing was observed about (entity, attribute) by ``as_of``.
    """
    spec = _resolver(spec_for)(attribute)
    key = entity_key(entity)
    keys = cluster(store, space, key) if follow_same_as else {key}
    when = None if as_of is None else as_utc(as_of)
    record = store.get(space, key, spec.name)
    state: DimensionState | None = None
    cardinality = record.cardinality if record is not None else spec.cardinality
    if len(keys) == 1 and record is not None and DimensionState.has_history(record.state):
        state = DimensionState.from_json(record.state)
        if when is not None and state.last_at is not None and when < state.last_at:
            state = None
    if state is None:
        deltas = list_deltas(store, space, entity, spec.name, spec_for=lambda _: spec,
                             follow_same_as=follow_same_as)  # fmt: skip
        deltas = [d for d in deltas if when is None or d.at <= when]
        if not deltas:
            raise NotFoundError("dimension", space, f"{entity}/{spec.name}")
        state = engine.replay_deltas(deltas, cardinality, spec.tau_days, params)
    state = engine.decay_to(state, when, spec.tau_days, params)
    display = record.entity if record is not None else entity
    return engine.to_dimension(state, space, display, spec.name, when)


def list_dimensions(
    store: DimensionStore,
    space: str,
    entity: str | None = None,
    as_of: datetime | None = None,
    *,
    spec_for: SpecResolver | None = None,
    params: NousParams = DEFAULT_PARAMS,
) -> list[Dimension]:
    """Dimensions of one entity (merges followed) or of every entity of the space.

    Dimensions with nothing observed by ``as_of`` are left out.
    """
    # An entity without merges is its own cluster: its dimensions need not look the
    # merges up again, one read per dimension (the recall's dimension route lists them).
    follow = True
    if entity is not None:
        keys = cluster(store, space, entity_key(entity))
        follow = len(keys) > 1
        pairs = sorted({(entity, r.attribute) for k in keys for r in store.dimensions(space, k)})
    else:
        pairs = [(r.entity, r.attribute) for r in store.dimensions(space)]
    found: list[Dimension] = []
    for name, attribute in pairs:
        try:
            found.append(get_dimension(
                store, space, name, attribute, as_of, spec_for=spec_for, params=params,
                follow_same_as=follow,
            ))  # fmt: skip
        except NotFoundError:
            continue
    return found


def set_members(
    dimension: Dimension,
    deltas: Sequence[Delta],
    *,
    theta_min_bits: float | None = None,
    floor: float | None = None,
    params: NousParams = DEFAULT_PARAMS,
) -> list[str]:
    """The values a "list them all" question should name, most probable first.

    A value is listed when its latest delta is positive (a later "I quit" removes it) and
    either its probability is at least ``floor`` or one of its reliable positive deltas was
    at least ``theta_min_bits`` surprising: the delta log remembers what was once news even
    after silence has decayed it.
    """
    theta = params.theta_min_bits if theta_min_bits is None else theta_min_bits
    cut = params.set_floor if floor is None else floor
    latest: dict[str, Delta] = {}
    notable: set[str] = set()
    for d in sorted(deltas, key=lambda d: (d.at, d.id)):
        value = d.observed.casefold()
        latest[value] = d
        reliable = d.reliability >= params.set_min_reliability
        if d.polarity == "positive" and reliable and d.surprise_bits >= theta:
            notable.add(value)
    members: list[tuple[float, str]] = []
    for value, probability in dimension.distribution.items():
        last = latest.get(value.casefold())
        if last is None or last.polarity != "positive":
            continue
        if probability >= cut or value.casefold() in notable:
            members.append((probability, value))
    return [v for _, v in sorted(members, key=lambda m: (-m[0], m[1]))]


def propose_merges(
    store: DimensionStore,
    space: str,
    entities: Sequence[str],
    *,
    as_of: datetime | None = None,
    spec_for: SpecResolver | None = None,
    params: NousParams = DEFAULT_PARAMS,
) -> list[MergeProposal]:
    """Merge proposals among ``entities`` (see ``eywa.nous.identity``), τ from the registry."""
    resolve = _resolver(spec_for)
    attributes = {r.attribute for e in entities for r in store.dimensions(space, entity_key(e))}
    taus = {a: resolve(a).tau_days for a in attributes}
    return _propose_merges(store, space, entities, tau_days=taus, as_of=as_of, params=params)


def merge_holds(
    store: DimensionStore,
    space: str,
    source: str,
    target: str,
    *,
    as_of: datetime | None = None,
    spec_for: SpecResolver | None = None,
    params: NousParams = DEFAULT_PARAMS,
) -> bool:
    """Whether ``propose_merges``' test still holds for ``source`` and ``target`` (τ from the
    registry, as there)."""
    resolve = _resolver(spec_for)
    attributes = {r.attribute for e in (source, target) for r in store.dimensions(space, entity_key(e))}
    taus = {a: resolve(a).tau_days for a in attributes}
    return _merge_holds(store, space, source, target, tau_days=taus, as_of=as_of, params=params)
