"""Routes that rank by one keyword index vote once for an aggregate question
(``fusion.vote_groups``, ``weighted_rrf``'s ``groups``): the graph route's turns are the
keyword route's hits about the named people, the feedback route a second search of the same
index, so their agreement is one witness's, not three."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eywa.models import ItemKind, RouteName, Stage
from eywa.read.fusion import LEXICAL_ROUTES, ItemKey, vote_groups, weighted_rrf
from eywa.read.items import Hydrated
from eywa.read.routes import Query, RouteHit
from tests.unit.reader_stubs import stub_reader

X: ItemKey = ("evidence", "x")
Y: ItemKey = ("evidence", "y")
WEIGHTS = {"keyword": 2.0, "graph": 1.0, "feedback": 2.0, "person": 1.5}

kinds: st.SearchStrategy[ItemKind] = st.sampled_from(["evidence", "belief"])
keys: st.SearchStrategy[ItemKey] = st.tuples(kinds, st.sampled_from(["a", "b", "c", "d"]))
rankings: st.SearchStrategy[dict[str, list[ItemKey]]] = st.dictionaries(
    st.sampled_from(["keyword", "graph", "feedback", "person"]), st.lists(keys, max_size=8), max_size=4
)


def test_routes_of_one_group_give_a_candidate_their_largest_vote() -> None:
    ranked = {"keyword": [X, Y], "graph": [X], "feedback": [X], "person": [Y]}
    apart = dict(weighted_rrf(ranked, WEIGHTS, k=20))
    assert apart[X] == pytest.approx((2.0 + 1.0 + 2.0) / 21)
    together = dict(weighted_rrf(ranked, WEIGHTS, k=20, groups=[LEXICAL_ROUTES]))
    assert together[X] == pytest.approx(2.0 / 21)  # one vote: the largest of the three
    assert together[Y] == pytest.approx(2.0 / 22 + 1.5 / 21)  # keyword's, and the person route's
    assert [key for key, _ in weighted_rrf(ranked, WEIGHTS, k=20, groups=[LEXICAL_ROUTES])] == [Y, X]


def test_a_later_route_of_a_group_adds_only_what_its_vote_has_beyond_the_group_s() -> None:
    # The graph route ranks x first and the keyword route third: x keeps the graph route's vote.
    ranked = {"keyword": [Y, ("evidence", "z"), X], "graph": [X]}
    fused = dict(weighted_rrf(ranked, {"keyword": 1.0, "graph": 1.0}, k=20, groups=[{"keyword", "graph"}]))
    assert fused[X] == pytest.approx(1.0 / 21)


@given(rankings, st.integers(min_value=1, max_value=60), st.sampled_from([0.25, 0.5, 1.0]))
def test_routes_each_alone_in_a_group_fuse_as_without_groups(r: dict[str, list[ItemKey]], k: int, share: float) -> None:
    same: dict[ItemKey, ItemKey] = {key: ("evidence", key[1]) for ranked in r.values() for key in ranked if key[0] == "belief"}
    alone = [{route} for route in r]
    assert weighted_rrf(r, WEIGHTS, k, same, share, groups=alone) == weighted_rrf(r, WEIGHTS, k, same, share)


@given(rankings, st.integers(min_value=1, max_value=60))
def test_grouping_never_raises_a_score_nor_drops_a_candidate(r: dict[str, list[ItemKey]], k: int) -> None:
    apart = dict(weighted_rrf(r, WEIGHTS, k))
    together = dict(weighted_rrf(r, WEIGHTS, k, groups=[LEXICAL_ROUTES]))
    assert together.keys() == apart.keys()
    for key, score in together.items():
        assert 0.0 < score <= apart[key] + 1e-12


def test_only_an_aggregate_question_groups_the_lexical_routes() -> None:
    assert vote_groups(True) == (LEXICAL_ROUTES,)
    assert vote_groups(False) == ()
    assert LEXICAL_ROUTES == {"keyword", "graph", "feedback"}


AT = datetime(2023, 5, 9, tzinfo=timezone.utc)


class Ranked:
    """A route that ranks fixed turns, whatever the question."""

    def __init__(self, name: RouteName, ids: Sequence[str]) -> None:
        self.name = name
        self._ids = list(ids)

    def run(self, query: Query) -> list[RouteHit]:
        return [RouteHit("evidence", i, 1.0 / n) for n, i in enumerate(self._ids, start=1)]


class Turns:
    kind: ItemKind = "evidence"

    def hydrate(self, space: str, ids: Sequence[str], as_of: datetime | None = None) -> dict[str, Hydrated]:
        return {i: Hydrated("evidence", i, f"turn {i}", (), "s1", AT, None, ()) for i in ids}


@pytest.mark.parametrize(
    ("question", "aggregate", "first"),
    [
        # The keyword, graph and feedback routes all rank "said" first; the person route
        # ranks "told" first and the keyword route second: counted once, their agreement no
        # longer outvotes the person route for a question wanting every occasion.
        ("What hobbies has Priya taken up?", True, "told"),
        # A question with a time window asks about one occasion: its answer is the turn that
        # holds its words, which the lexical routes' agreement finds.
        ("What hobbies did Priya take up in May 2023?", False, "said"),
    ],
)
def test_the_reader_counts_the_lexical_routes_once_for_an_aggregate_question(
    question: str, aggregate: bool, first: str
) -> None:
    routes = [
        Ranked("keyword", ["said", "told"]),
        Ranked("graph", ["said"]),
        Ranked("feedback", ["said"]),
        Ranked("person", ["told"]),
    ]
    quiet: frozenset[Stage] = frozenset({"vector", "boost", "specific", "demotion", "sessions", "rescue", "addressed", "floor"})
    result = stub_reader(routes, [Turns()], quiet).recall("s", question, k=2, budget_tokens=None, policy="balanced", as_of=None)
    assert result.trace["plan"]["aggregate"] is aggregate
    assert result.trace["plan"]["shape"] == "list"
    assert [item.id for item in result.items][0] == first
