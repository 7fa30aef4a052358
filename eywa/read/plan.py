"""The query plan: what the question asks, who it names, when it points to, and from these
a weight per route. Deterministic and inspectable (it is returned in the trace)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Final, Literal, get_args

from eywa.models import Entity, RouteName, SignalKind, Stage

Shape = Literal["fact", "temporal", "list", "count", "inference", "yes_no", "comparison"]


ROUTE_NAMES: Final[tuple[RouteName, ...]] = get_args(RouteName)


def _row(weights: Mapping[RouteName, float]) -> Mapping[RouteName, float]:
    return MappingProxyType(dict(weights))


# One readable table: route weights per question shape. Routes absent from a row weigh 0.
# Keyword weighs twice the vector route: on the LoCoMo dev turns BM25 over turn + speaker +
# neighbours is the stronger single route (about 72 vs 51 turn recall@10), and a 2:1 RRF
# mix beat 1:1 and 3:1. The support routes add candidates the two main routes miss.
ROUTE_WEIGHTS: Final[Mapping[Shape, Mapping[RouteName, float]]] = MappingProxyType(
    {
        "fact": _row({"keyword": 2.0, "vector": 1.0, "graph": 0.5, "dimension": 0.5}),
        "temporal": _row({"keyword": 2.0, "vector": 1.0, "temporal": 1.0, "graph": 0.3}),
        "list": _row({"keyword": 2.0, "vector": 1.0, "graph": 0.8, "dimension": 0.8}),
        "count": _row({"keyword": 2.0, "vector": 1.0, "graph": 0.8, "dimension": 0.5}),
        "inference": _row({"keyword": 1.5, "vector": 1.2, "inference": 1.0, "graph": 0.5, "dimension": 0.5}),
        "yes_no": _row({"keyword": 2.0, "vector": 1.0, "graph": 0.5, "dimension": 0.5}),
        "comparison": _row({"keyword": 2.0, "vector": 1.0, "graph": 0.8, "dimension": 0.5}),
    }
)

_SHAPES: Final[tuple[tuple[Shape, re.Pattern[str]], ...]] = (
    ("temporal", re.compile(r"^\s*(when|what (year|month|day|date|time))\b|\bhow long (ago|has|have|had|did|was|were)\b|\bwhat date\b", re.I)),
    ("count", re.compile(r"^\s*how (many|much|often)\b|\bnumber of\b", re.I)),
    ("inference", re.compile(r"\b(would|likely|might|could|probably)\b", re.I)),
    ("list", re.compile(r"^\s*(what|which) (are|were|kinds?|types?|things|activities|books|places|events|hobbies|items)\b|\ball (the )?\b|\bwhat \w+ (has|have) \w+ (done|visited|tried|read|made)\b", re.I)),
    ("comparison", re.compile(r"\b(more|less|better|worse|than|compared|both|in common|share|same)\b", re.I)),
    ("yes_no", re.compile(r"^\s*(is|are|was|were|do|does|did|has|have|can|will)\b", re.I)),
)


@dataclass(frozen=True)
class Plan:
    """The planner's reading of a question."""

    shape: Shape
    entities: tuple[str, ...]
    weights: Mapping[RouteName, float]
    window: tuple[datetime, datetime] | None = None
    notes: tuple[str, ...] = field(default=())

    def as_trace(self) -> dict[str, object]:
        """A JSON-friendly view for the trace."""
        return {
            "shape": self.shape,
            "entities": list(self.entities),
            "weights": dict(self.weights),
            "window": [w.isoformat() for w in self.window] if self.window else None,
            "notes": list(self.notes),
        }


def question_shape(question: str) -> Shape:
    """The first matching shape of the table above; "fact" otherwise."""
    for shape, pattern in _SHAPES:
        if pattern.search(question):
            return shape
    return "fact"


def named_entities(question: str, entities: Sequence[Entity]) -> tuple[str, ...]:
    """Known entity names (or aliases) that appear in the question as whole words."""
    lowered = question.casefold()
    found: list[str] = []
    for entity in entities:
        for name in (entity.name, *entity.aliases):
            if len(name) < 2:
                continue
            if re.search(rf"(?<!\w){re.escape(name.casefold())}(?:'s)?(?!\w)", lowered):
                found.append(entity.name)
                break
    return tuple(dict.fromkeys(found))


def time_window(question: str, anchor: datetime) -> tuple[datetime, datetime] | None:
    """The span of the question's date expressions ("in May 2023", "last year"), if any."""
    from eywa.signals import resolve_time_expressions

    windows = [
        (s.window_start, s.window_end)
        for s in resolve_time_expressions(question, anchor)
        if s.kind is SignalKind.DATE and s.window_start is not None and s.window_end is not None
    ]
    if not windows:
        return None
    return min(w[0] for w in windows), max(w[1] for w in windows)


def make_plan(
    question: str,
    entities: Sequence[Entity],
    anchor: datetime,
    disabled: frozenset[Stage] = frozenset(),
) -> Plan:
    """Plan a question against the entities known in its space.

    ``anchor`` resolves relative time expressions (the ``as_of`` time, else now);
    ``disabled`` switches routes off (ablations), which the trace notes.
    """
    shape = question_shape(question)
    window = time_window(question, anchor)
    weights = dict(ROUTE_WEIGHTS[shape])
    notes: list[str] = []
    if window is not None:
        weights["temporal"] = max(weights.get("temporal", 0.0), 1.0)
        notes.append("time window from the question")
    for name in ROUTE_NAMES:
        if name in disabled and name in weights:
            del weights[name]
            notes.append(f"route {name} disabled")
    return Plan(
        shape=shape,
        entities=named_entities(question, entities),
        weights=MappingProxyType(weights),
        window=window,
        notes=tuple(notes),
    )
