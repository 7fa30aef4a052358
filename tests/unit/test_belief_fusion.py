"""In a recall, a belief resting on one turn is that turn in fusion: the routes that found
the statement vote for the turn (at ``BELIEF_SHARE``), and the belief takes no place of its
own; a belief resting on several turns stays an item. For the evidence strength's speaker
contrast, a belief is from its subject."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone

import numpy as np
import numpy.typing as npt

import pytest

from eywa.models import Entity, EvidenceRef, ItemKind
from eywa.read.items import Hydrated
from eywa.read.reader import Reader
from eywa.read.routes import Query, RouteHit

AT = datetime(2023, 5, 9, tzinfo=timezone.utc)


def _ref(i: str) -> EvidenceRef:
    return EvidenceRef(id=i, session="s1", speaker="Ana", observed_at=AT)


class Ranked:
    def __init__(self, name: str, hits: Sequence[tuple[ItemKind, str]]) -> None:
        self.name = name
        self._hits = hits

    def run(self, query: Query) -> list[RouteHit]:
        return [RouteHit(kind, i, 1.0 / (rank + 1)) for rank, (kind, i) in enumerate(self._hits)]


class Turns:
    kind = "evidence"

    def hydrate(self, space: str, ids: Sequence[str], as_of: datetime | None = None) -> dict[str, Hydrated]:
        return {i: Hydrated("evidence", i, f"turn {i}", (_ref(i),), f"s-{i}", AT, "Ana", ()) for i in ids}


class Beliefs:
    kind = "belief"
    cites = {"one": ("t",), "two": ("x", "y")}

    def hydrate(self, space: str, ids: Sequence[str], as_of: datetime | None = None) -> dict[str, Hydrated]:
        return {
            i: Hydrated("belief", i, f"belief {i}", tuple(_ref(t) for t in self.cites[i]), "s1", AT, None, (), "Ana")
            for i in ids
            if i in self.cites
        }


def _recall(keyword: Sequence[tuple[ItemKind, str]], vector: Sequence[tuple[ItemKind, str]]) -> list[tuple[str, str]]:
    def embed(texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return np.ones((len(texts), 4), np.float32)

    reader = Reader(
        routes=[Ranked("keyword", keyword), Ranked("vector", vector)],
        sources=[Turns(), Beliefs()],
        embed_queries=embed,
        entities_named=lambda space, names: [],
        neighbours=lambda space, ids: {},
        rrf_k=20,
        max_k=50,
        disabled=frozenset({"floor", "sessions", "rescue"}),
    )
    result = reader.recall("s", "What does Ana paint?", k=5, budget_tokens=None, policy="balanced", as_of=None)
    return [(item.kind, item.id) for item in result.items]


def test_a_belief_on_one_turn_lifts_that_turn_and_takes_no_place_of_its_own() -> None:
    # Keyword ranks "o" over "t"; the vector route found only the belief resting on "t".
    items = _recall([("evidence", "o"), ("evidence", "t")], [("belief", "one")])
    assert items == [("evidence", "t"), ("evidence", "o")]


def test_a_belief_on_several_turns_stays_an_item() -> None:
    items = _recall([("evidence", "o"), ("evidence", "t")], [("belief", "two")])
    assert ("belief", "two") in items
    assert items[:2] == [("evidence", "o"), ("evidence", "t")]


class Scored:
    """A vector route with given cosines."""

    name = "vector"

    def __init__(self, hits: Sequence[tuple[ItemKind, str, float]]) -> None:
        self._hits = hits

    def run(self, query: Query) -> list[RouteHit]:
        return [RouteHit(kind, i, score) for kind, i, score in self._hits]


def test_a_belief_counts_in_the_speaker_contrast_as_from_its_subject() -> None:
    def embed(texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return np.ones((len(texts), 4), np.float32)

    class BobsTurns(Turns):
        def hydrate(self, space: str, ids: Sequence[str], as_of: datetime | None = None) -> dict[str, Hydrated]:
            return {i: Hydrated("evidence", i, f"turn {i}", (_ref(i),), "s1", AT, "Bob", ()) for i in ids}

    reader = Reader(
        routes=[Scored([("evidence", "o", 0.8), ("belief", "two", 0.6)])],
        sources=[BobsTurns(), Beliefs()],
        embed_queries=embed,
        entities_named=lambda space, names: [Entity(id="ent_ana", space=space, name="Ana", kind="person")],
        neighbours=lambda space, ids: {},
        rrf_k=20,
        max_k=50,
    )
    result = reader.recall("s", "What does Ana paint?", k=5, budget_tokens=None, policy="balanced", as_of=None)
    # Bob's turn is the nearest (0.8); the belief about Ana (0.6) is hers: 0.8 + 0.5 × (0.6 − 0.8).
    assert result.evidence_strength == pytest.approx(0.7)
