"""Weighted RRF and the lead of a claimed answer: the formulas, and properties that must hold
for any input."""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from datetime import datetime, timezone

from eywa.models import EvidenceRef, ItemKind
from eywa.read.fusion import TIE_TOLERANCE, ItemKey, belief_turns, lead_with, shared_ranks, weighted_rrf
from eywa.read.items import Hydrated

kinds: st.SearchStrategy[ItemKind] = st.sampled_from(["evidence", "belief"])
keys: st.SearchStrategy[ItemKey] = st.tuples(kinds, st.text("abcdef", min_size=1, max_size=3))
rankings: st.SearchStrategy[dict[str, list[ItemKey]]] = st.dictionaries(
    st.sampled_from(["keyword", "vector", "graph"]), st.lists(keys, max_size=12), max_size=3
)


def test_formula_matches_the_definition() -> None:
    x: ItemKey = ("evidence", "x")
    y: ItemKey = ("evidence", "y")
    fused = dict(weighted_rrf({"a": [x, y], "b": [y]}, {"a": 1.0, "b": 2.0}, k=20))
    assert fused[x] == pytest.approx(1 / 21)
    assert fused[y] == pytest.approx(1 / 22 + 2 / 21)


def test_zero_weight_route_is_ignored() -> None:
    x: ItemKey = ("evidence", "x")
    assert weighted_rrf({"a": [x]}, {"a": 0.0}, k=20) == []


@given(rankings, st.integers(min_value=1, max_value=100))
def test_scores_are_sorted_positive_and_cover_weighted_items(r: dict[str, list[ItemKey]], k: int) -> None:
    weights = {"keyword": 1.0, "vector": 0.5, "graph": 2.0}
    fused = weighted_rrf(r, weights, k)
    scores = [s for _, s in fused]
    assert scores == sorted(scores, reverse=True)
    assert all(s > 0 for s in scores)
    assert {key for key, _ in fused} == {key for ranked in r.values() for key in ranked}


@given(rankings)
def test_raising_a_routes_weight_never_lowers_its_items(r: dict[str, list[ItemKey]]) -> None:
    low = dict(weighted_rrf(r, {"keyword": 1.0, "vector": 1.0, "graph": 1.0}, 20))
    high = dict(weighted_rrf(r, {"keyword": 2.0, "vector": 1.0, "graph": 1.0}, 20))
    for key in low:
        assert high[key] >= low[key] - 1e-12


@given(rankings, keys, st.integers(min_value=1, max_value=100))
def test_a_claimed_answer_leads_above_anything_the_routes_can_rank(
    r: dict[str, list[ItemKey]], answer: ItemKey, k: int
) -> None:
    weights = {"keyword": 2.0, "vector": 1.0, "graph": 0.5}
    fused = weighted_rrf(r, weights, k)
    led = lead_with(fused, [answer], weights, k)
    assert led[0][0] == answer and led[0][1] == pytest.approx(3.5 / k)
    # above an item ranked first by every route, which is the most fusion can give
    assert led[0][1] > sum(weights.values()) / (k + 1)
    assert [key for key, _ in led[1:]] == [key for key, _ in fused if key != answer]
    assert dict(led[1:]) == {key: s for key, s in fused if key != answer}


@given(rankings, st.lists(keys, min_size=1, max_size=4, unique=True), st.integers(min_value=1, max_value=100))
def test_several_claimed_answers_lead_in_their_order_above_anything_the_routes_can_rank(
    r: dict[str, list[ItemKey]], answers: list[ItemKey], k: int
) -> None:
    weights = {"keyword": 2.0, "vector": 1.0, "graph": 0.5}
    fused = weighted_rrf(r, weights, k)
    led = lead_with(fused, answers, weights, k)
    assert [key for key, _ in led[: len(answers)]] == answers
    scores = [s for _, s in led[: len(answers)]]
    assert scores == sorted(scores, reverse=True) and len(set(scores)) == len(scores)
    assert min(scores) > sum(weights.values()) / (k + 1)
    assert dict(led[len(answers) :]) == {key: s for key, s in fused if key not in answers}


def test_a_belief_standing_for_its_turn_adds_its_votes_to_the_turn() -> None:
    belief: ItemKey = ("belief", "b")
    turn: ItemKey = ("evidence", "t")
    other: ItemKey = ("evidence", "o")
    rankings: dict[str, list[ItemKey]] = {"vector": [belief, other], "keyword": [turn, other]}
    apart = dict(weighted_rrf(rankings, {"vector": 1.0, "keyword": 1.0}, 20))
    joined = dict(weighted_rrf(rankings, {"vector": 1.0, "keyword": 1.0}, 20, {belief: turn}))
    assert apart[turn] < apart[other]
    assert belief not in joined
    assert joined[turn] == pytest.approx(2 / 21)
    assert joined[turn] > joined[other]


def test_a_route_finding_both_a_belief_and_its_turn_votes_once_at_the_better_rank() -> None:
    belief: ItemKey = ("belief", "b")
    turn: ItemKey = ("evidence", "t")
    fused = weighted_rrf({"keyword": [("evidence", "x"), turn, belief]}, {"keyword": 2.0}, 20, {belief: turn})
    assert dict(fused)[turn] == pytest.approx(2 / 22)


@given(rankings, st.integers(min_value=1, max_value=100))
def test_standing_for_another_key_never_lowers_the_total_score(r: dict[str, list[ItemKey]], k: int) -> None:
    weights = {"keyword": 1.0, "vector": 0.5, "graph": 2.0}
    found = sorted({key for ranked in r.values() for key in ranked})
    same: dict[ItemKey, ItemKey] = {key: ("evidence", key[1]) for key in found if key[0] == "belief"}
    joined = dict(weighted_rrf(r, weights, k, same))
    assert set(joined) == {same.get(key, key) for key in found}
    apart = dict(weighted_rrf(r, weights, k))
    for key, score in joined.items():
        parts = [apart[f] for f in found if same.get(f, f) == key]
        assert max(parts) - 1e-12 <= score <= sum(parts) + 1e-12


def test_only_a_belief_resting_on_one_turn_stands_for_it() -> None:
    at = datetime(2023, 5, 1, tzinfo=timezone.utc)

    def ref(i: str) -> EvidenceRef:
        return EvidenceRef(id=i, session="s1", speaker="Ana", observed_at=at)

    items: dict[ItemKey, Hydrated] = {
        ("belief", "one"): Hydrated("belief", "one", "Ana paints", (ref("t1"),), "s1", at, None, ()),
        ("belief", "two"): Hydrated("belief", "two", "Ana moved", (ref("t2"), ref("t3")), "s1", at, None, ()),
        ("evidence", "t4"): Hydrated("evidence", "t4", "hi", (ref("t4"),), "s1", at, "Ana", ()),
    }
    assert belief_turns(items) == {("belief", "one"): ("evidence", "t1")}


def test_a_belief_votes_for_its_turn_at_the_share_given() -> None:
    belief: ItemKey = ("belief", "b")
    turn: ItemKey = ("evidence", "t")
    rankings: dict[str, list[ItemKey]] = {"vector": [belief], "keyword": [turn]}
    fused = dict(weighted_rrf(rankings, {"vector": 1.0, "keyword": 2.0}, 20, {belief: turn}, share=0.5))
    assert fused == {turn: pytest.approx(2 / 21 + 0.5 / 21)}
    # a route that ranks the belief first and the turn second votes with the larger of the two
    both = dict(weighted_rrf({"vector": [belief, turn]}, {"vector": 1.0}, 20, {belief: turn}, share=0.5))
    assert both == {turn: pytest.approx(1 / 22)}


def test_a_share_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(ValueError):
        weighted_rrf({"a": [("evidence", "x")]}, {"a": 1.0}, 20, {}, share=1.5)


def _rrf_as_defined(
    rankings: dict[str, list[ItemKey]], weights: dict[str, float], k: int, same: dict[ItemKey, ItemKey], share: float
) -> list[tuple[ItemKey, float]]:
    """``weighted_rrf`` written as its docstring states it (its form before the loop was made
    cheaper): each vote through ``max`` and each best rank through ``min``, per occurrence."""
    scores: dict[ItemKey, float] = {}
    best_rank: dict[ItemKey, int] = {}
    for route, ranked in rankings.items():
        weight = weights.get(route, 0.0)
        if weight <= 0.0:
            continue
        votes: dict[ItemKey, float] = {}
        for rank, found in enumerate(ranked, start=1):
            key = same.get(found, found) if same else found
            vote = weight / (k + rank) * (share if key != found else 1.0)
            votes[key] = max(votes.get(key, 0.0), vote)
            best_rank[key] = min(best_rank.get(key, rank), rank)
        for key, vote in votes.items():
            scores[key] = scores.get(key, 0.0) + vote
    return sorted(scores.items(), key=lambda kv: (-kv[1], best_rank[kv[0]], kv[0]))


# Few ids, so that a route often lists a belief and the turn it stands for, in either order.
crowded: st.SearchStrategy[dict[str, list[ItemKey]]] = st.dictionaries(
    st.sampled_from(["keyword", "vector", "graph"]),
    st.lists(st.tuples(kinds, st.sampled_from(["a", "b", "c"])), max_size=8),
    max_size=3,
)


@given(
    st.one_of(rankings, crowded),
    st.integers(min_value=1, max_value=100),
    st.sampled_from([0.0, 0.25, 0.5, 1.0]),
    st.booleans(),
    st.fixed_dictionaries({route: st.sampled_from([0.0, 0.3, 1.0, 2.0]) for route in ("keyword", "vector", "graph")}),
)
# Two turns tied in score, each first in one route and second in the other: the best single
# rank (1 for both, then the key) orders them, not the rank a later route gave.
@example(
    {"keyword": [("evidence", "x"), ("evidence", "y")], "vector": [("evidence", "y"), ("evidence", "x")]},
    20, 0.5, False, {"keyword": 1.0, "vector": 1.0, "graph": 0.0},
)
def test_fusion_gives_the_definitions_list_bit_for_bit(
    r: dict[str, list[ItemKey]], k: int, share: float, standing: bool, weights: dict[str, float]
) -> None:
    # The same keys, scores (exact floats, not approximately) and order as the definition,
    # with and without beliefs standing for turns (a belief before and after its turn in a
    # route, repeated keys, weights of 0).
    found = sorted({key for ranked in r.values() for key in ranked})
    same: dict[ItemKey, ItemKey] = {key: ("evidence", key[1]) for key in found if key[0] == "belief"} if standing else {}
    assert weighted_rrf(r, weights, k, same, share) == _rrf_as_defined(r, weights, k, same, share)


def test_equal_scores_share_the_rank_of_the_first_of_them() -> None:
    assert shared_ranks([0.9, 0.8, 0.8, 0.7]) == [1, 2, 2, 4]
    # Two vectors of one text embedded in different batches: cosines a few ulps apart.
    assert shared_ranks([0.6489630034959866, 0.6489630034959863, 0.6]) == [1, 1, 3]
    assert shared_ranks([0.5, 0.5 - 10 * TIE_TOLERANCE]) == [1, 2]
    assert shared_ranks([]) == []


@given(st.lists(st.sampled_from([0.9, 0.5, 0.5, 0.5, 0.2]), min_size=1, max_size=8), st.randoms())
def test_the_order_a_store_gives_equal_hits_does_not_change_the_fusion(levels: list[float], rnd: random.Random) -> None:
    # Ids hash the space: two spaces (or backends) holding the same turns list equals in
    # other orders. Shuffle the hits within each score and fuse again: the same scores.
    hits: list[tuple[ItemKey, float]] = [(("evidence", f"h{i}"), s) for i, s in enumerate(sorted(levels, reverse=True))]
    shuffled = sorted(rnd.sample(hits, len(hits)), key=lambda h: -h[1])
    fused = [
        dict(weighted_rrf({"vector": [k for k, _ in order]}, {"vector": 1.0}, 20, ranks={"vector": shared_ranks([s for _, s in order])}))
        for order in (hits, shuffled)
    ]
    assert fused[0] == fused[1]
