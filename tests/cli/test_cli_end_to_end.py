"""The CLI over a real embedded Memory, on a small hand-written LoCoMo file: ingest, recall
with provenance, stats, re-ingest, bench artefacts, and the offline demo."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from eywa.cli import app
from eywa.cli.demo import demo_questions


def _session(n: int, stamp: str, lines: list[tuple[str, str]]) -> dict[str, Any]:
    return {
        f"session_{n}_date_time": stamp,
        f"session_{n}": [{"speaker": s, "dia_id": f"D{n}:{i}", "text": t} for i, (s, t) in enumerate(lines, 1)],
    }


SAMPLES = [
    {
        "sample_id": "chat-a",
        "conversation": {
            "speaker_a": "Iris",
            "speaker_b": "Omar",
            **_session(1, "10:00 am on 2 March, 2023", [
                ("Iris", "I started pottery classes on Tuesday evenings."),
                ("Omar", "Nice. I adopted a greyhound called Biscuit last weekend."),
                ("Iris", "A greyhound! Do they need long walks?"),
            ]),
            **_session(2, "6:30 pm on 20 April, 2023", [
                ("Omar", "Biscuit ate my left shoe this morning."),
                ("Iris", "My first pottery bowl cracked in the kiln, sadly."),
            ]),
        },
        "qa": [
            {"question": "What is the name of Omar's dog?", "answer": "Biscuit", "evidence": ["D1:2"], "category": 4},
            {"question": "When did Iris start pottery?", "answer": "Feb 2023", "evidence": ["D1:1; D2:2"], "category": 2},
            {"question": "What did Omar's cat eat?", "adversarial_answer": "a shoe", "evidence": ["D2:1", "D7:7"],
             "category": 5},
        ],
    },
    {
        "sample_id": "chat-b",
        "conversation": {
            "speaker_a": "Zed",
            "speaker_b": "Kim",
            **_session(1, "9:15 pm on 5 May, 2023", [
                ("Zed", "I sold my old bike for 300 dollars."),
                ("Kim", "I'm flying to Oslo next month for work."),
            ]),
        },
        "qa": [{"question": "Where is Kim flying?", "answer": "Oslo", "evidence": ["D1:2"], "category": 4}],
    },
]


@pytest.fixture(scope="module")
def locomo_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("data") / "tiny-locomo.json"
    path.write_text(json.dumps(SAMPLES), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def memory_dir(tmp_path_factory: pytest.TempPathFactory, locomo_file: Path) -> Path:
    directory = tmp_path_factory.mktemp("memory")
    result = CliRunner().invoke(app, ["ingest", str(locomo_file), "--data-dir", str(directory)])
    assert result.exit_code == 0, result.output
    assert "7 turns in" in result.stdout
    assert "chat-a" in result.stdout and "chat-b" in result.stdout
    return directory


def test_recall_json_carries_dia_ids_in_provenance(runner: CliRunner, memory_dir: Path) -> None:
    question = "What is the name of Omar's dog?"
    args = ["recall", "--space", "chat-a", question, "--json", "-k", "3", "--data-dir", str(memory_dir)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["query"] == question
    assert 0 < len(payload["items"]) <= 3
    dia_ids = [ref["metadata"]["dia_id"] for item in payload["items"] for ref in item["provenance"]]
    assert "D1:2" in dia_ids
    assert all(ref["session"].startswith("session_") for item in payload["items"] for ref in item["provenance"])
    assert "Biscuit" in payload["context"]


def test_spaces_are_isolated(runner: CliRunner, memory_dir: Path) -> None:
    args = ["recall", "--space", "chat-b", "Biscuit the greyhound", "--json", "--data-dir", str(memory_dir)]
    payload = json.loads(runner.invoke(app, args).stdout)
    assert "Biscuit" not in payload["context"]


def test_recall_table_shows_provenance_and_context(runner: CliRunner, memory_dir: Path) -> None:
    result = runner.invoke(app, ["recall", "-s", "chat-b", "Where is Kim flying?", "--data-dir", str(memory_dir)])
    assert result.exit_code == 0, result.output
    assert "D1:2" in result.stdout and "session_1" in result.stdout
    assert "context (" in result.stdout and "Oslo" in result.stdout


def test_recall_unknown_space_lists_known_ones(runner: CliRunner, memory_dir: Path) -> None:
    result = runner.invoke(app, ["recall", "-s", "chat-z", "anything", "--json", "--data-dir", str(memory_dir)])
    assert result.exit_code == 0 and json.loads(result.stdout)["items"] == []
    assert result.stderr.strip() == (
        "note: space 'chat-z' holds no turns (known: chat-a, chat-b); answering as an empty space"
    )


def _stats_rows(stdout: str) -> dict[str, str]:
    """The (count, value) rows of the ``eywa stats`` table."""
    cells = [[c.strip() for c in line.split("│")[1:-1]] for line in stdout.splitlines() if line.count("│") == 3]
    return {name: value for name, value in cells}


def test_stats_counts_evidence(runner: CliRunner, memory_dir: Path) -> None:
    result = runner.invoke(app, ["stats", "--space", "chat-a", "--data-dir", str(memory_dir)])
    assert result.exit_code == 0, result.output
    assert _stats_rows(result.stdout)["evidence"] == "5"


def test_audit_lists_and_runs_on_the_embedded_store(runner: CliRunner, memory_dir: Path) -> None:
    wide = {"COLUMNS": "300"}  # keep ids and times on one line
    listed = runner.invoke(app, ["audit", "--list", "--data-dir", str(memory_dir)], env=wide)
    assert listed.exit_code == 0, listed.output
    assert "touched_between" in listed.stdout and "space, from, to" in listed.stdout
    window = ["-p", "space=chat-b", "-p", "from=2000-01-01", "-p", "to=2999-01-01"]
    result = runner.invoke(app, ["audit", "touched_between", *window, "--data-dir", str(memory_dir)], env=wide)
    assert result.exit_code == 0, result.output
    evidence = [line for line in result.stdout.splitlines() if "│ Evidence" in line]
    assert len(evidence) == 2 and any("I sold my old bike for 300 dollars." in line for line in evidence)
    unknown = runner.invoke(app, ["audit", "why_not", "-p", "space=chat-b", "--data-dir", str(memory_dir)])
    assert unknown.exit_code == 1 and "unknown audit 'why_not'" in unknown.stderr


def test_audit_optional_params_may_be_left_out(runner: CliRunner, memory_dir: Path) -> None:
    wide = {"COLUMNS": "300"}
    listed = runner.invoke(app, ["audit", "--list", "--data-dir", str(memory_dir)], env=wide)
    assert "space, speaker?, from?, to?, offset=0, limit=100" in listed.stdout
    page = ["-p", "space=chat-a", "-p", "offset=0", "-p", "limit=10", "--data-dir", str(memory_dir)]
    every = runner.invoke(app, ["audit", "timeline", *page], env=wide)
    assert every.exit_code == 0, every.output
    assert every.stdout.count("session_") == 5 and "Iris" in every.stdout and "Omar" in every.stdout
    one = runner.invoke(app, ["audit", "timeline", "-p", "speaker=Omar", *page], env=wide)
    assert one.exit_code == 0, one.output
    assert one.stdout.count("session_") == 2 and "Iris" not in one.stdout
    # offset and limit have defaults (0, 100): the space alone gives the first page.
    first = runner.invoke(app, ["audit", "timeline", "-p", "space=chat-a", "--data-dir", str(memory_dir)], env=wide)
    assert first.exit_code == 0, first.output
    assert first.stdout == every.stdout
    later = runner.invoke(app, ["audit", "timeline", "-p", "space=chat-a", "-p", "offset=3", "--data-dir",
                                str(memory_dir)], env=wide)  # fmt: skip
    assert later.exit_code == 0 and later.stdout.count("session_") == 2
    required = runner.invoke(app, ["audit", "timeline", "--data-dir", str(memory_dir)])
    assert required.exit_code == 1
    assert required.stderr.strip() == "error: audit timeline needs parameters: space [invalid_input]"


def test_reingest_of_one_sample_writes_nothing_new(runner: CliRunner, memory_dir: Path, locomo_file: Path) -> None:
    result = runner.invoke(app, ["ingest", str(locomo_file), "--space", "chat-b", "--data-dir", str(memory_dir)])
    assert result.exit_code == 0, result.output
    assert "2 turns in" in result.stdout and "chat-a" not in result.stdout
    stats = runner.invoke(app, ["stats", "--space", "chat-b", "--data-dir", str(memory_dir)])
    assert _stats_rows(stats.stdout)["evidence"] == "2"


def test_bench_locomo_writes_artefacts(runner: CliRunner, locomo_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "bench"
    args = ["bench", "locomo", "--data", str(locomo_file), "-k", "2", "--out", str(out), "--by-conversation"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    records = [json.loads(line) for line in (out / "questions.jsonl").read_text(encoding="utf-8").splitlines()]
    assert summary["questions"] == len(records) == 4
    assert summary["samples"] == ["chat-a", "chat-b"] and summary["ingest_turns"] == 7
    assert summary["skipped_gold_ids"] == 1  # "D7:7" does not exist
    assert summary["overall"]["questions"] == 3  # category 5 is reported apart
    assert set(summary["categories"]) == {"2", "4", "5"}
    for record in records:
        assert len(record["retrieved"]) <= 2
        assert {"question", "gold", "hit", "recall", "plan", "items", "context"} <= set(record)
    for record in records:  # the scores agree with the turns written next to them
        assert record["hit"] == set(record["gold"]).issubset(record["retrieved"])
        assert record["recall"] == len(set(record["gold"]) & set(record["retrieved"])) / len(set(record["gold"]))
    assert "R@2" in result.stdout and "R@2 by conversation" in result.stdout
    assert set(summary["conversations"]) == {"chat-a", "chat-b"}
    assert all("overall" in rows for rows in summary["conversations"].values())
    for record in records:  # a miss can be explained: routes, fused list, post-filter changes
        assert {"routes", "fused", "changes", "timings_ms"} <= set(record["trace"])
        assert 0.0 <= record["evidence_strength"] <= 1.0
        assert all("speaker" in item for item in record["items"])  # whose turns outrank the gold
    assert set(summary["outranked"]) == set(summary["categories"])
    assert all(set(row) == {"turns", "named speaker", "three routes or more", "rescued", "lost gold's session"}
               for row in summary["outranked"].values())
    loco = runner.invoke(app, ["bench", "loco", f"base={out}", f"again={out}", "--json", str(tmp_path / "loco.json")])
    assert loco.exit_code == 0, loco.output
    report = json.loads((tmp_path / "loco.json").read_text(encoding="utf-8"))
    assert [fold["held_out"] for fold in report["folds"]] == ["chat-a", "chat-b"]
    assert all(fold["chosen"] == "base" for fold in report["folds"])  # a tie keeps the baseline
    assert report["ablations"][0]["overall"] == 0.0 and "LOCO estimate" in loco.stdout


def test_demo_runs_offline_and_shows_provenance(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(app, ["demo", "--data-dir", str(tmp_path / "demo"), "-k", "3"])
    assert result.exit_code == 0, result.output
    assert "ingested 56 turns" in result.stdout
    assert "Where does Priya work now?" in result.stdout
    assert result.stdout.count("context (") == len(demo_questions()) >= 4
    assert re.search(r"s[1-4] · (Priya|Tomas|Lena) ·", result.stdout)
