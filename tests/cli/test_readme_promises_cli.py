"""README CLI promises no other test walked (audit of s14).

- Configuration: "``recall`` and ``stats`` refuse a missing embedded directory instead of
  creating an empty memory" (``recall`` and ``audit`` were tested, ``stats`` not).
- Erasure: ``eywa drop-space`` asks for confirmation (``--yes`` skips it); declining erases
  nothing (shown for ``forget`` only).
- CLI: "User mistakes print one line on stderr, ending with the error's code in brackets";
  the input contract: nothing raised comes from below (no ``OverflowError``). A duration
  too long for ``timedelta`` or for the calendar in ``eywa keys`` was a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from eywa.cli import app


def test_stats_on_a_missing_memory_does_not_create_one(runner: CliRunner, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    result = runner.invoke(app, ["stats", "--space", "s", "--data-dir", str(missing)])
    assert result.exit_code != 0 and "no memory at" in result.stderr and "[configuration_error]" in result.stderr
    assert not missing.exists()


def test_declining_drop_space_erases_nothing(runner: CliRunner, tmp_path: Path) -> None:
    turns = tmp_path / "turns.jsonl"
    turns.write_text("\n".join(json.dumps({"text": text, "speaker": "Ana"}) for text in ("I live in Lyon.", "I own a cat.")))
    data = str(tmp_path / "mem")
    assert runner.invoke(app, ["ingest", "--space", "keep", str(turns), "--data-dir", data]).exit_code == 0
    declined = runner.invoke(app, ["drop-space", "keep", "--data-dir", data], input="n\n")
    assert declined.exit_code != 0 and "Aborted" in declined.output
    listed = runner.invoke(app, ["export", "--space", "keep", "--data-dir", data])
    assert listed.exit_code == 0, listed.output
    kinds = [json.loads(line)["kind"] for line in listed.stdout.splitlines() if line.startswith("{")]
    assert kinds.count("turn") == 2 and "erasure" not in kinds


@pytest.mark.parametrize(
    "args",
    [
        ["keys", "create", "--space", "s", "--scope", "read", "--expires", "99999999999d"],
        ["keys", "create", "--space", "s", "--scope", "read", "--expires", "4000000d"],
        ["keys", "log", "--since", "99999999999d"],
        ["keys", "log", "--since", "1000000d"],
        ["keys", "rotate", "k_nope", "--grace", "99999999999d"],
    ],
)
def test_a_duration_past_the_calendar_is_a_one_line_input_error(runner: CliRunner, tmp_path: Path, args: list[str]) -> None:
    result = runner.invoke(app, [*args, "--data-dir", str(tmp_path)])
    assert result.exit_code != 0 and isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --") and lines[0].endswith("[invalid_input]"), result.stderr


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["audit", "timeline", "-p", "space=home", "-p", "speaker=\udcff"], "params.speaker"),
        (["audit", "timeline", "-p", "space=\udcff"], "params.space"),
        (["keys", "log", "--key", "\udcff"], "--key"),
        (["keys", "log", "--space", "\udcff"], "space"),
        (["keys", "create", "--space", "home", "--name", "\udcff"], "name"),
        (["keys", "rotate", "\udcff"], "KEY_ID"),
        (["keys", "revoke", "\udcff"], "KEY_ID"),
    ],
)
def test_read_only_commands_refuse_an_undecodable_argument_in_one_line(
    runner: CliRunner, tmp_path: Path, args: list[str], field: str
) -> None:
    """``eywa audit`` and ``eywa keys`` read the stores directly (they work beside a running
    server), so ``Memory``'s checks did not run: an argument that is not UTF-8 (a lone
    surrogate once decoded) was a ``UnicodeEncodeError`` traceback from SQLite."""
    turns = tmp_path / "turns.jsonl"
    turns.write_text(json.dumps({"text": "I live in Lyon.", "speaker": "Ana"}))
    data = ["--data-dir", str(tmp_path / "m")]
    assert runner.invoke(app, ["ingest", "--space", "home", str(turns), *data]).exit_code == 0
    result = runner.invoke(app, [*args, *data])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), repr(result.exception)
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"error: {field}:") and line.endswith("[invalid_input]"), line


@pytest.mark.parametrize("value", ["abc", "-1", "", "1.5", "9" * 19])
def test_an_audit_count_parameter_must_be_a_non_negative_integer(runner: CliRunner, tmp_path: Path, value: str) -> None:
    """``eywa audit --list`` shows ``limit=100``: a count. ``-p limit=abc`` answered an empty
    table on the embedded store (SQLite casts it to 0 rows) where Neo4j reads no value; it is
    now refused on both, as the rest of the input contract is."""
    turns = tmp_path / "turns.jsonl"
    turns.write_text(json.dumps({"text": "I live in Lyon.", "speaker": "Ana"}))
    data = ["--data-dir", str(tmp_path / "m")]
    assert runner.invoke(app, ["ingest", "--space", "home", str(turns), *data]).exit_code == 0
    refused = runner.invoke(app, ["audit", "timeline", "-p", "space=home", "-p", f"limit={value}", *data])
    assert refused.exit_code == 1 and refused.stderr.strip().startswith("error: params.limit:"), refused.output
    kept = runner.invoke(app, ["audit", "timeline", "-p", "space=home", "-p", "limit=5", "-p", "offset=0", *data])
    assert kept.exit_code == 0 and "Ana" in kept.stdout, kept.output


def test_an_audit_count_too_long_says_so(runner: CliRunner, tmp_path: Path) -> None:
    """Nineteen digits are a non-negative integer: the refusal said only that it must be one."""
    turns = tmp_path / "turns.jsonl"
    turns.write_text(json.dumps({"text": "I live in Lyon.", "speaker": "Ana"}))
    data = ["--data-dir", str(tmp_path / "m")]
    assert runner.invoke(app, ["ingest", "--space", "home", str(turns), *data]).exit_code == 0
    refused = runner.invoke(app, ["audit", "timeline", "-p", "space=home", "-p", f"offset={'9' * 19}", *data])
    assert "at most 18 digits" in refused.stderr, refused.output


@pytest.mark.parametrize("limit", ["9" * 19, "9" * 30])
def test_keys_log_takes_any_limit_as_at_most_that_many(runner: CliRunner, tmp_path: Path, limit: str) -> None:
    """Found by probing (s30): ``eywa keys log --limit`` past 64 bits was an OverflowError
    (the option has no upper bound; SQLite's LIMIT has): "at most this many" of a log
    shorter than that is all of it."""
    turns = tmp_path / "turns.jsonl"
    turns.write_text(json.dumps({"text": "I live in Lyon.", "speaker": "Ana"}))
    data = ["--data-dir", str(tmp_path / "m")]
    assert runner.invoke(app, ["ingest", "--space", "home", str(turns), *data]).exit_code == 0
    result = runner.invoke(app, ["keys", "log", "--limit", limit, *data])
    assert result.exit_code == 0 and result.exception is None, repr(result.exception)


@pytest.mark.parametrize(
    "args",
    [["forget", "--space", "alcie", "--speaker", "Ana", "--yes"], ["drop-space", "alcie", "--yes"]],
    ids=lambda args: args[0],
)  # fmt: skip
def test_an_erasure_of_a_space_without_turns_names_the_known_ones_and_changes_nothing(
    runner: CliRunner, tmp_path: Path, args: list[str]
) -> None:
    """README, CLI: ``forget`` and ``drop-space`` refuse a space that never held a turn, as
    every surface does (``tests/services/test_drop_space_surfaces.py``), listing the known
    ones; a read of such a space answers the empty space with a note naming them
    (``tests/services/test_unknown_space_reads.py``)."""
    turns = tmp_path / "turns.jsonl"
    turns.write_text(json.dumps({"text": "I live in Lyon.", "speaker": "Ana"}))
    data = ["--data-dir", str(tmp_path / "m")]
    assert runner.invoke(app, ["ingest", "--space", "alice", str(turns), *data]).exit_code == 0
    result = runner.invoke(app, [*args, *data])
    assert result.exit_code == 1 and result.stdout == "", result.output
    assert result.stderr.strip().splitlines() == ["error: unknown space 'alcie' (known: alice) [invalid_input]"]
    exported = runner.invoke(app, ["export", "--space", "alice", *data])
    assert '"kind":"erasure"' not in exported.stdout and exported.stdout.count('"kind":"turn"') == 1
