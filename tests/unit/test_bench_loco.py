"""Leave-one-conversation-out on hand-made runs: the choice is made without the held-out one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eywa.bench.loco import LocoRecord, abstention_auc, ablation, load_run, loco_report, mean_recall


def _run(recalls: dict[str, list[float]], category: int = 4) -> list[LocoRecord]:
    return [
        LocoRecord(sample_id=sample, category=category, recall=value)
        for sample, values in recalls.items()
        for value in values
    ]


def test_mean_recall_averages_scored_questions_of_the_asked_samples_and_categories() -> None:
    records = [*_run({"a": [1.0, 0.0], "b": [1.0]}), LocoRecord(sample_id="a", category=5, recall=None)]
    assert mean_recall(records) == pytest.approx(2 / 3)
    assert mean_recall(records, frozenset({"a"})) == 0.5
    assert mean_recall(records, categories=(5,)) is None


def test_each_fold_chooses_on_the_other_conversations_only() -> None:
    # "tuned" is best on a and b (so it wins when c is held out) but bad on c; on a held-out
    # a or b the choice is made on data including c, where the baseline wins overall.
    base = _run({"a": [0.5, 0.5], "b": [0.5, 0.5], "c": [1.0, 1.0]})
    tuned = _run({"a": [1.0, 1.0], "b": [0.5, 1.0], "c": [0.0, 0.0]})
    report = loco_report({"base": base, "tuned": tuned}, "base")
    chosen = {fold.held_out: fold.chosen for fold in report.folds}
    assert chosen == {"a": "base", "b": "base", "c": "tuned"}
    held = {fold.held_out: fold.held_out_recall for fold in report.folds}
    assert held == {"a": 50.0, "b": 50.0, "c": 0.0}
    assert report.estimate == pytest.approx(100 * (0.5 + 0.5 + 0.5 + 0.5 + 0 + 0) / 6, abs=0.01)


def test_an_ablation_that_helps_one_conversation_and_hurts_another_is_not_kept() -> None:
    base = _run({"a": [0.5] * 4, "b": [0.5] * 4, "c": [0.5] * 4})
    one_sided = _run({"a": [1.0] * 4, "b": [0.5] * 4, "c": [0.25] * 4})
    general = _run({"a": [0.75] * 4, "b": [0.75] * 4, "c": [0.75] * 4})
    assert not ablation("one", one_sided, base).kept
    kept = ablation("general", general, base)
    assert kept.kept and kept.helped == 3 and kept.by_conversation == {"a": 25.0, "b": 25.0, "c": 25.0}
    assert kept.by_category[4] == 25.0


def test_abstention_auc_is_the_share_of_correctly_ordered_pairs() -> None:
    def rec(category: int, strength: float) -> LocoRecord:
        return LocoRecord(sample_id="a", category=category, recall=None, evidence_strength=strength)

    assert abstention_auc([rec(1, 0.9), rec(4, 0.8), rec(5, 0.1), rec(5, 0.2)]) == 1.0
    assert abstention_auc([rec(1, 0.1), rec(5, 0.9)]) == 0.0
    assert abstention_auc([rec(1, 0.5), rec(5, 0.5)]) == 0.5
    assert abstention_auc([rec(1, 0.5)]) is None


def test_runs_load_from_bench_artefacts_and_must_cover_the_same_samples(tmp_path: Path) -> None:
    for name, samples in (("one", ["a", "b"]), ("two", ["a"])):
        folder = tmp_path / name
        folder.mkdir()
        lines = [json.dumps({"sample_id": s, "category": 1, "recall": 1.0, "question": "q?"}) for s in samples]
        (folder / "questions.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    one, two = load_run(tmp_path / "one"), load_run(tmp_path / "two")
    assert [r.sample_id for r in one] == ["a", "b"]
    with pytest.raises(ValueError, match="other samples"):
        loco_report({"one": one, "two": two}, "one")
    with pytest.raises(ValueError, match="baseline"):
        loco_report({"one": one}, "missing")
