"""How the belief route scores a belief against a question (pure; the route itself is in
tests/conformance/test_belief_route.py)."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from eywa.models import Belief
from eywa.read.overlap import terms
from eywa.read.plan import make_plan
from eywa.read.routes.beliefs import ATTRIBUTE_MATCH, asked_attributes, belief_match


def _belief(statement: str, attribute: str | None, value: str | None = None) -> Belief:
    return Belief(
        id="b1", space="s", statement=statement, subject="Ana", attribute=attribute, value=value,
        polarity="positive", modality="asserted", valid_from=None, valid_to=None,
        recorded_at=datetime(2023, 1, 1, tzinfo=UTC), status="active", extractor="rules", evidence_ids=("ev_1",),
    )  # fmt: skip


def test_only_a_belief_of_an_asked_attribute_matches_and_topic_words_rank_among_them() -> None:
    topic = terms("outdoor climbing")
    asked = frozenset({"hobbies"})
    climbing = belief_match(_belief("Ana goes climbing outdoors.", "hobbies", "climbing"), asked, topic)
    knitting = belief_match(_belief("Ana knits.", "hobbies", "knitting"), asked, topic)
    grill = belief_match(_belief("Ana bought an outdoor grill for climbing trips.", "possessions"), asked, topic)
    assert climbing > knitting == ATTRIBUTE_MATCH
    assert grill == 0.0  # every topic word shared, but not what the question asks about


def test_activities_ask_for_hobbies_and_the_life_events_that_answer_for_them() -> None:
    plan = make_plan("What activities has Ana done?", [], datetime(2024, 1, 1, tzinfo=UTC))
    assert {"hobbies", "life_events"} <= asked_attributes(plan)


@given(st.text(max_size=60), st.sampled_from(["hobbies", "pets", "life_events", None]), st.text(max_size=30))
def test_a_match_is_bounded_and_needs_an_asked_attribute(statement: str, attribute: str | None,
                                                                         topic: str) -> None:
    score = belief_match(_belief(statement or "x", attribute), frozenset({"hobbies"}), terms(topic))
    if attribute == "hobbies":
        assert ATTRIBUTE_MATCH <= score <= 2 * ATTRIBUTE_MATCH
    else:
        assert score == 0.0
