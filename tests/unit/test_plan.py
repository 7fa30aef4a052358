"""Route and stage names are closed sets: switching a route off removes exactly its weight
(and the trace says so), a post-filter name leaves the weights alone, and a policy name is
checked even when the caller is not type-checked."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import get_args

import pytest

from eywa.errors import InvalidInputError
from eywa.models import PostFilter, RouteName, Stage
from eywa.read.plan import ROUTE_NAMES, ROUTE_WEIGHTS, make_plan
from eywa.read.policies import answer_instructions, check_policy
from eywa.read.reader import POST_FILTERS

NOW = datetime(2024, 1, 1, tzinfo=UTC)


def test_stages_are_the_routes_and_the_post_filters() -> None:
    assert set(get_args(Stage)) == set(get_args(RouteName)) | set(get_args(PostFilter))
    assert set(ROUTE_NAMES) == set(get_args(RouteName)) and set(POST_FILTERS) == set(get_args(PostFilter))
    assert {route for row in ROUTE_WEIGHTS.values() for route in row} <= set(ROUTE_NAMES)


def test_a_disabled_route_loses_its_weight_and_the_trace_says_so() -> None:
    full = make_plan("What does Ana like?", [], NOW)
    assert full.weights["graph"] > 0
    plan = make_plan("What does Ana like?", [], NOW, frozenset({"graph", "floor"}))
    assert "graph" not in plan.weights
    assert dict(plan.weights) == {r: w for r, w in full.weights.items() if r != "graph"}
    assert plan.notes == ("route graph disabled",)


@pytest.mark.parametrize("name", ["strict", "balanced", "advanced"])
def test_known_policies_have_instructions(name: str) -> None:
    assert check_policy(name) == name and answer_instructions(check_policy(name))


@pytest.mark.parametrize("name", ["loose", "", None, 3])
def test_an_unknown_policy_is_an_input_error(name: object) -> None:
    with pytest.raises(InvalidInputError, match="unknown policy"):
        check_policy(name)
