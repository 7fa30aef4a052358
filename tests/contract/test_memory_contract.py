"""The input contract through the Python API: every input is accepted, or refused with an
``InvalidInputError`` (a ``ValueError``) naming the field and the rule's code, and a refused
call writes nothing. Each case here was a defect of issue #11: a ``UnicodeEncodeError``,
``OverflowError`` or ``RecursionError`` from below, NaN stored and returned as ``null``, a
``*`` space accepted, k up to 200, no query length limit."""

from __future__ import annotations

import math
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from eywa.errors import EywaError, InvalidInputError, InvalidTurnError, QuotaExceededError
from eywa.memory import Memory
from eywa.values import SUPPORTED_FROM, SUPPORTED_UNTIL
from tests.contract.conftest import open_memory

LONE = "\ud800"


def _refused(call: Any, *args: Any, **kwargs: Any) -> InvalidInputError:
    with pytest.raises(InvalidInputError) as info:
        call(*args, **kwargs)
    assert isinstance(info.value, ValueError) and isinstance(info.value, EywaError)
    return info.value


def _deep(levels: int) -> dict[str, Any]:
    document: dict[str, Any] = {}
    cursor = document
    for _ in range(levels - 1):
        cursor["a"] = {}
        cursor = cursor["a"]
    return document


@pytest.mark.parametrize(
    ("turn", "field"),
    [
        ({"text": f"a{LONE}b"}, "text"),
        ({"text": "ok", "speaker": LONE}, "speaker"),
        ({"text": "ok", "role": LONE}, "role"),
        ({"text": "ok", "session": f"s{LONE}"}, "session"),
        ({"text": "ok", "external_id": LONE}, "external_id"),
        ({"text": "ok", "metadata": {LONE: 1}}, "metadata"),
        ({"text": "ok", "metadata": {"k": [f"v{LONE}"]}}, "metadata"),
    ],
)
def test_a_lone_surrogate_in_any_turn_field_is_an_input_error(memory: Memory, turn: dict[str, Any], field: str) -> None:
    error = _refused(memory.remember, "uni", [{"text": "a fine turn"}, turn])
    assert isinstance(error, InvalidTurnError) and error.code == "invalid_turn"
    assert error.problems[0].field == f"turns.1.{field}"
    assert "surrogate" in str(error)
    assert "uni" not in memory.spaces()  # the fine turn before it was not written either


def test_a_lone_surrogate_in_a_query_space_or_id_is_an_input_error(memory: Memory) -> None:
    memory.remember("uni-read", [{"text": "I live in Lyon.", "speaker": "Ana"}])
    assert _refused(memory.recall, "uni-read", f"where{LONE}").problems[0].field == "query"
    assert _refused(memory.recall, f"uni{LONE}", "where").problems[0].field == "space"
    assert _refused(memory.evidence, "uni-read", LONE).problems[0].field == "evidence_id"
    assert _refused(memory.beliefs, "uni-read", subject=LONE).problems[0].field == "subject"
    assert _refused(memory.dimension, "uni-read", "Ana", LONE).problems[0].field == "attribute"
    assert _refused(memory.audit, "merged_entities", {"space": LONE}).problems[0].field == "params.space"


@pytest.mark.parametrize(
    "moment",
    ["0001-01-01T00:00:00+01:00", "9999-12-31T23:00:00-05:00", "9999-12-31T23:59:59.999999", "0001-01-01T00:00:00"],
)
def test_times_outside_the_supported_range_are_input_errors(memory: Memory, moment: str) -> None:
    error = _refused(memory.remember, "times", [{"text": "said at the edge of time", "observed_at": moment}])
    assert error.code == "invalid_turn" and error.problems[0].field == "turns.0.observed_at"
    assert _refused(memory.recall, "times", "when?", as_of=moment).problems[0].field == "as_of"
    assert _refused(memory.dimensions, "times", as_of=moment).problems[0].field == "as_of"
    assert "times" not in memory.spaces()


def test_the_edges_of_the_supported_range_are_accepted_and_read_back(memory: Memory) -> None:
    first, last = SUPPORTED_FROM, SUPPORTED_UNTIL.replace(microsecond=0)
    ids = memory.remember("edges", [
        {"text": "the first day we keep, next year and last week", "observed_at": first},
        {"text": "the last day we keep, next year and last week", "observed_at": last},
    ])  # fmt: skip
    assert [memory.evidence("edges", i).observed_at for i in ids] == [first, last]
    assert memory.recall("edges", "what happened next year?", as_of=last).items
    assert memory.recall("edges", "what happened last week?", as_of=first) is not None


def test_metadata_nested_too_deep_is_refused_with_a_limit_code(memory: Memory) -> None:
    for levels in (17, 1000):
        error = _refused(memory.remember, "deep", [{"text": "deep", "metadata": _deep(levels)}])
        assert error.code == "limit_exceeded" and error.problems[0].field == "turns.0.metadata"
        assert "nested deeper than 16 levels" in str(error)
    memory.remember("deep", [{"text": "deep enough", "metadata": _deep(16)}])


@pytest.mark.parametrize(
    "metadata",
    [{"x": math.nan}, {"x": math.inf}, {"x": [-math.inf]}, {1: "int key"}, {"big": 2**64}, {"when": datetime.now()}],
)
def test_metadata_that_json_would_not_return_unchanged_is_refused(memory: Memory, metadata: dict[Any, Any]) -> None:
    error = _refused(memory.remember, "meta", [{"text": "with metadata", "metadata": metadata}])
    assert error.code == "invalid_turn" and error.problems[0].field.startswith("turns.0.metadata")
    assert "meta" not in memory.spaces()


def test_accepted_metadata_comes_back_untouched(memory: Memory) -> None:
    metadata = {
        "message_id": "m-17", "nested": {"list": [1, -2.5, True, None, "é漢🙂"]}, "zero": -0.0,
        "max": 2**63 - 1, "min": -(2**63), "empty": {}, "tiny": 5e-324,
    }  # fmt: skip
    (evidence_id,) = memory.remember("meta-kept", [{"text": "with metadata", "metadata": metadata}])
    assert memory.evidence("meta-kept", evidence_id).metadata == metadata


def test_metadata_over_its_byte_size_is_refused(tmp_path: Path) -> None:
    with open_memory(tmp_path / "m", max_metadata_bytes=64) as mem:
        error = _refused(mem.remember, "size", [{"text": "big", "metadata": {"blob": "é" * 40}}])
        assert error.code == "limit_exceeded" and error.problems[0].field == "turns.0.metadata"
        mem.remember("size", [{"text": "small", "metadata": {"blob": "é" * 10}}])


def test_the_star_space_is_refused_everywhere(memory: Memory) -> None:
    assert _refused(memory.remember, "*", [{"text": "hello"}]).problems[0].field == "space"
    assert _refused(memory.recall, "*", "hello").problems[0].field == "space"
    assert _refused(memory.stats, "*").problems[0].field == "space"
    assert "*" not in memory.spaces()


def test_one_k_limit_and_a_query_length_limit(memory: Memory) -> None:
    memory.remember("k", [{"text": "I work at Acme.", "speaker": "Ana"}])
    assert memory.limits.max_k == 100
    memory.recall("k", "Where does Ana work?", k=100)
    over = _refused(memory.recall, "k", "Where does Ana work?", k=101)
    assert over.code == "limit_exceeded" and [p.field for p in over.problems] == ["k"]
    long = _refused(memory.recall, "k", "work " * 400_000)  # the 1.9 MB query of the issue
    assert long.code == "limit_exceeded" and [p.field for p in long.problems] == ["query"]
    both = _refused(memory.recall, "k", "", k=0, budget_tokens=0, policy="wild", as_of="soon")
    assert both.code == "invalid_input"
    assert [p.field for p in both.problems] == ["query", "k", "budget_tokens", "policy", "as_of"]


def test_batch_limits_write_nothing(tmp_path: Path) -> None:
    with open_memory(tmp_path / "m", max_turns_per_batch=2, max_chars_per_turn=10, max_label_chars=5) as mem:
        many = _refused(mem.remember, "b", [{"text": f"t{i}"} for i in range(3)])
        assert many.code == "too_many_turns" and many.problems[0].field == "turns"
        long = _refused(mem.remember, "b", [{"text": "ok"}, {"text": "x" * 11}])
        assert long.code == "turn_too_long" and long.problems[0].field == "turns.1.text"
        label = _refused(mem.remember, "b", [{"text": "ok", "speaker": "Anastasia"}])
        assert label.code == "limit_exceeded" and label.problems[0].field == "turns.0.speaker"
        empty = _refused(mem.remember, "b", [])
        assert empty.code == "invalid_input" and empty.problems[0].field == "turns"
        assert mem.spaces() == []


def test_space_quotas_refuse_a_batch_whole(tmp_path: Path) -> None:
    with open_memory(tmp_path / "m", space_max_turns=3, space_max_bytes=0) as mem:
        mem.remember("q", [{"text": "one"}, {"text": "two"}])
        mem.remember("q", [{"text": "one"}, {"text": "two"}])  # re-sent: nothing new, nothing counted
        with pytest.raises(QuotaExceededError) as info:
            mem.remember("q", [{"text": "three"}, {"text": "four"}])
        assert info.value.code == "quota_exceeded" and info.value.quota == "turns"
        assert (info.value.used, info.value.wanted, info.value.limit) == (2, 2, 3)
        assert mem.stats("q")["evidence"] == 2
        mem.remember("q", [{"text": "three"}])
        mem.remember("other", [{"text": "a space of its own"}])
    with open_memory(tmp_path / "b", space_max_bytes=20) as mem:
        mem.remember("q", [{"text": "1234567890"}])  # 10 bytes of text + 2 of "{}"
        with pytest.raises(QuotaExceededError) as info:
            mem.remember("q", [{"text": "é" * 5}])
        assert info.value.quota == "bytes" and (info.value.used, info.value.wanted) == (12, 12)


def test_a_read_method_naming_times_at_the_limits_answers(memory: Memory) -> None:
    memory.remember("r", [{"text": "I work at Acme.", "speaker": "Ana", "observed_at": "2024-01-01T00:00:00Z"}])
    assert memory.dimensions("r", as_of=datetime(9999, 12, 30, tzinfo=timezone.utc)) is not None
    assert memory.recall("r", "Where does Ana work?", as_of="0001-01-02T00:00:00Z").items == ()


@pytest.mark.parametrize(("params", "fragment"), [({"space": "r", 5: "x"}, "got int"), ({"space": "r", LONE: "x"}, "surrogate")])
def test_an_audit_parameter_name_that_is_no_clean_string_is_an_input_error(
    memory: Memory, params: dict[Any, str], fragment: str
) -> None:
    # Found by probing: an int name was a TypeError from joining the unknown names, and a
    # lone surrogate in a name was quoted into the message, which then could not be printed.
    error = _refused(memory.audit, "timeline", params)
    assert error.problems[0].field == "params" and fragment in str(error)
    str(error).encode("utf-8")  # the message itself is valid Unicode


@pytest.mark.parametrize("dest", ["a\x00b", f"/tmp/{LONE}", 5, ""])
def test_a_backup_destination_that_is_no_path_is_an_input_error(memory: Memory, dest: Any) -> None:
    # Found by probing: a NUL was a ValueError, a lone surrogate a UnicodeEncodeError and a
    # number a TypeError, each from the file system under Memory.backup.
    assert _refused(memory.backup, dest).problems[0].field == "dest"


@pytest.mark.parametrize("policy", ["abc", [("r", 30)], 30])
def test_a_retention_policy_that_is_no_mapping_is_an_input_error(memory: Memory, policy: Any) -> None:
    # Found by probing: dict(policy) raised a ValueError or TypeError of its own.
    assert _refused(memory.apply_retention, policy).problems[0].field == "policy"


@pytest.mark.parametrize("spaces", [None, "abc", 5])
def test_space_counts_of_no_list_is_an_input_error(memory: Memory, spaces: Any) -> None:
    # Found by probing: None was a TypeError, and "abc" counted the spaces "a", "b" and "c".
    now = datetime.now(timezone.utc)
    assert _refused(memory.space_counts, spaces, now, now).problems[0].field == "spaces"


@pytest.mark.parametrize(
    ("arguments", "field"),
    [({"kinds": "evidence"}, "kinds"), ({"kinds": 5}, "kinds"), ({"kinds": [None]}, "kinds.0"),
     ({"kinds": ["evidence", "turns"]}, "kinds.1"), ({"kinds": ["evidence"], "on_start": 5}, "on_start")],
)  # fmt: skip
def test_index_vectors_refuses_what_is_no_list_of_kinds_or_no_callback(
    memory: Memory, arguments: dict[str, Any], field: str
) -> None:
    # Found by probing: the number 5 as kinds or as on_start was a TypeError from below, and
    # "evidence" was refused as the kinds "e", "v", "i", ….
    before = memory.vector_index()
    assert _refused(memory.index_vectors, **arguments).problems[0].field == field
    assert memory.vector_index() == before  # nothing built


@pytest.mark.parametrize(
    ("fields", "field"),
    [({"text": f"a{LONE}"}, "text"), ({"text": "  "}, "text"), ({"text": "ok", "metadata": {"x": math.nan}}, "metadata"),
     ({"text": "ok", "observed_at": "0001-01-01T00:00:00+01:00"}, "observed_at"), ({"text": "ok", "mood": "x"}, "mood"), ({}, "text")],
)  # fmt: skip
def test_an_invalid_turn_built_by_hand_is_an_input_error(fields: dict[str, Any], field: str) -> None:
    # Found by probing: eywa.Turn(...) raised pydantic's ValidationError, not an EywaError,
    # though the README offers a Turn wherever a dict goes.
    from eywa import Turn

    with pytest.raises(InvalidInputError) as info:
        Turn(**fields)
    assert info.value.code == "invalid_turn" and [p.field for p in info.value.problems] == [field]


def test_a_progress_that_is_not_callable_is_refused_before_the_batch_is_written(memory: Memory) -> None:
    # Found by probing: progress=5 was called only after the batch was committed, so the
    # call raised a TypeError for turns that were stored all the same.
    error = _refused(memory.remember, "progress", [{"text": "a turn with a bad callback"}], progress=5)
    assert error.problems[0].field == "progress"
    assert "progress" not in memory.spaces()


def test_a_claim_said_at_the_last_supported_instant_goes_through_level1(memory: Memory) -> None:
    # Found by probing: 9999-12-30T23:59:59.999999Z reads back from the embedded store's
    # epoch seconds as 9999-12-31T00:00:00Z, and the validator's "day after" of that turn
    # was an OverflowError from remember, after the batch was committed.
    memory.remember("last-instant", [{"text": "I live in Lyon.", "speaker": "Ana", "observed_at": SUPPORTED_UNTIL}])
    assert memory.beliefs("last-instant", subject="Ana")


def test_a_dropped_space_exports_and_imports(memory: Memory, tmp_path: Path) -> None:
    # The erasure record of drop_space selects recorded_before datetime.max: the import's
    # check of a line's times must carry it (only a time with no UTC instant is refused).
    from eywa.portability import record_json

    memory.remember("dropped", [{"text": "I work at Acme.", "speaker": "Ana"}])
    memory.drop_space("dropped")
    memory.remember("dropped", [{"text": "I live in Lyon.", "speaker": "Ana"}])
    lines = [record_json(r) for r in memory.export_space("dropped")]
    with open_memory(tmp_path / "copy") as copy:
        assert copy.import_space("dropped", lines).counts["erasure"] == 1
