"""Which deltas a state answer can cite, kept up to date as a dimension's state is folded.

A current-state answer (``eywa.read.answers.state_answer``, ``unrealised_plan``) and the
members of a set (``eywa.nous.ledger.set_members``) look at a handful of a dimension's
deltas, whatever its history's length: per value, its latest delta, its latest positive
and latest asserted positive ones, its first positive one and its first notable one (a
reliable positive delta at least ``theta_min_bits`` surprising); for a single-valued
dimension, the change point of its mode (the first positive delta of the mode from when it
became the mode), the delta that states the start it reports when the evidence states one
("since 2015": ``eywa.nous.engine.Held``) and the latest delta of the value it replaced up
to then. Read from the
delta log, these cost a read of every delta of the dimension on each recall: on a busy
person's hobbies or life events, hundreds.

``Citations`` records their ids while the state is folded (``eywa.nous.engine.fold_instant``), so a
read takes those deltas only (``DimensionStore.recall_dimensions(..., deltas="cited")``):
a number that grows with the dimension's values, never with how often they were said.
Replaying ``observations`` in event-time order (``(at, delta id)``, the order ``replay``
folds in and the order the readers sort deltas in) rebuilds the same record.

Ties in event time are why ``now`` exists: two beliefs of one turn ("I left Paris for
Berlin") share an instant, and the mode may change on the second while the first was the
positive observation of the new mode; its change point is then that first one, which
``now`` (the first positive delta of each value at the latest instant) still knows.

Exactness holds for one entity key read as of its last event or later; merged entities
and earlier as-of times are replayed from every delta, and the readers read every delta
for them (``eywa.read.dimension_reads``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from eywa.models import as_utc
from eywa.nous.params import DEFAULT_PARAMS, NousParams

__all__ = ["Citations", "Cited"]


@dataclass(frozen=True)
class Cited:
    """The observation facts ``Citations.after`` needs of the delta being folded."""

    delta_id: str
    observed: str
    positive: bool
    asserted: bool
    reliability: float
    surprise_bits: float
    at: datetime


def _key(value: str | None) -> str | None:
    return None if value is None else value.casefold()


@dataclass(frozen=True)
class Citations:
    """The ids of the deltas a state answer can cite, by role; values are case-folded
    (the answers group deltas by their case-folded observed value)."""

    latest: dict[str, str] = field(default_factory=dict)
    latest_positive: dict[str, str] = field(default_factory=dict)
    latest_asserted: dict[str, str] = field(default_factory=dict)
    first_positive: dict[str, str] = field(default_factory=dict)
    notable: dict[str, str] = field(default_factory=dict)
    now_at: datetime | None = None
    now: dict[str, str] = field(default_factory=dict)  # first positive per value at ``now_at``
    change_point: str | None = None
    previous: str | None = None
    start: str | None = None  # the delta whose stated start the mode reports as ``since``

    def ids(self) -> list[str]:
        """Every cited delta id, once, sorted."""
        found: set[str] = set()
        for role in (self.latest, self.latest_positive, self.latest_asserted, self.first_positive, self.notable):
            found.update(role.values())
        found.update(i for i in (self.change_point, self.previous, self.start) if i is not None)
        return sorted(found)

    def after(
        self,
        delta: Cited,
        held_before: tuple[str | None, datetime | None, str | None],
        held_after: tuple[str | None, datetime | None, str | None],
        params: NousParams = DEFAULT_PARAMS,
        *,
        states_start: bool = False,
    ) -> Citations:
        """The record once ``delta`` is folded. ``held_before`` / ``held_after``: the
        single-valued state's (mode, since, previous) around it ((None, None, None) for a
        multi-valued one); ``states_start``: ``delta`` set the start the mode reports."""
        value = delta.observed.casefold()
        latest = {**self.latest, value: delta.delta_id}
        latest_positive, latest_asserted, first_positive, notable = (
            self.latest_positive, self.latest_asserted, self.first_positive, self.notable
        )  # fmt: skip
        now = self.now if self.now_at == delta.at else {}
        if delta.positive:
            latest_positive = {**latest_positive, value: delta.delta_id}
            if delta.asserted:
                latest_asserted = {**latest_asserted, value: delta.delta_id}
            if value not in first_positive:
                first_positive = {**first_positive, value: delta.delta_id}
            if value not in now:
                now = {**now, value: delta.delta_id}
            reliable = delta.reliability >= params.set_min_reliability
            if reliable and delta.surprise_bits >= params.theta_min_bits and value not in notable:
                notable = {**notable, value: delta.delta_id}
        change_point, previous, start = self.change_point, self.previous, self.start
        mode, since, prior_value = held_after
        if states_start:
            start = delta.delta_id
        elif held_after[0] != held_before[0]:
            start = None  # a new mode reports its own change point until a delta states a start
        if held_after != held_before:
            # The mode changed at this instant: its first positive delta from here on may be
            # one folded earlier at the same instant, or this one, or one yet to come.
            change_point = now.get(_key(mode) or "")
            previous = None if prior_value is None else latest.get(prior_value.casefold())
        else:
            if change_point is None and mode is not None and delta.positive and value == mode.casefold():
                change_point = delta.delta_id
            if prior_value is not None and delta.at == since and value == prior_value.casefold():
                previous = delta.delta_id
        return replace(
            self, latest=latest, latest_positive=latest_positive, latest_asserted=latest_asserted,
            first_positive=first_positive, notable=notable, now_at=delta.at, now=now,
            change_point=change_point, previous=previous, start=start,
        )  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict (``from_json`` reads it back)."""
        return {
            "latest": self.latest, "latest_positive": self.latest_positive,
            "latest_asserted": self.latest_asserted, "first_positive": self.first_positive,
            "notable": self.notable, "now_at": None if self.now_at is None else self.now_at.isoformat(),
            "now": self.now, "change_point": self.change_point, "previous": self.previous, "start": self.start,
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Citations:
        """The inverse of ``to_json``."""
        raw_at = data.get("now_at")
        return cls(
            latest=dict(data.get("latest") or {}),
            latest_positive=dict(data.get("latest_positive") or {}),
            latest_asserted=dict(data.get("latest_asserted") or {}),
            first_positive=dict(data.get("first_positive") or {}),
            notable=dict(data.get("notable") or {}),
            now_at=None if raw_at is None else as_utc(datetime.fromisoformat(raw_at)),
            now=dict(data.get("now") or {}),
            change_point=data.get("change_point"),
            previous=data.get("previous"),
            start=data.get("start"),
        )
