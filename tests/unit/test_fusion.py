"""Weighted RRF and the lead of a claimed answer: the formulas, and properties that must hold
for any input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eywa.read.fusion import lead_with, weighted_rrf

keys = st.tuples(st.sampled_from(["evidence", "belief"]), st.text("abcdef", min_size=1, max_size=3))
rankings = st.dictionaries(st.sampled_from(["keyword", "vector", "graph"]), st.lists(keys, max_size=12), max_size=3)


def test_formula_matches_the_definition() -> None:
    fused = dict(weighted_rrf({"a": [("e", "x"), ("e", "y")], "b": [("e", "y")]}, {"a": 1.0, "b": 2.0}, k=20))
    assert fused[("e", "x")] == pytest.approx(1 / 21)
    assert fused[("e", "y")] == pytest.approx(1 / 22 + 2 / 21)


def test_zero_weight_route_is_ignored() -> None:
    assert weighted_rrf({"a": [("e", "x")]}, {"a": 0.0}, k=20) == []


@given(rankings, st.integers(min_value=1, max_value=100))
def test_scores_are_sorted_positive_and_cover_weighted_items(r: dict[str, list[tuple[str, str]]], k: int) -> None:
    weights = {"keyword": 1.0, "vector": 0.5, "graph": 2.0}
    fused = weighted_rrf(r, weights, k)
    scores = [s for _, s in fused]
    assert scores == sorted(scores, reverse=True)
    assert all(s > 0 for s in scores)
    assert {key for key, _ in fused} == {key for ranked in r.values() for key in ranked}


@given(rankings)
def test_raising_a_routes_weight_never_lowers_its_items(r: dict[str, list[tuple[str, str]]]) -> None:
    low = dict(weighted_rrf(r, {"keyword": 1.0, "vector": 1.0, "graph": 1.0}, 20))
    high = dict(weighted_rrf(r, {"keyword": 2.0, "vector": 1.0, "graph": 1.0}, 20))
    for key in low:
        assert high[key] >= low[key] - 1e-12


@given(rankings, keys, st.integers(min_value=1, max_value=100))
def test_a_claimed_answer_leads_above_anything_the_routes_can_rank(
    r: dict[str, list[tuple[str, str]]], answer: tuple[str, str], k: int
) -> None:
    weights = {"keyword": 2.0, "vector": 1.0, "graph": 0.5}
    fused = weighted_rrf(r, weights, k)
    led = lead_with(fused, answer, weights, k)
    assert led[0] == (answer, pytest.approx(3.5 / k))
    # above an item ranked first by every route, which is the most fusion can give
    assert led[0][1] > sum(weights.values()) / (k + 1)
    assert [key for key, _ in led[1:]] == [key for key, _ in fused if key != answer]
    assert dict(led[1:]) == {key: s for key, s in fused if key != answer}
