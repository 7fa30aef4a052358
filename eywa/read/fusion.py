"""Weighted reciprocal rank fusion over candidates that may stand for one another, and the
lead of a claimed answer. Pure, so both can be property-tested."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Final, TypeVar

from eywa.models import ItemKind
from eywa.read.items import Hydrated

ItemKey = tuple[ItemKind, str]  # (kind, id)
RouteT = TypeVar("RouteT", bound=str)

# A route's vote for a belief counts for the turn the belief rests on at this share
# (``belief_turns``). Chosen by leave one conversation out among 0 (belief and turn apart),
# 0.25, 0.5 and 1 on the LoCoMo development file: 0.5 in four folds, 0.25 in one. At 1 a
# turn with a belief outvoted the turn that answers a one-turn question (single-hop -0.8,
# open-domain -1.7); at 0.5 no conversation lost (docs/evaluation.md).
BELIEF_SHARE: Final = 0.5
# Route scores this close (relative) are one score (``shared_ranks``). Vectors are float32
# (about seven significant digits): two embeddings of one text made in different batches
# differ there, and so do their cosines; two hits that really differ differ by far more.
TIE_TOLERANCE: Final = 1e-6
# The routes whose order is their score alone (BM25, cosine): among their equals the order is
# the store's (by id, or float noise), so equals share a rank. The other routes order equals
# on purpose (the temporal route by its keyword rank within a window, the graph route by hops
# before score), and keep their order.
SCORE_ORDERED: Final[frozenset[str]] = frozenset({"keyword", "vector", "person"})
# The routes that rank by one keyword index, and so are one witness, not three: the graph
# route's turns are the keyword route's hits that speak of the named people, in the keyword
# route's order, and the feedback route searches the same index again with words of the
# keyword route's best hits. For an aggregate question (``Plan.aggregate``: "What hobbies has
# Ana taken up?") they vote once, with the largest of their votes (``vote_groups``): summed,
# they raised the named person's turns that say the question's words (what every route agrees
# on, and what fills a list question's ten places with one item's small talk) over the turns
# that tell the other items, which the dense routes find. Measured on the LoCoMo development
# file for every shape and for aggregate questions only, with the grouped routes' other votes
# at 0, 0.25 or 0.5: aggregate questions at 0 helped four conversations of five and hurt none
# (multi-hop +0.6), and the held-out set's multi-hop questions (+2.4); for every shape it lost
# "when" questions, a conversation (-1.2) and a held-out one (-4.3): a one-answer question's
# answer is the turn that holds its words, which their agreement finds (docs/evaluation.md).
LEXICAL_ROUTES: Final[frozenset[str]] = frozenset({"keyword", "graph", "feedback"})


def weighted_rrf(
    rankings: Mapping[RouteT, Sequence[ItemKey]],
    weights: Mapping[RouteT, float],
    k: int,
    same: Mapping[ItemKey, ItemKey] | None = None,
    share: float = 1.0,
    ranks: Mapping[RouteT, Sequence[int]] | None = None,
    groups: Sequence[Collection[str]] = (),
) -> list[tuple[ItemKey, float]]:
    """``score(d) = Σ_r w_r / (k + rank_r(d))`` with ranks starting at 1.

    ``groups`` holds sets of routes that are one witness (``vote_groups``): the routes of a
    group give a candidate one vote, the largest of theirs, where the others' votes add up. A
    route in no group, or alone in one, votes as without groups (the same floats).

    ``ranks`` gives a route's rank for each of its hits where it is not their position:
    ``shared_ranks`` of its scores, adjacent hits with the same score sharing the rank of the
    first of them. The order a store gives equals is its own (by id, and ids hash the space),
    so without it two spaces holding the same turns, or two backends, would fuse equals apart.

    ``same`` maps a candidate to the one it stands for (``belief_turns``: a belief resting on
    one turn is that turn): a route's vote for it counts for that one at ``share`` of its
    value, and a route that found both votes once, with the larger of the two votes. A
    route with weight 0 (or absent from ``weights``) contributes nothing. Ties break on the
    best single rank, then on the key, so the order is deterministic.
    """
    if k < 1:
        raise ValueError("k must be >= 1")
    if not 0.0 <= share <= 1.0:
        raise ValueError("share must be between 0 and 1")
    fused: dict[ItemKey, float] = {}
    best_rank: dict[ItemKey, int] = {}
    # Per group, each candidate's largest vote so far: a later route of the group adds only
    # what its vote has beyond it (nothing when it is smaller), so the group counts it once.
    group_of = {route: n for n, group in enumerate(groups) for route in group}
    largest: list[dict[ItemKey, float]] = [{} for _ in groups]
    for route, ranked in rankings.items():
        weight = weights.get(route, 0.0)
        if weight <= 0.0:
            continue
        votes: dict[ItemKey, float] = {}
        # The same arithmetic as ``max(votes.get(key, 0.0), vote)`` and ``min(best_rank.get(key,
        # rank), rank)``, without two calls per candidate (~400 candidates a recall): a vote is
        # positive, and a route's ranks only grow, so a key's first vote and rank in this
        # route are its largest and its best here.
        given = ranks.get(route) if ranks else None
        for rank, found in zip(given if given is not None else range(1, len(ranked) + 1), ranked):
            vote = weight / (k + rank)
            key = found
            if same:
                key = same.get(found, found)
                if key != found:
                    vote *= share
            previous = votes.get(key)
            if previous is None:
                votes[key] = vote
                if rank < best_rank.get(key, rank + 1):
                    best_rank[key] = rank
            elif vote > previous:
                votes[key] = vote
        group = group_of.get(route)
        if group is None:
            for key, vote in votes.items():
                fused[key] = fused.get(key, 0.0) + vote
            continue
        seen = largest[group]
        for key, vote in votes.items():
            before = seen.get(key)
            if before is None:
                seen[key] = vote
                fused[key] = fused.get(key, 0.0) + vote
            elif vote > before:
                seen[key] = vote
                fused[key] += vote - before
    return sorted(fused.items(), key=lambda kv: (-kv[1], best_rank[kv[0]], kv[0]))


def vote_groups(aggregate: bool) -> tuple[frozenset[str], ...]:
    """The routes that vote as one in fusion (``weighted_rrf``'s ``groups``): the lexical
    routes for an aggregate question (``LEXICAL_ROUTES``), none for a question with one answer,
    whose answer is the turn that holds the question's words, which their agreement finds."""
    return (LEXICAL_ROUTES,) if aggregate else ()


def shared_ranks(scores: Sequence[float]) -> list[int]:
    """Ranks from 1 in the order given, a score equal to the one before sharing its rank
    ("competition" ranking: 0.9, 0.8, 0.8, 0.7 → 1, 2, 2, 4). Only neighbours are compared:
    a route ranks its hits by its score, so equals stand together. Equal is within
    ``TIE_TOLERANCE`` of the larger: two vectors of one text embedded in different batches
    differ in their last float32 bits, and so do their cosines (by 3e-16, measured)."""
    ranks: list[int] = []
    for position, score in enumerate(scores, start=1):
        before = scores[position - 2] if ranks else None
        tied = before is not None and abs(before - score) <= TIE_TOLERANCE * max(1.0, abs(before), abs(score))
        ranks.append(ranks[-1] if tied else position)
    return ranks


def belief_turns(items: Mapping[ItemKey, Hydrated]) -> dict[ItemKey, ItemKey]:
    """Each belief among ``items`` that rests on a single turn → that turn's key.

    Such a belief is its turn said again (the rule extractor words one turn as one
    statement): de-duplication already keeps only one of the two, so in fusion they are
    one candidate, and the routes that found the statement vote for the turn beside those
    that found the turn. Kept apart, the two split their votes and the pair ranks below a
    turn that one route alone put first. A belief's statement names its subject and says
    the fact plainly, so the vector route often finds it when it misses the turn (the turn
    is embedded with its neighbours, in the speaker's words). On the LoCoMo development file
    this raised multi-hop recall@10 in every conversation (docs/evaluation.md): a list
    question's evidence turns are often found once as a turn and once as a belief.
    """
    return {
        key: ("evidence", item.provenance[0].id)
        for key, item in items.items()
        if key[0] == "belief" and len(item.provenance) == 1
    }


def lead_with(
    fused: Sequence[tuple[ItemKey, float]],
    answers: Sequence[ItemKey],
    weights: Mapping[RouteT, float],
    k: int,
) -> list[tuple[ItemKey, float]]:
    """``fused`` with ``answers`` first, in their order, the first scored ``Σ_r w_r / k``.

    That is the score of an item ranked ahead of the first hit of every route (rank 0), so
    it is above anything fusion gives (at most ``Σ_r w_r / (k + 1)``) whatever the routes
    found, and it does not depend on the other items. Each further answer scores a little
    less, still above anything fusion gives. Used for the dimensions that claim the answer
    to a current-state question (``eywa.read.routes.dimension``), one per person asked about
    ("Where do Ana and Ben live?").
    """
    if k < 1:
        raise ValueError("k must be >= 1")
    total = sum(w for w in weights.values() if w > 0.0)
    step = (total / k - total / (k + 1)) / (len(answers) + 1)
    led = [(answer, total / k - i * step) for i, answer in enumerate(dict.fromkeys(answers))]
    chosen = {answer for answer, _ in led}
    return [*led, *((key, s) for key, s in fused if key not in chosen)]
