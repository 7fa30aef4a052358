"""The query plan: what the question asks, who it names, when it points to, and from these
a weight per route. Deterministic and inspectable (it is returned in the trace)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Final, Literal

from eywa.models import Entity

Shape = Literal["fact", "temporal", "list", "count", "inference", "yes_no", "comparison"]

# One readable table: route weights per question shape. Routes absent from a row weigh 0.
ROUTE_WEIGHTS: Final[Mapping[Shape, Mapping[str, float]]] = MappingProxyType(
    {
        "fact": MappingProxyType({"keyword": 1.0, "vector": 1.0}),
        "temporal": MappingProxyType({"keyword": 1.0, "vector": 1.0}),
        "list": MappingProxyType({"keyword": 1.0, "vector": 1.0}),
        "count": MappingProxyType({"keyword": 1.0, "vector": 1.0}),
        "inference": MappingProxyType({"keyword": 0.8, "vector": 1.2}),
        "yes_no": MappingProxyType({"keyword": 1.0, "vector": 1.0}),
        "comparison": MappingProxyType({"keyword": 1.0, "vector": 1.0}),
    }
)

_SHAPES: Final[tuple[tuple[Shape, re.Pattern[str]], ...]] = (
    ("temporal", re.compile(r"^\s*(when|what (year|month|day|date|time))\b|how long (ago|has|have|did)", re.I)),
    ("count", re.compile(r"^\s*how (many|much|often)\b", re.I)),
    ("inference", re.compile(r"\b(would|likely|might|could)\b", re.I)),
    ("list", re.compile(r"^\s*(what|which) (are|were|kinds?|types?|things|activities|books|places)\b|\ball\b", re.I)),
    ("comparison", re.compile(r"\b(more|less|better|worse|than|compared|both|same)\b", re.I)),
    ("yes_no", re.compile(r"^\s*(is|are|was|were|do|does|did|has|have|can|will)\b", re.I)),
)


@dataclass(frozen=True)
class Plan:
    """The planner's reading of a question."""

    shape: Shape
    entities: tuple[str, ...]
    weights: Mapping[str, float]
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


def make_plan(question: str, entities: Sequence[Entity]) -> Plan:
    """Plan a question against the entities known in its space."""
    shape = question_shape(question)
    return Plan(shape=shape, entities=named_entities(question, entities), weights=ROUTE_WEIGHTS[shape])
