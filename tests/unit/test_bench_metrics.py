"""The benchmark's numbers: distinct-turn cut-off, recall, hits, percentiles, aggregation."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from eywa.bench.locomo import evaluate_question, gold_ranks, miss_stage, missed_in_session, summarise_run
from eywa.bench.metrics import (
    QuestionScore,
    all_found,
    evidence_recall,
    first_k_turns,
    percentile,
    summarise,
)
from eywa.loaders import LocomoQuestion
from eywa.models import EvidenceRef, RecallItem, RecallResult

AT = datetime(2023, 5, 8, tzinfo=timezone.utc)


def test_first_k_turns_walks_items_in_rank_order_and_dedupes() -> None:
    cited: list[list[str | None]] = [["D1:1", "D1:2"], ["D1:2"], [None, "D3:4"], ["D5:5", "D6:6"]]
    assert first_k_turns(cited, 3) == ["D1:1", "D1:2", "D3:4"]
    assert first_k_turns(cited, 10) == ["D1:1", "D1:2", "D3:4", "D5:5", "D6:6"]
    assert first_k_turns(cited, 0) == []


def test_a_belief_citing_many_turns_uses_many_slots() -> None:
    cited = [["D1:1", "D2:1", "D3:1"], ["D9:9"]]
    assert first_k_turns(cited, 3) == ["D1:1", "D2:1", "D3:1"]


def test_evidence_recall_is_share_of_distinct_gold() -> None:
    assert evidence_recall(["D1:1", "D2:2"], ["D2:2", "D7:7"]) == 0.5
    assert evidence_recall(["D1:1", "D1:1"], ["D1:1"]) == 1.0
    assert evidence_recall(["D1:1"], []) == 0.0
    assert evidence_recall([], ["D1:1"]) is None


def test_all_found_needs_every_gold_turn() -> None:
    assert all_found(["D1:1", "D2:2"], ["D2:2", "D1:1", "D3:3"]) is True
    assert all_found(["D1:1", "D2:2"], ["D2:2"]) is False
    assert all_found([], ["D2:2"]) is None


def test_percentile_interpolates_and_handles_empty() -> None:
    values = [10.0, 20.0, 30.0, 40.0, 1000.0]
    assert percentile(values, 50) == 30.0
    assert percentile(values, 95) == pytest.approx(808.0)
    assert percentile([], 95) == 0.0


def _score(category: int, recall: float | None, tokens: int = 100, latency: float = 5.0) -> QuestionScore:
    hit = None if recall is None else recall == 1.0
    return QuestionScore(category=category, recall=recall, hit=hit, tokens=tokens, latency_ms=latency)


def test_summarise_averages_over_scored_questions_only() -> None:
    stats = summarise("x", [_score(1, 1.0, 50), _score(1, 0.5, 150), _score(1, None, 400)])
    assert (stats.questions, stats.scored) == (3, 2)
    assert stats.recall_at_k == 0.75
    assert stats.all_hit_rate == 0.5
    assert stats.tokens_mean == 200.0
    assert stats.tokens_max == 400


def _question(category: int, gold: tuple[str, ...]) -> LocomoQuestion:
    return LocomoQuestion(sample_id="conv-x", question="q?", answer="a", category=category, evidence=gold)


def _ref(evidence_id: str, dia_id: str | None) -> EvidenceRef:
    metadata = {"dia_id": dia_id} if dia_id else {}
    return EvidenceRef(id=evidence_id, session="session_1", speaker="Ana", observed_at=AT, metadata=metadata)


def _result(*items: RecallItem) -> RecallResult:
    return RecallResult(
        query="q?", items=items, context="ctx", answer_instructions="", trace={"plan": {"shape": "fact"}}, tokens=42
    )


def test_evaluate_question_maps_provenance_to_turns() -> None:
    belief = RecallItem(
        kind="belief", id="b1", text="Ana moved", score=0.9, routes={"graph": 1},
        provenance=(_ref("ev_a", "D1:1"), _ref("ev_b", None)),
    )
    turn = RecallItem(kind="evidence", id="ev_c", text="...", score=0.5, provenance=(_ref("ev_c", "D1:1"),))
    lookups: list[str] = []

    def lookup(space: str, evidence_id: str) -> str | None:
        lookups.append(evidence_id)
        return {"ev_b": "D4:2"}.get(evidence_id)

    record = evaluate_question(_question(1, ("D4:2", "D9:9")), _result(belief, turn), 10, 3.0, lookup)
    assert lookups == ["ev_b"]  # metadata first, the store only when it is missing
    assert record.retrieved == ("D1:1", "D4:2")
    assert record.recall == 0.5 and record.hit is False
    assert record.plan == {"shape": "fact"} and record.tokens == 42
    assert record.items[0]["dia_ids"] == ["D1:1", "D4:2"]


def test_overall_averages_questions_of_categories_1_to_4_not_categories() -> None:
    hit = RecallItem(kind="evidence", id="ev", text="t", score=1.0, provenance=(_ref("ev", "D1:1"),))
    records = [evaluate_question(_question(1, ("D1:1",)), _result(hit), 10, 1.0, lambda s, e: None)]
    records += [evaluate_question(_question(4, ("D2:2",)), _result(hit), 10, 1.0, lambda s, e: None)] * 3
    records += [evaluate_question(_question(5, ("D1:1",)), _result(hit), 10, 1.0, lambda s, e: None)]
    summary = summarise_run(Path("f.json"), 10, ["conv-x"], records, (100, 2.0))
    assert summary.categories["1"].recall_at_k == 1.0
    assert summary.categories["4"].recall_at_k == 0.0
    assert summary.categories["5"].recall_at_k == 1.0
    assert summary.overall.questions == 4
    assert summary.overall.recall_at_k == 0.25  # not (1.0 + 0.0) / 2
    assert summary.ingest_turns_per_s == 50.0


def test_gold_ranks_keep_each_rankings_best_rank_of_an_item_citing_the_turn() -> None:
    rankings: dict[str, list[list[str | None]]] = {
        "keyword": [["D1:1"], ["D2:2"], ["D2:2"]],
        "vector": [[None], ["D3:3", "D2:2"]],
        "fused": [["D2:2"]],
    }
    assert gold_ranks(["D2:2", "D9:9", "D2:2"], rankings) == {
        "D2:2": {"keyword": 2, "vector": 2, "fused": 1},
        "D9:9": {},
    }


def test_miss_stage_names_the_stage_that_lost_the_turn() -> None:
    assert miss_stage({}) == "candidates"
    assert miss_stage({"person": 12}) == "fusion"
    assert miss_stage({"keyword": 40, "fused": 25}) == "ranking"


def test_missed_gold_turns_are_traced_to_routes_fusion_and_ranking() -> None:
    turn = RecallItem(kind="evidence", id="ev_a", text="t", score=1.0, provenance=(_ref("ev_a", "D1:1"),))
    trace = {
        "plan": {"shape": "fact"},
        "routes": {"keyword": [{"kind": "evidence", "id": "ev_a"}, {"kind": "belief", "id": "b1"}]},
        "fused": [{"kind": "evidence", "id": "ev_a"}, {"kind": "evidence", "id": "ev_c"}],
    }
    result = RecallResult(query="q?", items=(turn,), context="", answer_instructions="", trace=trace, tokens=1)
    dia = {"ev_a": "D1:1", "ev_b": "D2:2", "ev_c": "D3:3"}
    record = evaluate_question(
        _question(1, ("D1:1", "D2:2", "D3:3", "D4:4")), result, 1, 1.0,
        lambda s, e: dia.get(e), lambda s, b: ("ev_b",) if b == "b1" else (),
    )  # fmt: skip
    assert record.retrieved == ("D1:1",)
    assert record.gold_ranks["D1:1"] == {"keyword": 1, "fused": 1, "returned": 1}
    assert record.gold_ranks["D2:2"] == {"keyword": 2}  # through the belief citing it
    assert record.missed == {"D2:2": "fusion", "D3:3": "ranking", "D4:4": "candidates"}
    summary = summarise_run(Path("f.json"), 1, ["conv-x"], [record], (1, 1.0))
    assert summary.misses == {"1": {"candidates": 1, "fusion": 1, "ranking": 1}}
    assert record.missed_in_session == {"D2:2": False, "D3:3": False, "D4:4": False}
    assert summary.misses_by_session == {"1": {"returned session": 0, "other session": 3}}


def test_a_missed_gold_turn_is_told_apart_by_whether_its_session_was_reached() -> None:
    retrieved = ["D1:1", "D12:4", "D12:5"]
    found = missed_in_session(["D12:3", "D1:1", "D2:12", "D12:3", "D21:4"], retrieved)
    # D12:3 sits in a session the result reached (D12:4); D2:12 and D21:4 do not, even though
    # their ids share a prefix with reached ones ("D2" is not "D21", "D21" not "D12").
    assert found == {"D12:3": True, "D2:12": False, "D21:4": False}


def test_the_summary_prints_missed_gold_turns_by_stage() -> None:
    from rich.console import Console

    from eywa.bench.report import render_summary

    turn = RecallItem(kind="evidence", id="ev_a", text="t", score=1.0, provenance=(_ref("ev_a", "D1:1"),))
    trace = {"routes": {"keyword": [{"kind": "evidence", "id": "ev_b"}]}, "fused": []}
    result = RecallResult(query="q?", items=(turn,), context="", answer_instructions="", trace=trace, tokens=1)
    dia = {"ev_a": "D1:1", "ev_b": "D2:2"}
    record = evaluate_question(_question(1, ("D2:2",)), result, 1, 1.0, lambda s, e: dia.get(e))
    console = Console(record=True, width=100)
    render_summary(summarise_run(Path("f.json"), 1, ["conv-x"], [record], (1, 1.0)), console)
    lines = [line.split() for line in console.export_text().splitlines()]
    assert ["category", "candidates", "fusion", "ranking", "returned", "session", "other", "session"] in lines
    # D2:2 was found by the keyword route but fused out; the result reached session 1 only.
    assert ["1", "multi-hop", "0", "1", "0", "0", "1"] in lines


def test_outranking_counts_what_took_the_places_of_gold_turns_lost_at_ranking() -> None:
    from eywa.bench.locomo import QuestionRecord, outranking

    def record(missed: dict[str, str], items: list[dict[str, object]]) -> QuestionRecord:
        return QuestionRecord.model_validate(
            {"sample_id": "s", "question": "What has Ana painted?", "answer": "a lake", "category": 1,
             "gold": ["D1:1", "D4:2"], "skipped_gold": [], "retrieved": [], "hit": False, "recall": 0.5,
             "tokens": 10, "latency_ms": 1.0, "plan": {"entities": ["Ana"]}, "items": items,
             "context": "", "missed": missed}
        )

    items: list[dict[str, object]] = [
        {"kind": "evidence", "dia_ids": ["D1:1"], "speaker": "Ana", "routes": {"keyword": 1}},  # gold: not counted
        {"kind": "evidence", "dia_ids": ["D4:5"], "speaker": "ana",
         "routes": {"keyword": 2, "vector": 1, "person": 3}},
        {"kind": "evidence", "dia_ids": ["D2:2"], "speaker": "Ben", "routes": {"rescue": 1, "keyword": 9}},
        {"kind": "belief", "dia_ids": ["D3:3"], "speaker": None, "routes": {"vector": 2}},  # not a turn
    ]
    counts = outranking(record({"D4:2": "ranking"}, items))
    assert counts == {"turns": 2, "named speaker": 1, "three routes or more": 1, "rescued": 1,
                      "lost gold's session": 1}
    # A question that lost no gold turn at ranking has nothing outranking it.
    assert set(outranking(record({"D4:2": "fusion"}, items)).values()) == {0}
