"""The shape of a dimension state's JSON form (``DimensionState.to_json``), checked strictly.

The engine writes the state and reads it back with ``DimensionState.from_json``, which
trusts its own output: a number, a string or a time of the wrong type there is met deep in
a later read (``float()`` of a dict, ``datetime.fromisoformat`` of a list, an unhashable
id). An import is the one way a state the engine did not write reaches a store, so
``eywa.portability`` checks it against this schema first and refuses it with its line; a
state this engine wrote, or one saved before ``held`` and ``citations`` existed (which
``from_json`` reads as unknown), passes.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, StrictFloat, StrictInt, StrictStr, ValidationError

from eywa.models import Cardinality, ObservedValue
from eywa.values import supported_utc

__all__ = ["state_problem"]


def _instant(text: str) -> str:
    """An ISO-8601 time ``from_json`` reads, in the supported range (``eywa.values``)."""
    supported_utc(datetime.fromisoformat(text))
    return text


def _share(number: float) -> float:
    if not 0.0 <= number <= 1.0:  # NaN fails too
        raise ValueError("must be a probability from 0 to 1")
    return number


def _weight(number: float) -> float:
    if not 0.0 < number < math.inf:  # a Beta parameter; NaN fails too
        raise ValueError("must be a finite number above 0")
    return number


_Time = Annotated[StrictStr, AfterValidator(_instant)]
_Share = Annotated[StrictFloat | StrictInt, AfterValidator(_share)]
_Weight = Annotated[StrictFloat | StrictInt, AfterValidator(_weight)]
_Ids = dict[StrictStr, StrictStr]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Held(_Strict):
    mode: StrictStr | None = None
    since: _Time | None = None
    previous: StrictStr | None = None
    stated: _Time | None = None


class _Citations(_Strict):
    latest: _Ids = {}
    latest_positive: _Ids = {}
    latest_asserted: _Ids = {}
    first_positive: _Ids = {}
    notable: _Ids = {}
    now_at: _Time | None = None
    now: _Ids = {}
    change_point: StrictStr | None = None
    previous: StrictStr | None = None
    start: StrictStr | None = None


class _State(_Strict):
    cardinality: Cardinality
    probabilities: dict[StrictStr, _Share]
    counts: dict[StrictStr, tuple[_Weight, _Weight]]
    last_at: _Time | None = None
    last: ObservedValue | None = None
    held: _Held | None = None
    member_since: dict[StrictStr, _Time] = {}
    citations: _Citations | None = None
    cited: list[StrictStr] | None = None


def state_problem(state: dict[str, Any], cardinality: Cardinality) -> str | None:
    """What is wrong with ``state`` as the JSON form of a ``cardinality`` dimension's
    state (its first problem, with its path), or None when the engine can read it."""
    try:
        parsed = _State.model_validate(state)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return f"{where}: {first['msg']}" if where else str(first["msg"])
    if parsed.cardinality != cardinality:
        return f"cardinality: {parsed.cardinality!r}, where the dimension is {cardinality!r}"
    last = parsed.last
    for name, moment in (("at", last.at), ("said_at", last.said_at)) if last is not None else ():
        try:
            if moment is not None:
                supported_utc(moment)
        except ValueError as exc:
            return f"last.{name}: {exc}"
    return None
