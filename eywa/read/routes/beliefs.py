"""The belief route: what is known of the named person leads back to the turns that said it.

A list or aggregate question ("What activities has Ana done?", "How many times did Ana plan
to move?") has its evidence spread over many sessions, each turn sharing few words with the
question; an inference question ("Which state does Ana probably live in?") may share none.
The validated beliefs about the person are the index for both: each is one short
statement with an attribute (hobbies, life events, plans, pets…) and cites the turns it
rests on. This route reads the active beliefs of each person the question names whose
attribute the question asks about (one store call for every person and attribute,
``BeliefStore.beliefs_about``: one round trip on a server, where a call per person and
attribute made a list question wait on several in a row; the planner's attribute vocabulary: "activities" → hobbies, and
the attributes that answer for it: life events), ranks them by the share of the
question's topic words (``Plan.other_words``) their statement holds, and offers their
*cited turns*. The turns, not the beliefs, are offered: the answer is in what was said, and
a turn found this way is fused with the same turn found by the other routes.

Why the attribute must be asked: a variant that also offered any belief of the person
sharing a topic word with the question lost single-hop questions (-0.4 points) and one
development conversation (-1.2), where a belief's one shared word pulled in an unrelated
turn; with the attribute required the route helps open-domain (+1.1) and multi-hop (+0.2)
questions and hurts no conversation by more than 0.3 (docs/evaluation.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from eywa.models import Belief
from eywa.stores.beliefs import BeliefLine
from eywa.read.overlap import overlap, terms
from eywa.read.plan import Plan
from eywa.read.routes.base import Query, RouteHit
from eywa.stores.bundle import Stores

__all__ = ["ATTRIBUTE_MATCH", "RELATED_ATTRIBUTES", "BeliefRoute", "asked_attributes", "belief_match"]

# A belief whose attribute the question asks about scores this, plus its topic overlap (0-1).
ATTRIBUTE_MATCH: Final = 1.0
# Attributes that answer for each other: an activity someone did is a life event, an event
# they keep doing a hobby; a plan is the event before it happens.
RELATED_ATTRIBUTES: Final = {
    "hobbies": frozenset({"life_events"}),
    "life_events": frozenset({"hobbies", "plans"}),
    "plans": frozenset({"life_events"}),
}


def belief_match(belief: Belief | BeliefLine, asked: frozenset[str], topic: set[str]) -> float:
    """How well a belief answers the question: 0 unless its attribute is asked about, else
    ``ATTRIBUTE_MATCH`` plus the share of the question's topic words its statement holds (a
    question with no topic words asks for the whole set: "What pets does Ana have?")."""
    if belief.attribute not in asked:
        return 0.0
    return ATTRIBUTE_MATCH + (overlap(topic, f"{belief.statement} {belief.value or ''}") if topic else 0.0)


def asked_attributes(plan: Plan) -> frozenset[str]:
    """The attributes the plan asks about with those that answer for them."""
    asked = set(plan.attributes)
    for attribute in plan.attributes:
        asked |= RELATED_ATTRIBUTES.get(attribute, frozenset())
    return frozenset(asked)


class BeliefRoute:
    """The named people's beliefs matching the question → the turns they cite."""

    name: Final = "beliefs"

    def __init__(self, stores: Stores) -> None:
        self._stores = stores

    def run(self, query: Query) -> list[RouteHit]:
        plan = query.plan
        if not plan.entities:
            return []
        asked = asked_attributes(plan)
        if not asked:
            return []
        topic = terms(" ".join(plan.other_words))
        # The store filters: a person's other beliefs are never loaded.
        about = self._stores.beliefs.beliefs_about(query.space, plan.entities, sorted(asked))
        scored: list[tuple[float, BeliefLine]] = []
        for subject in plan.entities:
            for attribute in sorted(asked):  # the order a call per (person, attribute) listed them in
                for belief in about.get(subject, []):
                    if belief.attribute == attribute and (score := belief_match(belief, asked, topic)) > 0.0:
                        scored.append((score, belief))
        scored.sort(key=lambda pair: -pair[0])
        return _cited_turns(scored, query.limit)


def _cited_turns(scored: Sequence[tuple[float, BeliefLine]], limit: int) -> list[RouteHit]:
    """Each belief's cited turns in its rank, a turn once (at its best belief's score)."""
    hits: list[RouteHit] = []
    seen: set[str] = set()
    for score, belief in scored:
        for evidence_id in belief.evidence_ids:
            if evidence_id not in seen:
                seen.add(evidence_id)
                hits.append(RouteHit("evidence", evidence_id, score))
    return hits[:limit]
