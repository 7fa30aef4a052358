"""Weighted reciprocal rank fusion, and the lead of a claimed answer. Pure, so both can be
property-tested."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

from eywa.models import ItemKind

ItemKey = tuple[ItemKind, str]  # (kind, id)
RouteT = TypeVar("RouteT", bound=str)


def weighted_rrf(
    rankings: Mapping[RouteT, Sequence[ItemKey]], weights: Mapping[RouteT, float], k: int
) -> list[tuple[ItemKey, float]]:
    """``score(d) = Σ_r w_r / (k + rank_r(d))`` with ranks starting at 1.

    A route with weight 0 (or absent from ``weights``) contributes nothing. Ties break on
    the best single rank, then on the key, so the order is deterministic.
    """
    if k < 1:
        raise ValueError("k must be >= 1")
    scores: dict[ItemKey, float] = {}
    best_rank: dict[ItemKey, int] = {}
    for route, ranked in rankings.items():
        weight = weights.get(route, 0.0)
        if weight <= 0.0:
            continue
        seen: set[ItemKey] = set()
        for rank, key in enumerate(ranked, start=1):
            if key in seen:
                continue
            seen.add(key)
            scores[key] = scores.get(key, 0.0) + weight / (k + rank)
            best_rank[key] = min(best_rank.get(key, rank), rank)
    return sorted(scores.items(), key=lambda kv: (-kv[1], best_rank[kv[0]], kv[0]))


def lead_with(
    fused: Sequence[tuple[ItemKey, float]], answer: ItemKey, weights: Mapping[RouteT, float], k: int
) -> list[tuple[ItemKey, float]]:
    """``fused`` with ``answer`` first, scored ``Σ_r w_r / k``.

    That is the score of an item ranked ahead of the first hit of every route (rank 0), so
    it is above anything fusion gives (at most ``Σ_r w_r / (k + 1)``) whatever the routes
    found, and it does not depend on the other items. Used for a dimension that claims the
    answer to a current-state question (``eywa.read.routes.dimension``).
    """
    if k < 1:
        raise ValueError("k must be >= 1")
    score = sum(w for w in weights.values() if w > 0.0) / k
    return [(answer, score), *((key, s) for key, s in fused if key != answer)]
