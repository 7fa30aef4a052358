"""Dimension state, one update step, replay and lazy decay, on top of ``eywa.nous.math``.

Still pure (no store): the ledger folds observations through ``step`` and persists what
comes out. A state is a plain JSON-able value, so the incremental path (load, step, save)
and the replay path (fold from empty) run the same float operations in the same order and
produce identical states.

Besides the probabilities, the fold keeps what "as of the last evidence" needs: the last
observation, and the change point of the mode (since when it has been held, and what it
replaced) or, for multi-valued dimensions, since when each value has been a member (the start the evidence
states when it states an earlier one than the time said: ``Held``). They
are folded in event-time order like everything else, so they too are a pure function of the
delta log up to a given time.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from eywa.ids import entity_key, stable_id
from eywa.models import Cardinality, Delta, Dimension, ObservedValue, as_utc
from eywa.nous import math as nm
from eywa.nous.citations import Citations, Cited
from eywa.nous.observations import Observation
from eywa.nous.params import DEFAULT_PARAMS, NousParams

_DAY_SECONDS = 86_400.0


def delta_id(space: str, entity: str, attribute: str, belief_id: str) -> str:
    """Deterministic: re-applying the same belief to the same dimension names the same delta."""
    return stable_id("dl", space, entity_key(entity), attribute, belief_id)


def observation_key(obs: Observation) -> tuple[datetime, str]:
    """Event-time order; ties broken by delta id, which does not depend on ingestion order."""
    return obs.at, delta_id(obs.space, obs.entity, obs.attribute, obs.belief_id)


def _time(raw: str | None) -> datetime | None:
    return None if raw is None else as_utc(datetime.fromisoformat(raw))


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


@dataclass(frozen=True)
class Held:
    """The mode after the last event, since when it has been the mode, and what it replaced.

    ``since`` is the event time of the change point; the fold and the citations key on it.
    ``stated`` is the earlier start the evidence of the mode states ("I have worked at
    Google since 2015", said in 2023; ``Observation.valid_from``), and ``start`` what a
    dimension reports: the stated start when there is one, else ``since``. A later positive
    observation of the same mode may move ``stated`` back ("I work at Google" in 2022, then
    "since 2015" in 2023), never forward: an undated "I still work at Google" keeps 2015, and
    a later, narrower start of a value held all along is less than what was already said.
    A new mode has its own start (``after``).

    ``previous`` is the last value that was the mode before ``since`` ("unseen" spells are
    skipped: Google → unknown → Fernbrook has Fernbrook replace Google).
    """

    mode: str | None = None
    since: datetime | None = None
    previous: str | None = None
    stated: datetime | None = None

    @property
    def start(self) -> datetime | None:
        """Since when the mode has held, as reported: the stated start, else ``since``."""
        return self.stated if self.stated is not None else self.since

    def after(self, mode: str | None, at: datetime, start: datetime | None = None) -> Held:
        """The change point after an event at ``at`` whose outcome has mode ``mode``;
        ``start``: the start the event's observation states for ``mode``, if any."""
        earlier = start is not None and start < at
        if mode == self.mode:
            current = self.start
            if mode is not None and earlier and start is not None and (current is None or start < current):
                return replace(self, stated=start)
            return self
        return Held(mode, at, self.mode if self.mode is not None else self.previous, start if earlier else None)


@dataclass(frozen=True)
class DimensionState:
    """The materialised belief state of one dimension at its last event time.

    ``probabilities`` holds the categorical distribution (with ``UNSEEN``) of a single-valued
    dimension; ``counts`` the Beta (α, β) of each value of a multi-valued one. ``last`` is the
    last observation folded in, ``held`` the mode's change point (single-valued) and
    ``member_since`` when each current member became one (multi-valued). ``citations``:
    the deltas a state answer can cite (``eywa.nous.citations``); None for a state saved
    before they were recorded, until a replay from its first delta records them.
    """

    cardinality: Cardinality
    probabilities: dict[str, float] = field(default_factory=dict)
    counts: dict[str, tuple[float, float]] = field(default_factory=dict)
    last_at: datetime | None = None
    last: ObservedValue | None = None
    held: Held = Held()
    member_since: dict[str, datetime] = field(default_factory=dict)
    citations: Citations | None = field(default_factory=Citations)

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict; floats survive ``json`` round trips exactly."""
        return {
            "cardinality": self.cardinality,
            "probabilities": self.probabilities,
            "counts": {v: [a, b] for v, (a, b) in self.counts.items()},
            "last_at": _iso(self.last_at),
            "last": None if self.last is None else self.last.model_dump(mode="json"),
            "held": {
                "mode": self.held.mode, "since": _iso(self.held.since), "previous": self.held.previous,
                "stated": _iso(self.held.stated),
            },  # fmt: skip
            "member_since": {v: at.isoformat() for v, at in self.member_since.items()},
            # ``cited`` is what the stores read (``DimensionRecord.cited``); ``citations`` the roles.
            **({} if self.citations is None else {"citations": self.citations.to_json(), "cited": self.citations.ids()}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DimensionState:
        """The inverse of ``to_json``; states saved before ``held`` existed read as unknown."""
        held = data.get("held") or {}
        last = data.get("last")
        cited = data.get("citations")
        return cls(
            cardinality=data["cardinality"],
            probabilities={str(k): float(v) for k, v in data["probabilities"].items()},
            counts={str(k): (float(a), float(b)) for k, (a, b) in data["counts"].items()},
            last_at=_time(data.get("last_at")),
            last=None if last is None else ObservedValue.model_validate(last),
            held=Held(held.get("mode"), _time(held.get("since")), held.get("previous"), _time(held.get("stated"))),
            member_since={
                str(k): as_utc(datetime.fromisoformat(v)) for k, v in (data.get("member_since") or {}).items()
            },
            citations=None if cited is None else Citations.from_json(cited),
        )

    @staticmethod
    def has_history(data: dict[str, Any]) -> bool:
        """Whether a stored state carries the change points (saved by this version or later)."""
        return "held" in data

    @staticmethod
    def has_citations(data: dict[str, Any]) -> bool:
        """Whether a stored state records the deltas a state answer can cite (a state
        saved before that is replayed from its deltas on its next write, which records them)."""
        return "citations" in data

    def values(self) -> list[str]:
        """The known values (UNSEEN excluded)."""
        keys = self.probabilities if self.cardinality == "single" else self.counts
        return [k for k in keys if k != nm.UNSEEN]


@dataclass(frozen=True)
class StepResult:
    """A new state and what its Delta records."""

    state: DimensionState
    observed: str
    prior: dict[str, float]
    posterior: dict[str, float]
    surprise_bits: float
    hazard: float


def elapsed_days(start: datetime | None, end: datetime) -> float:
    """Event time between two instants, in days (0 when there is no start)."""
    return 0.0 if start is None else (end - start).total_seconds() / _DAY_SECONDS


def _name_words(value: str) -> list[str] | None:
    """The case-folded words of a name (a value that starts with a capital), else None."""
    words = value.split()
    return [w.casefold() for w in words] if words and words[0][:1].isupper() else None


def _short_form(a: list[str], b: list[str]) -> bool:
    """Whether one name is the leading words of the other ("Fernbrook", "Fernbrook Health")."""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return len(short) < len(long) and long[: len(short)] == short


def canonical_value(state: DimensionState, value: str) -> str:
    """The spelling already in the state for ``value``, else ``value``.

    The same words in another case are the same value. So are a name and its leading words:
    people shorten the names of employers, places and pets ("an offer from Fernbrook Health",
    then "I start at Fernbrook"), and two values for one thing would split the probability
    of the current value between them and leave the older, longer spelling as the value it
    "replaced". Only names (values that start with a capital; "meat" and "meat pies" stay
    apart), and only when exactly one known value matches, so an ambiguous short form
    ("Port" beside "Port Calder" and "Port Erin") stays a value of its own. The known
    spelling is kept, so replay in event time always picks the same one.
    """
    return _spelling(state.values(), value)


def _spelling(known: Sequence[str], value: str) -> str:
    folded = value.casefold()
    for spelled in known:
        if spelled.casefold() == folded:
            return spelled
    words = _name_words(value)
    if words is None:
        return value
    matches = [k for k in known if (other := _name_words(k)) is not None and _short_form(words, other)]
    return matches[0] if len(matches) == 1 else value


def _spellings(state: DimensionState, instant: Sequence[Observation]) -> dict[str, str]:
    """How each value said at one instant is spelled in the state: ``canonical_value``, and
    two new spellings of one value at that instant ("Fernbrook Health", "Fernbrook") take
    the one first in sort order, so the fold order of the instant does not choose it."""
    known = state.values()
    spelled: dict[str, str] = {}
    for raw in sorted({obs.value for obs in instant}):
        spelled[raw] = _spelling(known, raw)
        if spelled[raw] not in known:
            known = [*known, spelled[raw]]
    return spelled


def _observed(obs: Observation, value: str) -> ObservedValue:
    return ObservedValue(
        value=value, polarity=obs.polarity, modality=obs.modality, at=obs.at,
        belief_id=obs.belief_id, evidence_ids=obs.evidence_ids, said_at=obs.said_at,
    )  # fmt: skip


def _cite(
    citations: Citations | None, obs: Observation, value: str, surprise_bits: float,
    held: tuple[Held, Held], params: NousParams, *, states_start: bool,
) -> Citations | None:  # fmt: skip
    """The citations once ``obs`` is folded, the mode going from ``held[0]`` to ``held[1]``;
    None stays None (a state saved before citations were recorded cannot know which of its
    earlier deltas they are)."""
    if citations is None:
        return None
    cited = Cited(
        delta_id=delta_id(obs.space, obs.entity, obs.attribute, obs.belief_id), observed=value,
        positive=obs.polarity == "positive", asserted=obs.modality == "asserted",
        reliability=obs.reliability, surprise_bits=surprise_bits, at=obs.at,
    )  # fmt: skip
    before, after = held
    return citations.after(
        cited, (before.mode, before.since, before.previous), (after.mode, after.since, after.previous), params,
        states_start=states_start,
    )


def _stated_for(obs: Observation, value: str, mode: str | None) -> datetime | None:
    """The start ``obs`` states for ``mode`` (a value held since before it was said), if it
    is a positive observation of that value."""
    return obs.valid_from if obs.polarity == "positive" and mode is not None and value == mode else None


def _releases_change(obs: Observation) -> bool:
    """Whether ``obs`` says its value may have changed: a change signal, not merely hedged,
    planned or hypothetical ("I might move" releases nothing)."""
    return obs.change_signal and not obs.tentative


def _contradicts(state: DimensionState, instant: Sequence[Observation], spelled: dict[str, str]) -> bool:
    """Whether an asserted statement of the instant names a value other than the believed
    one (the mode before it) of a single-valued dimension: evidence of a change
    (``NousParams.contradiction_hazard``). Nothing believed yet, a restatement of the mode,
    a denial, a hedge or a plan says no change."""
    mode = nm.categorical_mode(state.probabilities)
    return mode is not None and any(
        obs.polarity == "positive" and obs.modality == "asserted" and spelled[obs.value] != mode for obs in instant
    )


Folded = list[tuple[Observation, StepResult]]


def fold_instant(
    state: DimensionState,
    instant: Sequence[Observation],
    tau_days: float,
    params: NousParams = DEFAULT_PARAMS,
) -> tuple[DimensionState, Folded]:
    """Fold every observation of one event time (none before ``state.last_at``) into ``state``.

    The one step of ``replay``, hence of the ledger's incremental writes, its rebuilds and
    erasure's; ``instant`` in fold order (``observation_key``).

    An instant releases a change once: "I quit Acme; I work at Globex now." makes two
    observations of the employer at one time, and each releasing the change hazard made the
    second decay the first's news toward uniform (Globex 0.92 → 0.55). The values released
    are those an observation of the instant says may have changed (``_releases_change``).

    Single-valued: one distribution, released as a whole if any value is, and the instant's
    observations enter together (``eywa.nous.math.categorical_instant``): decayed once,
    each scored against that prior, their likelihoods multiplied. Folded one by one, two
    values at one time ("I moved to Oslo." and another turn of that time saying "Porto")
    gave a distribution, a mode and deltas that depended on which came first, i.e. on the
    delta ids (``tests/unit/test_nous_single_instants.py``). Each of the instant's deltas
    records that shared prior, the posterior after the instant, its own surprise against
    the prior and the instant's hazard. The change point moves once per instant (what a
    new mode replaced is the mode before the instant); a start stated for the mode is the
    earliest one the instant states.

    Multi-valued: a Bernoulli per member, and a turn may say several ("I started eating fish
    again, so I'm pescatarian now": fish, not meat). Each member a change is said of is
    released once, and no other (a change said of the meat says nothing of the eggs), and
    every member takes its time decay, all at the start of the instant; then the
    observations add their evidence one by one (Beta updates commute up to rounding:
    ``tests/unit/test_nous_instants.py``). A step records as its hazard the one its member
    took at the instant: its first observation of the instant, 0 for later ones (they are
    scored against the member after the first).

    ``last`` (the last evidence) is the instant's last observation in fold order.
    """
    at = instant[0].at
    dt = elapsed_days(state.last_at, at)
    spelled = _spellings(state, instant)
    released = frozenset(spelled[obs.value] for obs in instant if _releases_change(obs))
    last_at = at if state.last_at is None else max(state.last_at, at)
    last = _observed(instant[-1], spelled[instant[-1].value])
    if state.last is not None and state.last.at > at:
        last = state.last
    if state.cardinality == "single":
        h = nm.hazard(dt, tau_days, bool(released), params.change_hazard)
        if _contradicts(state, instant, spelled):
            h = max(h, nm.contradiction_hazard(dt, params.contradiction_hazard, params.contradiction_days))
        return _fold_single(state, instant, spelled, h, params, last_at, last)
    hazards = {
        v: nm.hazard(dt, tau_days, v in released, params.change_hazard)
        for v in [*state.counts, *(spelled[obs.value] for obs in instant)]
    }
    return _fold_multi(state, instant, spelled, hazards, params, last_at, last)


def _fold_single(
    state: DimensionState, instant: Sequence[Observation], spelled: dict[str, str], h: float,
    params: NousParams, last_at: datetime, last: ObservedValue,
) -> tuple[DimensionState, Folded]:  # fmt: skip
    said = [
        nm.Said(spelled[o.value], positive=o.polarity == "positive", rho=o.reliability, may_flip_mode=not o.tentative)
        for o in instant
    ]
    update = nm.categorical_instant(state.probabilities, said, h=h, unseen_split=params.unseen_split)
    mode = nm.categorical_mode(update.posterior)
    starts = [s for o in instant if (s := _stated_for(o, spelled[o.value], mode)) is not None]
    held = state.held.after(mode, instant[0].at, min(starts, default=None))
    # The delta whose start the mode now reports, if the instant set one (the first in fold
    # order that states it).
    stater = next(
        (i for i, o in enumerate(instant) if held != state.held and held.stated is not None
         and _stated_for(o, spelled[o.value], mode) == held.stated), None,
    )  # fmt: skip
    citations = state.citations
    for i, (obs, bits) in enumerate(zip(instant, update.surprise_bits, strict=True)):
        around = (state.held if i == 0 else held, held)
        citations = _cite(citations, obs, spelled[obs.value], bits, around, params, states_start=i == stater)
    new_state = DimensionState("single", update.posterior, {}, last_at, last, held, citations=citations)
    return new_state, [
        (obs, StepResult(new_state, spelled[obs.value], update.prior, update.posterior, bits, h))
        for obs, bits in zip(instant, update.surprise_bits, strict=True)
    ]


def _fold_multi(
    state: DimensionState, instant: Sequence[Observation], spelled: dict[str, str], hazards: dict[str, float],
    params: NousParams, last_at: datetime, last: ObservedValue,
) -> tuple[DimensionState, Folded]:  # fmt: skip
    counts = {v: nm.decay_beta(a, b, hazards[v], params.beta_prior) for v, (a, b) in state.counts.items()}
    members = dict(state.member_since)
    citations = state.citations
    folded: Folded = []
    for obs in instant:
        value = spelled[obs.value]
        alpha, beta = counts.get(value, (params.beta_prior, params.beta_prior))
        update = nm.beta_update(
            alpha, beta, positive=obs.polarity == "positive", rho=obs.reliability, h=0.0,
            prior=params.beta_prior, tentative=obs.tentative,
        )  # fmt: skip
        hazard = hazards[value] if all(spelled[o.value] != value for o, _ in folded) else 0.0
        counts = {**counts, value: (update.alpha, update.beta)}
        # Decay moves other memberships toward 0.5 but never across it, so only the observed
        # value can join or leave the members.
        joined = members.pop(value, obs.at)
        if update.posterior_mean > 0.5:
            stated = _stated_for(obs, value, value)
            members[value] = stated if stated is not None and stated < joined else joined
        citations = _cite(citations, obs, value, update.surprise_bits, (Held(), Held()), params, states_start=False)
        result = StepResult(
            DimensionState("multi", {}, counts, last_at, last, Held(), dict(members), citations),
            value, {value: update.prior_mean}, {value: update.posterior_mean}, update.surprise_bits, hazard,
        )  # fmt: skip
        folded.append((obs, result))
    return folded[-1][1].state, folded


def replay(
    observations: Iterable[Observation],
    cardinality: Cardinality,
    tau_days: float,
    params: NousParams = DEFAULT_PARAMS,
    start: DimensionState | None = None,
) -> tuple[DimensionState, list[tuple[Observation, StepResult]]]:
    """Fold observations in event-time order from ``start`` (default: empty), an instant at a
    time (``fold_instant``).

    The ledger folds an instant's observations together (it replays when a new one does not
    come strictly after the dimension's last event), so every fold sees whole instants.
    """
    state = start if start is not None else DimensionState(cardinality)
    steps: Folded = []
    ordered = sorted(observations, key=observation_key)
    for _, group in itertools.groupby(ordered, key=lambda obs: obs.at):
        state, folded = fold_instant(state, list(group), tau_days, params)
        steps.extend(folded)
    return state, steps


def decay_to(
    state: DimensionState,
    as_of: datetime | None,
    tau_days: float,
    params: NousParams = DEFAULT_PARAMS,
) -> DimensionState:
    """The state as it stands at ``as_of`` with no news since its last event (lazy decay)."""
    if as_of is None or state.last_at is None or as_utc(as_of) <= state.last_at:
        return state
    h = nm.hazard(elapsed_days(state.last_at, as_utc(as_of)), tau_days, False, 0.0)
    if state.cardinality == "single":
        return replace(state, probabilities=nm.decay_categorical(state.probabilities, h))
    counts = {v: nm.decay_beta(a, b, h, params.beta_prior) for v, (a, b) in state.counts.items()}
    return replace(state, counts=counts)


def distribution_of(state: DimensionState) -> dict[str, float]:
    """Categorical probabilities (single) or membership probabilities (multi)."""
    if state.cardinality == "single":
        return dict(state.probabilities)
    return {v: nm.beta_mean(a, b) for v, (a, b) in state.counts.items()}


def to_dimension(
    state: DimensionState, space: str, entity: str, attribute: str, as_of: datetime | None
) -> Dimension:
    """The public view of a (possibly decayed) state.

    Entropy is Shannon entropy of the categorical distribution for single-valued dimensions,
    and the sum of the membership entropies (the joint entropy of independent Bernoullis) for
    multi-valued ones. The mode of a multi-valued dimension is its most probable member,
    if any value is more likely in than out. ``last_observed``, ``since``, ``changed_at`` and
    ``previous`` come from the fold (see the module docstring and ``Held``).
    """
    distribution = distribution_of(state)
    since: datetime | None = None
    previous: str | None = None
    changed_at: datetime | None = None
    if state.cardinality == "single":
        mode = nm.categorical_mode(distribution)
        entropy = nm.entropy_bits(distribution.values())
        # Decay keeps the order of the categories, so the view's mode is the held one unless
        # decades of silence made everything equal; then the held value is only "previous".
        since = state.held.start if mode == state.held.mode else None
        changed_at = state.held.since if mode == state.held.mode else None
        previous = state.held.previous if mode == state.held.mode else state.held.mode
    else:
        members = {v: p for v, p in distribution.items() if p > 0.5}
        mode = nm.argmax_category(members) if members else None
        entropy = sum(nm.binary_entropy_bits(p) for p in distribution.values())
        since = None if mode is None else state.member_since.get(mode)
    return Dimension(
        space=space,
        entity=entity,
        attribute=attribute,
        cardinality=state.cardinality,
        distribution=distribution,
        mode=mode,
        entropy_bits=entropy,
        updated_at=state.last_at,
        as_of=None if as_of is None else as_utc(as_of),
        last_observed=state.last,
        since=since,
        previous=previous,
        changed_at=changed_at,
    )


def make_delta(obs: Observation, result: StepResult, recorded_at: datetime) -> Delta:
    """The Delta record of one applied observation."""
    return Delta(
        id=delta_id(obs.space, obs.entity, obs.attribute, obs.belief_id),
        space=obs.space,
        entity=obs.entity,
        attribute=obs.attribute,
        observed=result.observed,
        polarity=obs.polarity,
        modality=obs.modality,
        change_signal=obs.change_signal,
        prior=result.prior,
        posterior=result.posterior,
        surprise_bits=result.surprise_bits,
        hazard=result.hazard,
        reliability=obs.reliability,
        at=obs.at,
        recorded_at=as_utc(recorded_at),
        belief_id=obs.belief_id,
        evidence_ids=obs.evidence_ids,
        valid_from=obs.valid_from,
        said_at=obs.said_at,
    )


def observation_of(delta: Delta) -> Observation:
    """The observation a Delta recorded: replaying it reproduces the Delta's derived fields."""
    return Observation(
        space=delta.space,
        entity=delta.entity,
        attribute=delta.attribute,
        value=delta.observed,
        polarity=delta.polarity,
        modality=delta.modality,
        at=delta.at,
        reliability=delta.reliability,
        change_signal=delta.change_signal,
        belief_id=delta.belief_id,
        evidence_ids=delta.evidence_ids,
        valid_from=delta.valid_from,
        said_at=delta.said_at,
    )


def replay_deltas(
    deltas: Sequence[Delta],
    cardinality: Cardinality,
    tau_days: float,
    params: NousParams = DEFAULT_PARAMS,
) -> DimensionState:
    """Rebuild a state from its deltas (any order; they are sorted by event time)."""
    state, _ = replay((observation_of(d) for d in deltas), cardinality, tau_days, params)
    return state
