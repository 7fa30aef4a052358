"""Pure metric functions of the trace-level evaluation protocol.

Why pure: the numbers a benchmark reports are only as trustworthy as the few lines that
compute them, so they take plain values (dia_ids, token counts, latencies) and are unit
tested on hand-made cases, separately from retrieval.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from pydantic import BaseModel, ConfigDict

__all__ = [
    "CATEGORY_NAMES",
    "CategoryStats",
    "QuestionScore",
    "all_found",
    "evidence_recall",
    "first_k_turns",
    "percentile",
    "summarise",
]

CATEGORY_NAMES: dict[int, str] = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
}


def first_k_turns(cited: Iterable[Sequence[str | None]], k: int) -> list[str]:
    """The first ``k`` distinct turns cited by ranked items.

    ``cited`` holds, per item in rank order, the turn ids (dia_ids) of its provenance in
    order; ``None`` marks evidence without a turn id and is ignored. A belief citing three
    turns therefore uses three of the ``k`` slots, which keeps items of different kinds
    comparable: the budget is counted in turns, not in items.
    """
    if k <= 0:
        return []
    seen: list[str] = []
    for turns in cited:
        for turn in turns:
            if turn is None or turn in seen:
                continue
            seen.append(turn)
            if len(seen) == k:
                return seen
    return seen


def evidence_recall(gold: Sequence[str], retrieved: Sequence[str]) -> float | None:
    """Share of the distinct gold turns found in ``retrieved``; ``None`` without gold."""
    wanted = set(gold)
    if not wanted:
        return None
    return len(wanted & set(retrieved)) / len(wanted)


def all_found(gold: Sequence[str], retrieved: Sequence[str]) -> bool | None:
    """Whether every gold turn was retrieved; ``None`` without gold."""
    wanted = set(gold)
    if not wanted:
        return None
    return wanted <= set(retrieved)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100, linear interpolation); 0.0 for no values."""
    if not values:
        return 0.0
    return float(np.percentile(np.asarray(values, dtype=np.float64), q))


class QuestionScore(BaseModel):
    """What the summary needs from one evaluated question."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    category: int
    recall: float | None
    hit: bool | None
    tokens: int
    latency_ms: float


class CategoryStats(BaseModel):
    """Aggregates over a group of questions.

    ``scored`` counts the questions with at least one usable gold turn; recall and hit rate
    average over those only, while tokens and latency cover every question.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    questions: int
    scored: int
    recall_at_k: float
    all_hit_rate: float
    tokens_mean: float
    tokens_max: int
    latency_p50_ms: float
    latency_p95_ms: float


def summarise(name: str, scores: Sequence[QuestionScore]) -> CategoryStats:
    """Aggregate question scores; averages are over questions, not over sub-groups."""
    recalls = [s.recall for s in scores if s.recall is not None]
    hits = [s.hit for s in scores if s.hit is not None]
    tokens = [s.tokens for s in scores]
    latencies = [s.latency_ms for s in scores]
    return CategoryStats(
        name=name,
        questions=len(scores),
        scored=len(recalls),
        recall_at_k=float(np.mean(recalls)) if recalls else 0.0,
        all_hit_rate=sum(hits) / len(hits) if hits else 0.0,
        tokens_mean=float(np.mean(tokens)) if tokens else 0.0,
        tokens_max=max(tokens, default=0),
        latency_p50_ms=percentile(latencies, 50),
        latency_p95_ms=percentile(latencies, 95),
    )
