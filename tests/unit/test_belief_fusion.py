"""In a recall, a belief resting on one turn is that turn in fusion: the routes that found
the statement vote for the turn (at ``BELIEF_SHARE``), and the belief takes no place of its
own; a belief resting on several turns stays an item. For the evidence strength's speaker
contrast, a belief is from its subject. Each holds whether the reader loads every belief
found before fusion or reads only their cited turns (``belief_cites``) and loads the kept."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone

import numpy as np
import numpy.typing as npt

import pytest

from eywa.models import Entity, EvidenceRef, ItemKind, RouteName
from eywa.read.items import Hydrated
from eywa.read.reader import Reader
from eywa.read.routes import Query, RouteHit
from eywa.read.strength import evidence_strength
from eywa.stores.beliefs import BeliefCites

AT = datetime(2023, 5, 9, tzinfo=timezone.utc)


def _ref(i: str) -> EvidenceRef:
    return EvidenceRef(id=i, session="s1", speaker="Ana", observed_at=AT)


class Ranked:
    def __init__(self, name: RouteName, hits: Sequence[tuple[ItemKind, str]]) -> None:
        self.name: RouteName = name
        self._hits = hits

    def run(self, query: Query) -> list[RouteHit]:
        return [RouteHit(kind, i, 1.0 / (rank + 1)) for rank, (kind, i) in enumerate(self._hits)]


class Turns:
    kind: ItemKind = "evidence"

    def hydrate(self, space: str, ids: Sequence[str], as_of: datetime | None = None) -> dict[str, Hydrated]:
        return {i: Hydrated("evidence", i, f"turn {i}", (_ref(i),), f"s-{i}", AT, "Ana", ()) for i in ids}


class Beliefs:
    kind: ItemKind = "belief"
    cites = {"one": ("t",), "two": ("x", "y")}

    def __init__(self) -> None:
        self.loaded: list[str] = []

    def belief_cites(self, space: str, ids: Sequence[str]) -> list[BeliefCites]:
        return [BeliefCites(i, "Ana", self.cites[i]) for i in ids if i in self.cites]

    def hydrate(self, space: str, ids: Sequence[str], as_of: datetime | None = None) -> dict[str, Hydrated]:
        self.loaded.extend(ids)
        return {
            i: Hydrated("belief", i, f"belief {i}", tuple(_ref(t) for t in self.cites[i]), "s1", AT, None, (), "Ana")
            for i in ids
            if i in self.cites
        }


def _recall(
    keyword: Sequence[tuple[ItemKind, str]], vector: Sequence[tuple[ItemKind, str]], beliefs: Beliefs, cites: bool
) -> list[tuple[str, str]]:
    def embed(texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return np.ones((len(texts), 4), np.float32)

    reader = Reader(
        routes=[Ranked("keyword", keyword), Ranked("vector", vector)],
        sources=[Turns(), beliefs],
        embed_queries=embed,
        entities_named=lambda space, names: [],
        neighbours=lambda space, ids: {},
        rrf_k=20,
        max_k=50,
        disabled=frozenset({"floor", "sessions", "rescue"}),
        belief_cites=beliefs.belief_cites if cites else None,
    )
    result = reader.recall("s", "What does Ana paint?", k=5, budget_tokens=None, policy="balanced", as_of=None)
    return [(item.kind, item.id) for item in result.items]


@pytest.mark.parametrize("cites", [False, True])
def test_a_belief_on_one_turn_lifts_that_turn_and_takes_no_place_of_its_own(cites: bool) -> None:
    # Keyword ranks "o" over "t"; the vector route found only the belief resting on "t".
    beliefs = Beliefs()
    items = _recall([("evidence", "o"), ("evidence", "t")], [("belief", "one")], beliefs, cites)
    assert items == [("evidence", "t"), ("evidence", "o")]
    assert beliefs.loaded == ([] if cites else ["one"])  # with its cites read, it is never loaded


@pytest.mark.parametrize("cites", [False, True])
def test_a_belief_on_several_turns_stays_an_item(cites: bool) -> None:
    beliefs = Beliefs()
    items = _recall([("evidence", "o"), ("evidence", "t")], [("belief", "two")], beliefs, cites)
    assert ("belief", "two") in items
    assert items[:2] == [("evidence", "o"), ("evidence", "t")]
    assert beliefs.loaded == ["two"]


class Scored:
    """A vector route with given cosines."""

    name: RouteName = "vector"

    def __init__(self, hits: Sequence[tuple[ItemKind, str, float]]) -> None:
        self._hits = hits

    def run(self, query: Query) -> list[RouteHit]:
        return [RouteHit(kind, i, score) for kind, i, score in self._hits]


@pytest.mark.parametrize(("belief", "cites"), [("two", False), ("two", True), ("one", False), ("one", True)])
def test_a_belief_counts_in_the_speaker_contrast_as_from_its_subject(belief: str, cites: bool) -> None:
    # "one" rests on one turn: with its cites read, it is never loaded, and its subject comes from them.
    def embed(texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return np.ones((len(texts), 4), np.float32)

    class BobsTurns(Turns):
        def hydrate(self, space: str, ids: Sequence[str], as_of: datetime | None = None) -> dict[str, Hydrated]:
            return {i: Hydrated("evidence", i, f"turn {i}", (_ref(i),), "s1", AT, "Bob", ()) for i in ids}

    beliefs = Beliefs()
    reader = Reader(
        routes=[Scored([("evidence", "o", 0.8), ("belief", belief, 0.6)])],
        sources=[BobsTurns(), beliefs],
        embed_queries=embed,
        entities_named=lambda space, names: [Entity(id="ent_ana", space=space, name="Ana", kind="person")],
        neighbours=lambda space, ids: {},
        rrf_k=20,
        max_k=50,
        belief_cites=beliefs.belief_cites if cites else None,
    )
    result = reader.recall("s", "What does Ana paint?", k=5, budget_tokens=None, policy="balanced", as_of=None)
    # Bob's turn is the nearest (0.8); the belief about Ana (0.6) is hers: a contrast of 0.6 − 0.8.
    assert result.evidence_strength == evidence_strength([0.8, 0.6], ["Bob", "Ana"], ["Ana"])
    assert result.evidence_strength < evidence_strength([0.8, 0.6])
