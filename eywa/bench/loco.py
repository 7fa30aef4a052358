"""Leave-one-conversation-out (LOCO): does a choice made on some conversations hold on another?

A retrieval constant (a weight, a threshold, a mechanism switched on or off) chosen on the
development conversations and measured on the same ones flatters itself. LOCO reads several
runs of ``eywa bench locomo`` over the same file — one per variant of the read path — and,
for each conversation in turn, picks the variant that scores best on the *other*
conversations and reports what that choice scores on the held-out one. Pooled over the
folds, that is the honest estimate of how the tuned read path does on a conversation it was
not tuned on.

It also answers, per variant against a baseline, which conversations and categories a
change helps and hurts: a change that helps one conversation and hurts the others is tuning,
not a mechanism. A variant is ``kept`` when it helps at least ``MIN_FOLDS_HELPED`` of the
conversations and hurts none by more than ``noise`` (points of recall@k).

The abstention signal (``evidence_strength`` of each record) is scored the same way: its
AUC separating category 5 (never said) from categories 1-4, and a threshold chosen on four
conversations applied to the fifth.

Everything here is pure: it reads plain records (``LocoRecord``) so it is unit tested on
hand-made numbers.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from pydantic import BaseModel, ConfigDict

__all__ = [
    "MIN_FOLDS_HELPED",
    "NOISE_POINTS",
    "AbstentionFold",
    "Ablation",
    "LocoFold",
    "LocoRecord",
    "LocoReport",
    "abstention_auc",
    "ablation",
    "load_run",
    "loco_report",
    "mean_recall",
]

SCORED: Final = (1, 2, 3, 4)
ABSTAIN_CATEGORY: Final = 5
# A variant is kept when it helps in at least this many conversations...
MIN_FOLDS_HELPED: Final = 3
# ...and hurts none by more than this many points of recall@k (about one question in a
# hundred-odd per conversation moving by a whole gold turn).
NOISE_POINTS: Final = 1.0


class LocoRecord(BaseModel):
    """What LOCO needs from one line of ``questions.jsonl``."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    sample_id: str
    category: int
    recall: float | None
    evidence_strength: float | None = None


def load_run(folder: Path) -> list[LocoRecord]:
    """The records of one ``eywa bench locomo --out`` folder.

    Raises:
        OSError: ``questions.jsonl`` cannot be read.
        pydantic.ValidationError: a line is not a question record.
    """
    lines = (folder / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    return [LocoRecord.model_validate(json.loads(line)) for line in lines if line.strip()]


def mean_recall(
    records: Sequence[LocoRecord], samples: frozenset[str] | None = None, categories: Sequence[int] = SCORED
) -> float | None:
    """Mean recall over the scored questions of ``categories`` (of ``samples``, default all);
    None when there is none. Averaged over questions, like the benchmark's overall row."""
    values = [
        r.recall for r in records
        if r.recall is not None and r.category in categories and (samples is None or r.sample_id in samples)
    ]  # fmt: skip
    return sum(values) / len(values) if values else None


class LocoFold(BaseModel):
    """One held-out conversation: the variant chosen on the others and what it scores."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    held_out: str
    chosen: str
    train_recall: float
    held_out_recall: float
    held_out_by_category: dict[int, float | None]
    """None where the held-out conversation has no question of the category."""


class Ablation(BaseModel):
    """A variant against the baseline: deltas in points of recall@k."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    variant: str
    overall: float
    by_conversation: dict[str, float]
    by_category: dict[int, float]
    helped: int
    worst: float
    kept: bool


class AbstentionFold(BaseModel):
    """The abstention threshold chosen on the other conversations, applied to one."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    held_out: str
    auc: float | None
    threshold: float
    balanced_accuracy: float | None


class LocoReport(BaseModel):
    """The LOCO estimate, the per-fold choices, the ablations and the abstention scores."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    baseline: str
    samples: tuple[str, ...]
    variants: dict[str, dict[str, float]]
    folds: tuple[LocoFold, ...]
    estimate: float
    estimate_by_category: dict[int, float]
    ablations: tuple[Ablation, ...]
    abstention: dict[str, tuple[AbstentionFold, ...]]
    abstention_auc: dict[str, float | None] = {}
    """Per variant, the AUC over every conversation's questions together."""


def _points(value: float | None) -> float:
    return round(100.0 * (value or 0.0), 2)


def ablation(name: str, variant: Sequence[LocoRecord], baseline: Sequence[LocoRecord], noise: float = NOISE_POINTS) -> Ablation:
    """Per-conversation and per-category deltas of ``variant`` over ``baseline`` (points)."""
    samples = sorted({r.sample_id for r in baseline})
    by_conversation = {
        s: round(_points(mean_recall(variant, frozenset({s}))) - _points(mean_recall(baseline, frozenset({s}))), 2)
        for s in samples
    }
    by_category = {
        c: round(_points(mean_recall(variant, categories=(c,))) - _points(mean_recall(baseline, categories=(c,))), 2)
        for c in SCORED
    }
    helped = sum(1 for d in by_conversation.values() if d > 0)
    worst = min(by_conversation.values(), default=0.0)
    return Ablation(
        variant=name,
        overall=round(_points(mean_recall(variant)) - _points(mean_recall(baseline)), 2),
        by_conversation=by_conversation,
        by_category=by_category,
        helped=helped,
        worst=worst,
        kept=helped >= min(MIN_FOLDS_HELPED, len(samples)) and worst >= -noise,
    )


def abstention_auc(records: Sequence[LocoRecord]) -> float | None:
    """Probability that a category 1-4 question has a higher evidence strength than a
    category 5 one (ties count half): 1.0 separates perfectly, 0.5 is chance. None when
    either side is empty or no record carries a strength."""
    answerable = [r.evidence_strength for r in records if r.category in SCORED and r.evidence_strength is not None]
    absent = [r.evidence_strength for r in records if r.category == ABSTAIN_CATEGORY and r.evidence_strength is not None]
    if not answerable or not absent:
        return None
    wins = sum((a > b) + 0.5 * (a == b) for a in answerable for b in absent)
    return round(wins / (len(answerable) * len(absent)), 4)


def _balanced_accuracy(records: Sequence[LocoRecord], threshold: float) -> float | None:
    """Mean of the two recalls: category 5 below ``threshold``, categories 1-4 at or above."""
    answerable = [r.evidence_strength for r in records if r.category in SCORED and r.evidence_strength is not None]
    absent = [r.evidence_strength for r in records if r.category == ABSTAIN_CATEGORY and r.evidence_strength is not None]
    if not answerable or not absent:
        return None
    kept = sum(1 for s in answerable if s >= threshold) / len(answerable)
    refused = sum(1 for s in absent if s < threshold) / len(absent)
    return (kept + refused) / 2


def _best_threshold(records: Sequence[LocoRecord]) -> float:
    """The strength threshold with the best balanced accuracy on ``records``."""
    values = sorted({r.evidence_strength for r in records if r.evidence_strength is not None})
    if not values:
        return 0.0
    return max(values, key=lambda t: (_balanced_accuracy(records, t) or 0.0, -t))


def _abstention_folds(records: Sequence[LocoRecord], samples: Sequence[str]) -> tuple[AbstentionFold, ...]:
    folds = []
    for held in samples:
        train = [r for r in records if r.sample_id != held]
        test = [r for r in records if r.sample_id == held]
        threshold = _best_threshold(train)
        accuracy = _balanced_accuracy(test, threshold)
        folds.append(
            AbstentionFold(
                held_out=held,
                auc=abstention_auc(test),
                threshold=round(threshold, 4),
                balanced_accuracy=None if accuracy is None else round(accuracy, 4),
            )
        )
    return tuple(folds)


def loco_report(runs: Mapping[str, Sequence[LocoRecord]], baseline: str, noise: float = NOISE_POINTS) -> LocoReport:
    """LOCO over ``runs`` (variant name → its records; one run per variant, same file).

    Per held-out conversation, the variant with the best recall on the other conversations
    is chosen (ties: the baseline, then the name order) and scored on the held-out one;
    the estimate pools the held-out questions of every fold.

    Raises:
        ValueError: ``baseline`` is not one of ``runs``, or the runs cover different samples.
    """
    if baseline not in runs:
        raise ValueError(f"baseline {baseline!r} is not one of the runs: {sorted(runs)}")
    samples = tuple(sorted({r.sample_id for r in runs[baseline]}))
    for name, records in runs.items():
        if tuple(sorted({r.sample_id for r in records})) != samples:
            raise ValueError(f"run {name!r} covers other samples than the baseline")
    order = [baseline, *sorted(n for n in runs if n != baseline)]
    folds: list[LocoFold] = []
    pooled: list[LocoRecord] = []
    for held in samples:
        train = frozenset(s for s in samples if s != held)
        scored = [(mean_recall(runs[name], train) or 0.0, -order.index(name), name) for name in order]
        train_recall, _, chosen = max(scored)
        test = [r for r in runs[chosen] if r.sample_id == held]
        pooled.extend(test)
        folds.append(
            LocoFold(
                held_out=held,
                chosen=chosen,
                train_recall=_points(train_recall),
                held_out_recall=_points(mean_recall(test)),
                held_out_by_category={
                    c: None if (value := mean_recall(test, categories=(c,))) is None else _points(value) for c in SCORED
                },
            )
        )
    variants = {
        name: {
            "overall": _points(mean_recall(records)),
            **{f"cat{c}": _points(mean_recall(records, categories=(c,))) for c in SCORED},
            **{s: _points(mean_recall(records, frozenset({s}))) for s in samples},
        }
        for name, records in ((n, runs[n]) for n in order)
    }
    return LocoReport(
        baseline=baseline,
        samples=samples,
        variants=variants,
        folds=tuple(folds),
        estimate=_points(mean_recall(pooled)),
        estimate_by_category={c: _points(mean_recall(pooled, categories=(c,))) for c in SCORED},
        ablations=tuple(ablation(name, runs[name], runs[baseline], noise) for name in order[1:]),
        abstention={
            name: _abstention_folds(runs[name], samples)
            for name in order
            if any(r.evidence_strength is not None for r in runs[name])
        },
        abstention_auc={
            name: abstention_auc(runs[name]) for name in order if any(r.evidence_strength is not None for r in runs[name])
        },
    )
