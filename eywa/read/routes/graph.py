"""The graph route: entities named in the question, up to two hops over the co-mention
graph, then the turns and beliefs about them.

The graph is the store's (``EntityGraph``: co-mention weights kept by every Level 0 write),
walked by one store call per question; nothing is rebuilt or cached here. Candidates come
from the keyword index (cheap, already relevant to the question); the walk decides which of
them are about the named entities or their neighbours.

The route keeps only ``limit`` hits, turns and beliefs alternating, so it needs only the
first turns in reach and the best beliefs: the store places the candidates, best first, a
few at a time, until ``settled_cut`` says that no candidate left unread could enter the cut
(a belief's score divided by 1 + its distance is at most its keyword score). The hits are
the same as when every candidate is placed; on the 10k bench store about a third of the
candidates' mentions and subjects are read (docs/latency.md, "Session 50, the graph
route's settled cut").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from eywa.ids import entity_id
from eywa.read.routes.base import Query, RouteHit
from eywa.stores.bundle import Stores
from eywa.stores.entity_graph import MAX_HOPS, Reach, Unsettled

__all__ = ["FANOUT", "MAX_HOPS", "TURN_HOPS", "GraphRoute", "graph_cut", "settled_cut"]

# Turns must mention a named entity or a direct neighbour of one; beliefs may be about any
# entity within ``MAX_HOPS``, their score divided by (1 + distance).
TURN_HOPS: Final = 1
# Each entity reached expands to its heaviest co-mention edges only, so a hub (a speaker
# co-mentioned with everything said to them) does not pull in the whole space.
FANOUT: Final = 50
# Candidates read beyond the least that could settle the cut (and a quarter more): a read is
# one statement, and a cut mostly needs a few more than the least, out of reach or outranked
# (docs/latency.md, "Session 50, the graph route's settled cut").
_SLACK: Final = 4


class GraphRoute:
    """Named entities → up to two hops over the entity graph → their beliefs and turns."""

    name: Final = "graph"

    def __init__(self, stores: Stores) -> None:
        self._stores = stores

    def run(self, query: Query) -> list[RouteHit]:
        if not query.plan.people:
            return []
        candidates = query.keyword_hits(self._stores.keyword, "evidence") + query.keyword_hits(
            self._stores.keyword, "belief"
        )
        evidence_ids = [i for kind, i, _ in candidates if kind == "evidence"]
        beliefs = [(i, score) for kind, i, score in candidates if kind == "belief"]
        belief_ids = [i for i, _ in beliefs]
        # A prefix read is exact only over distinct candidates (the keyword index's are).
        distinct = len(set(evidence_ids)) == len(evidence_ids) and len(set(belief_ids)) == len(belief_ids)
        reach = self._stores.graph.neighbours(
            query.space,
            [entity_id(query.space, name) for name in query.plan.people],
            MAX_HOPS,
            FANOUT,
            evidence_ids=evidence_ids,
            belief_ids=belief_ids,
            until=settled_cut(evidence_ids, beliefs, query.limit) if distinct else None,
        )
        return graph_cut(candidates, reach, query.limit)


def graph_cut(candidates: Sequence[tuple[str, str, float]], reach: Reach, limit: int) -> list[RouteHit]:
    """The route's hits: the candidate turns within ``TURN_HOPS`` in keyword order, and the
    candidate beliefs in reach by keyword score over 1 + distance, alternated, ``limit`` kept.
    Candidates absent from ``reach`` are out of reach (or were not read: ``settled_cut``)."""
    turns = [
        RouteHit("evidence", i, score)
        for kind, i, score in candidates
        if kind == "evidence" and reach.evidence.get(i, MAX_HOPS + 1) <= TURN_HOPS
    ]
    beliefs = [
        RouteHit("belief", i, score / (1 + reach.beliefs[i]))
        for kind, i, score in candidates
        if kind == "belief" and i in reach.beliefs
    ]
    beliefs.sort(key=lambda h: -h.score)
    return _interleave(turns, beliefs)[:limit]


def _interleave(first: list[RouteHit], second: list[RouteHit]) -> list[RouteHit]:
    """Alternate two rankings (their scores are not comparable), first one leading."""
    merged: list[RouteHit] = []
    for pair in zip(first, second):
        merged.extend(pair)
    longer = first if len(first) > len(second) else second
    merged.extend(longer[min(len(first), len(second)) :])
    return merged


def settled_cut(evidence_ids: Sequence[str], beliefs: Sequence[tuple[str, float]], limit: int) -> Unsettled:
    """The stop rule of ``GraphRoute.run``'s placement: how many more candidates the cut
    ``_interleave(turns, beliefs)[:limit]`` still needs read before it can no longer change.

    The cut takes the first ``ceil(limit / 2)`` turns in reach and the ``limit // 2`` best
    beliefs, or more of one kind when the other has fewer (known only once all of that kind
    are read). Turns are settled once that many are found in reach, in candidate order.
    Beliefs, ranked by keyword score over 1 + distance, are settled once the last one the cut
    keeps scores at least the best any unread candidate could (``_ceilings``): a tie ranks
    the unread one after it, as the route's stable sort does. ``evidence_ids`` are the
    candidate turns and ``beliefs`` the candidate beliefs (id, keyword score), each distinct
    and in the order the store is asked them.

    The counts asked are the least that could settle the cut, with some slack
    (``_with_slack``): a read costs a statement, and most cuts need a few more candidates
    than the least, some out of reach or outranked.
    """
    ceilings = _ceilings([score for _, score in beliefs])
    half_up, half_down = (limit + 1) // 2, limit // 2

    def unsettled(reach: Reach, evidence_read: int, beliefs_read: int) -> tuple[int, int]:
        turns_done, beliefs_done = evidence_read >= len(evidence_ids), beliefs_read >= len(beliefs)
        turns = sum(1 for i in evidence_ids[:evidence_read] if reach.evidence.get(i, MAX_HOPS + 1) <= TURN_HOPS)
        ranked = sorted(
            (score / (1 + reach.beliefs[i]) for i, score in beliefs[:beliefs_read] if i in reach.beliefs),
            reverse=True,
        )
        turns_needed = limit - len(ranked) if beliefs_done and len(ranked) < half_down else half_up
        beliefs_needed = limit - turns if turns_done and turns < half_up else half_down
        more_turns = 0 if turns_done or turns >= turns_needed else _with_slack(turns_needed - turns)
        if beliefs_done or beliefs_needed <= 0:
            more_beliefs = 0
        elif len(ranked) < beliefs_needed:
            more_beliefs = _with_slack(beliefs_needed - len(ranked))
        else:
            last = ranked[beliefs_needed - 1]
            # As many as could still outrank the cut's last belief: reading them settles it.
            unread = ceilings[beliefs_read:]
            more_beliefs = next((n for n, ceiling in enumerate(unread) if last >= ceiling), len(unread))
        return more_turns, more_beliefs

    return unsettled


def _ceilings(scores: Sequence[float]) -> list[float]:
    """``ceilings[n]``: the best score a belief among ``scores[n:]`` could have once divided by
    1 + its distance (any distance up to ``MAX_HOPS``; a negative score is best far away);
    ``ceilings[len(scores)]`` is -inf. Scores are not assumed sorted."""
    ceilings = [float("-inf")] * (len(scores) + 1)
    farthest = 1 + MAX_HOPS
    for n in range(len(scores) - 1, -1, -1):
        # The best of score / (1 + hops) over the hops: the score itself (at no distance) when
        # it is not negative, else the score over the farthest distance; the same float the
        # divisions by each distance give (a generator of them cost ~1.3 us a belief, ~117 a
        # recall at 10k).
        score = scores[n]
        best = score if score >= 0 else score / farthest
        ceilings[n] = max(best, ceilings[n + 1])
    return ceilings


def _with_slack(least: int) -> int:
    """How many candidates to read when at least ``least`` are needed (see ``settled_cut``)."""
    return least + least // 4 + _SLACK
