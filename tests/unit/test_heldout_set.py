"""The held-out evaluation set (``tests/fixtures/heldout``) is a LoCoMo file the bench reads.

``make bench-heldout`` runs ``eywa bench locomo`` on it unchanged, so the file must keep
LoCoMo's layout and the loader's reading of it: a broken evidence id would be dropped
silently by ``clean_evidence`` (and lower every recall measured on the set), a date the
loader reads differently would move every temporal question. These checks read the file
only; they say nothing about how well recall does on it (see the README beside it).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from eywa.loaders import load_locomo_questions, load_turns_file, locomo_samples, parse_locomo_datetime

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "heldout"
SET = HERE / "heldout-v1.json"
SAMPLES: list[dict[str, Any]] = json.loads(SET.read_text(encoding="utf-8"))
SESSION = re.compile(r"session_(\d+)")
# LoCoMo's own stamp, e.g. "1:56 pm on 8 May, 2023": the loader's strict format, not its fallback.
STAMP = re.compile(r"(1[0-2]|[1-9]):[0-5]\d (am|pm) on ([1-9]|[12]\d|3[01]) [A-Z][a-z]+, 20\d\d")


def _sessions(conversation: dict[str, Any]) -> list[int]:
    return sorted(int(m.group(1)) for key in conversation if (m := SESSION.fullmatch(key)))


def _ids(conversation: dict[str, Any]) -> set[str]:
    return {turn["dia_id"] for n in _sessions(conversation) for turn in conversation[f"session_{n}"]}


def test_the_loader_reads_it_as_locomo() -> None:
    samples = locomo_samples(SET)
    assert [s["sample_id"] for s in samples] == ["heldout-1", "heldout-2", "heldout-3"]
    batches = load_turns_file(SET)
    assert [space for space, _ in batches] == ["heldout-1", "heldout-2", "heldout-3"]
    for (_, turns), sample in zip(batches, SAMPLES, strict=True):
        assert len(turns) == len(_ids(sample["conversation"]))


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s["sample_id"])
def test_conversation_layout(sample: dict[str, Any]) -> None:
    """Two speakers, 10-14 sessions of 12-22 turns, ids D<session>:<turn> in order."""
    assert set(sample) >= {"sample_id", "conversation", "qa"}
    conversation = sample["conversation"]
    speakers = {conversation["speaker_a"], conversation["speaker_b"]}
    assert len(speakers) == 2
    numbers = _sessions(conversation)
    assert numbers == list(range(1, len(numbers) + 1))
    assert 10 <= len(numbers) <= 14
    for n in numbers:
        turns = conversation[f"session_{n}"]
        assert 12 <= len(turns) <= 22, f"session_{n}"
        for i, turn in enumerate(turns, start=1):
            assert turn["dia_id"] == f"D{n}:{i}"
            assert turn["speaker"] in speakers
            assert turn["text"].strip()
        assert {t["speaker"] for t in turns} == speakers, f"session_{n} has one speaker"


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s["sample_id"])
def test_dates_parse_as_the_loader_parses_them_and_move_forward(sample: dict[str, Any]) -> None:
    conversation = sample["conversation"]
    stamps = [conversation[f"session_{n}_date_time"] for n in _sessions(conversation)]
    for stamp in stamps:
        assert STAMP.fullmatch(stamp), stamp
    parsed = [parse_locomo_datetime(stamp) for stamp in stamps]
    assert parsed == sorted(parsed) and len(set(parsed)) == len(parsed)
    assert all(p.tzinfo is not None for p in parsed)
    assert (parsed[-1] - parsed[0]).days >= 120, "sessions spread over months"


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s["sample_id"])
def test_questions_have_categories_answers_and_existing_evidence(sample: dict[str, Any]) -> None:
    known = _ids(sample["conversation"])
    questions = sample["qa"]
    assert 35 <= len(questions) <= 45
    for qa in questions:
        assert qa["question"].strip().endswith("?"), qa["question"]
        assert qa["category"] in (1, 2, 3, 4, 5)
        # LoCoMo's convention, which the loader reads: category 5 has an adversarial_answer
        # (what must not be answered) and no answer.
        if qa["category"] == 5:
            assert "answer" not in qa and qa["adversarial_answer"].strip()
        else:
            assert "adversarial_answer" not in qa and str(qa["answer"]).strip()
            assert qa["evidence"], qa["question"]
        assert isinstance(qa["evidence"], list)
        assert set(qa["evidence"]) <= known, qa["question"]
        assert len(set(qa["evidence"])) == len(qa["evidence"])
    assert set(Counter(qa["category"] for qa in questions)) == {1, 2, 3, 4, 5}


def test_the_loader_keeps_every_evidence_id() -> None:
    """``clean_evidence`` drops unknown or malformed ids without failing; here none may be."""
    questions = load_locomo_questions(SET)
    assert len(questions) == sum(len(s["qa"]) for s in SAMPLES)
    assert not [q.question for q in questions if q.skipped_evidence]
    raw = [tuple(qa["evidence"]) for s in SAMPLES for qa in s["qa"]]
    assert [q.evidence for q in questions] == raw
    assert [q.adversarial for q in questions] == [qa["category"] == 5 for s in SAMPLES for qa in s["qa"]]
