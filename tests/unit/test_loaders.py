"""Turn file loaders: JSONL and LoCoMo, including the malformed parts of real data."""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from eywa.errors import InvalidInputError
from eywa.loaders import (
    clean_evidence,
    load_locomo_questions,
    load_turns_file,
    parse_locomo_datetime,
)

from tests.devdata import DEV_FILE, DEV_MISSING


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def _locomo(tmp_path: Path, samples: list[dict[str, Any]]) -> Path:
    return _write(tmp_path / "locomo.json", json.dumps(samples))


def _sample() -> dict[str, Any]:
    return {
        "sample_id": "conv-x",
        "conversation": {
            "speaker_a": "Ana",
            "speaker_b": "Ben",
            "session_2_date_time": "9:05 am on 3 June, 2023",
            "session_2": [{"speaker": "Ben", "dia_id": "D2:1", "text": "Moved to Porto last week."}],
            "session_10_date_time": "10:00 pm on 1 July, 2023",
            "session_10": [{"speaker": "Ana", "dia_id": "D10:1", "text": "Nice!"}],
            "session_1_date_time": "2:17 pm on 9 May, 2023",
            "session_1": [
                {"speaker": "Ana", "dia_id": "D1:1", "text": "Hi Ben"},
                {"speaker": "Ben", "dia_id": "D1:2", "text": "Look at this", "blip_caption": "a photo of a cat"},
                {"speaker": "Ana", "dia_id": "D1:3", "text": "Cute"},
            ],
            "session_1_summary": "not a session",
        },
        "qa": [
            {"question": "Where did Ben move?", "answer": "Porto", "evidence": ["D2:1"], "category": 4},
            {"question": "When?", "answer": 2023, "evidence": ["D2:1; D1:2", "D:10:1"], "category": 2},
            {"question": "Ben's dog?", "adversarial_answer": "Rex", "evidence": ["D9:9", "D", "D2:1"], "category": 5},
        ],
    }


# --- JSONL -------------------------------------------------------------------------------


def test_jsonl_turns_skip_blank_lines_and_keep_fields(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "t.jsonl",
        '{"text": "hello", "speaker": "ana", "metadata": {"k": 1}}\n\n   \n{"text": "bye", "session": "s2"}\n',
    )
    [(space, turns)] = load_turns_file(path)
    assert space is None
    assert [t["text"] for t in turns] == ["hello", "bye"]
    assert turns[0]["metadata"] == {"k": 1}


def test_jsonl_bad_json_names_the_line(tmp_path: Path) -> None:
    path = _write(tmp_path / "t.jsonl", '{"text": "ok"}\n\n{"text": nope}\n')
    with pytest.raises(InvalidInputError, match=r"line 3: invalid JSON"):
        load_turns_file(path)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ('{"speaker": "ana"}', "text"),
        ('{"text": "   "}', "text"),
        ('{"text": "x", "colour": "red"}', "colour"),
        ('{"text": "x", "observed_at": "not a date"}', "observed_at"),
        ('["text"]', "expected a JSON object"),
    ],
)
def test_jsonl_invalid_turn_names_line_and_field(tmp_path: Path, line: str, reason: str) -> None:
    path = _write(tmp_path / "t.jsonl", '{"text": "fine"}\n' + line + "\n")
    with pytest.raises(InvalidInputError, match=rf"line 2: .*{reason}"):
        load_turns_file(path)


def test_empty_jsonl_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="no turns"):
        load_turns_file(_write(tmp_path / "t.jsonl", "\n\n"))


def test_json_list_of_turns(tmp_path: Path) -> None:
    path = _write(tmp_path / "t.json", json.dumps([{"text": "a"}, {"text": "b", "speaker": "x"}]))
    assert load_turns_file(path) == [(None, [{"text": "a"}, {"text": "b", "speaker": "x"}])]


def test_missing_file_raises_oserror(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_turns_file(tmp_path / "absent.jsonl")


# --- LoCoMo turns ------------------------------------------------------------------------


def test_locomo_sessions_in_numeric_order_with_increasing_times(tmp_path: Path) -> None:
    [(space, turns)] = load_turns_file(_locomo(tmp_path, [_sample()]))
    assert space == "conv-x"
    assert [t["external_id"] for t in turns] == ["D1:1", "D1:2", "D1:3", "D2:1", "D10:1"]
    assert [t["session"] for t in turns] == ["session_1"] * 3 + ["session_2", "session_10"]
    start = datetime(2023, 5, 9, 14, 17, tzinfo=timezone.utc)
    assert [t["observed_at"] for t in turns[:3]] == [start + timedelta(seconds=i) for i in range(3)]
    assert turns[3]["observed_at"] == datetime(2023, 6, 3, 9, 5, tzinfo=timezone.utc)
    assert turns[4]["observed_at"] == datetime(2023, 7, 1, 22, 0, tzinfo=timezone.utc)


def test_locomo_turn_fields_and_photo_caption(tmp_path: Path) -> None:
    [(_, turns)] = load_turns_file(_locomo(tmp_path, [_sample()]))
    photo = turns[1]
    assert photo["text"] == "Look at this [shares a photo: a photo of a cat]"
    assert photo["speaker"] == "Ben"
    assert photo["metadata"] == {"dia_id": "D1:2"}


def test_locomo_session_without_date_is_refused(tmp_path: Path) -> None:
    sample = _sample()
    del sample["conversation"]["session_2_date_time"]
    with pytest.raises(InvalidInputError, match="conv-x session_2: missing session date_time"):
        load_turns_file(_locomo(tmp_path, [sample]))


@pytest.mark.parametrize(
    ("stamp", "expected"),
    [
        ("2:17 pm on 9 May, 2023", datetime(2023, 5, 9, 14, 17, tzinfo=timezone.utc)),
        ("12:36 am on 2 February, 2023", datetime(2023, 2, 2, 0, 36, tzinfo=timezone.utc)),
        ("  7:44  pm on 23 January, 2022 ", datetime(2022, 1, 23, 19, 44, tzinfo=timezone.utc)),
        ("9 May 2023, 2:17 pm", datetime(2023, 5, 9, 14, 17, tzinfo=timezone.utc)),
    ],
)
def test_parse_locomo_datetime(stamp: str, expected: datetime) -> None:
    assert parse_locomo_datetime(stamp) == expected


def test_parse_locomo_datetime_refuses_garbage() -> None:
    with pytest.raises(InvalidInputError, match="cannot parse"):
        parse_locomo_datetime("sometime, maybe")


# --- LoCoMo questions --------------------------------------------------------------------


def test_clean_evidence_splits_normalises_and_skips() -> None:
    known = {"D8:6", "D9:17", "D11:26"}
    kept, skipped = clean_evidence(["D8:6; D9:17", "D:11:26", "D", "D10:19", "D8:6"], known)
    assert kept == ["D8:6", "D9:17", "D11:26"]
    assert skipped == ["D", "D10:19"]


def test_questions_with_adversarial_answers_and_cleaned_gold(tmp_path: Path) -> None:
    questions = load_locomo_questions(_locomo(tmp_path, [_sample()]))
    assert [q.category for q in questions] == [4, 2, 5]
    assert questions[1].answer == "2023"
    assert questions[1].evidence == ("D2:1", "D1:2", "D10:1")
    adversarial = questions[2]
    assert adversarial.adversarial and adversarial.answer == "Rex"
    assert adversarial.evidence == ("D2:1",)
    assert adversarial.skipped_evidence == ("D9:9", "D")


def test_questions_refuse_a_non_locomo_file(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="not a LoCoMo file"):
        load_locomo_questions(_write(tmp_path / "t.json", json.dumps([{"text": "a"}])))


@pytest.mark.parametrize(
    ("name", "text", "where"),
    [
        ("list.json", "[" * 100_000 + "]" * 100_000, "line 1"),
        ("turns.jsonl", '{"text": "fine"}\n' + "[" * 100_000 + "]" * 100_000 + "\n", "line 2"),
    ],
    ids=["json-list", "jsonl"],
)
def test_json_nested_deeper_than_the_decoder_goes_is_refused_naming_the_line(
    tmp_path: Path, name: str, text: str, where: str
) -> None:
    """json raises RecursionError, not JSONDecodeError, for such a document: it reached
    ``eywa ingest`` and ``eywa bench locomo`` as a traceback."""
    path = _write(tmp_path / name, text)
    with pytest.raises(InvalidInputError, match=rf"{where}: invalid JSON \(nested too deep\)"):
        load_turns_file(path)
    with pytest.raises(InvalidInputError):
        load_locomo_questions(path)


@pytest.mark.parametrize(
    ("qa", "where"),
    [("not a list", "qa: must be a list"), (["not an object"], "qa 0: must be an object"),
     ([{"question": "q", "category": "one"}], "qa 0: bad question")],
)  # fmt: skip
def test_questions_of_another_shape_are_refused_naming_them(tmp_path: Path, qa: object, where: str) -> None:
    sample = {**_sample(), "qa": qa}
    with pytest.raises(InvalidInputError, match=rf"conv-x {where}"):
        load_locomo_questions(_locomo(tmp_path, [sample]))


# --- the development file ----------------------------------------------------------------


@pytest.mark.skipif(DEV_MISSING, reason="LoCoMo development file not present")
def test_dev_file_loads_completely() -> None:
    batches = load_turns_file(DEV_FILE)
    assert [(space, len(turns)) for space, turns in batches] == [
        ("conv-26", 419),
        ("conv-30", 369),
        ("conv-41", 663),
        ("conv-42", 629),
        ("conv-43", 680),
    ]
    sessions = {space: len({t["session"] for t in turns}) for space, turns in batches}
    assert sessions == {"conv-26": 19, "conv-30": 19, "conv-41": 32, "conv-42": 29, "conv-43": 29}
    conv26 = batches[0][1]
    assert conv26[2]["metadata"] == {"dia_id": "D1:3"}
    assert all(t["external_id"] == t["metadata"]["dia_id"] for _, turns in batches for t in turns)
    times = [t["observed_at"] for t in conv26]
    assert times == sorted(times)


@pytest.mark.skipif(DEV_MISSING, reason="LoCoMo development file not present")
def test_dev_file_questions_survive_malformed_evidence() -> None:
    questions = load_locomo_questions(DEV_FILE)
    assert len(questions) == 999
    assert Counter(q.category for q in questions) == {1: 142, 2: 156, 3: 46, 4: 418, 5: 237}
    split = [q for q in questions if q.sample_id == "conv-26" and q.evidence == ("D8:6", "D9:17")]
    assert len(split) == 1
    skipped = sorted(s for q in questions for s in q.skipped_evidence)
    assert skipped == ["D", "D10:19"]
    # two open-domain questions of the source cite no turn at all; they are kept, unscored
    assert [(q.category, q.skipped_evidence) for q in questions if not q.evidence] == [(3, ()), (3, ())]
