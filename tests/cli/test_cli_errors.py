"""User mistakes end in one clear stderr line and a non-zero exit, never a traceback.

None of these tests opens a Memory: every mistake is caught before the embedder loads.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from eywa.cli import app, main


def _one_line_error(result: Result) -> str:
    assert result.exit_code != 0, result.output
    assert "Traceback" not in result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


def test_main_is_the_console_script_entry_point() -> None:
    assert callable(main)


def test_help_lists_every_command(runner: CliRunner) -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("ingest", "recall", "stats", "demo", "bench"):
        assert command in result.stdout


def test_ingest_missing_file(runner: CliRunner, tmp_path: Path) -> None:
    missing = tmp_path / "absent.jsonl"
    result = runner.invoke(app, ["ingest", str(missing), "--space", "s", "--data-dir", str(tmp_path / "m")])
    line = _one_line_error(result)
    assert "No such file or directory" in line and "absent.jsonl" in line
    assert result.exit_code == 1


@pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize("command", [["ingest", "--space", "s"], ["import", "--space", "s"], ["bench", "extraction", "--data"]])  # fmt: skip
def test_a_file_that_fails_while_read_is_named(runner: CliRunner, tmp_path: Path, command: list[str]) -> None:
    """A read that fails after the open (an I/O error: a failing disk, a network file
    system; ``/proc/self/mem`` fails so at its first byte) printed ``error: [Errno 5]
    Input/output error``, naming no file (README: a file that cannot be read is named)."""
    store = [] if command[0] == "bench" else ["--data-dir", str(tmp_path / "m")]
    result = runner.invoke(app, [*command, "/proc/self/mem", *store])
    line = _one_line_error(result)
    assert line.endswith("Input/output error: /proc/self/mem [invalid_input]"), line
    assert result.exit_code == 1


def test_a_data_dir_that_is_a_file_is_one_input_error_line_naming_it(runner: CliRunner, tmp_path: Path) -> None:
    """It was ``embedded store failed during open: cannot create ...: [Errno 17] File
    exists`` with code store_unavailable (a server fault) for the caller's own mistake."""
    turns, taken = tmp_path / "turns.jsonl", tmp_path / "memory"
    turns.write_text('{"speaker": "a", "text": "hi"}\n')
    taken.write_text("")
    result = runner.invoke(app, ["ingest", str(turns), "--space", "s", "--data-dir", str(taken)])
    line = _one_line_error(result)
    assert f"{taken} is a file, not a directory" in line and "[invalid_input]" in line
    assert result.exit_code == 1


def test_ingest_malformed_jsonl_names_the_line(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "turns.jsonl"
    path.write_text('{"text": "hello"}\n\n{"text": "oops",}\n', encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(path), "--space", "s", "--data-dir", str(tmp_path / "m")])
    assert "line 3" in _one_line_error(result)
    assert not (tmp_path / "m").exists()  # refused before anything was opened


def test_ingest_invalid_turn_names_line_and_field(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "turns.jsonl"
    path.write_text('{"text": "hello"}\n{"speaker": "ana"}\n', encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(path), "--space", "s", "--data-dir", str(tmp_path / "m")])
    line = _one_line_error(result)
    assert "line 2" in line and "text" in line


def test_ingest_jsonl_needs_a_space(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "turns.jsonl"
    path.write_text('{"text": "hello"}\n', encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(path), "--data-dir", str(tmp_path / "m")])
    assert "--space" in _one_line_error(result)


def test_ingest_locomo_unknown_sample(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "locomo.json"
    path.write_text(
        '[{"sample_id": "c1", "conversation": {"session_1_date_time": "2:17 pm on 9 May, 2023",'
        ' "session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "hi"}]}, "qa": []}]',
        encoding="utf-8",
    )
    result = runner.invoke(app, ["ingest", str(path), "--space", "c9", "--data-dir", str(tmp_path / "m")])
    assert "no LoCoMo sample named 'c9'" in _one_line_error(result)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--policy", "wild"], "Invalid value for '--policy': Value error, 'wild' is not one of 'strict', 'balanced', 'advanced'"),
        (["--as-of", "yesterday-ish"], "--as-of must be an ISO-8601"),
    ],
)
def test_recall_bad_option_values(runner: CliRunner, tmp_path: Path, args: list[str], fragment: str) -> None:
    result = runner.invoke(app, ["recall", "q?", "--space", "s", "--data-dir", str(tmp_path), *args])
    assert fragment in _one_line_error(result)


def test_recall_on_a_missing_memory_does_not_create_one(runner: CliRunner, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    result = runner.invoke(app, ["recall", "q?", "--space", "s", "--data-dir", str(missing)])
    assert "no memory at" in _one_line_error(result)
    assert not missing.exists()


def test_audit_on_a_missing_memory_does_not_create_one(runner: CliRunner, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    result = runner.invoke(app, ["audit", "merged_entities", "-p", "space=s", "--data-dir", str(missing)])
    assert "no memory at" in _one_line_error(result)
    assert not missing.exists()


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["audit"], "give an audit NAME, or --list"),
        (["audit", "merged_entities", "--list"], "give an audit NAME, or --list"),
        (["audit", "merged_entities", "-p", "space"], "--param must look like key=value, got 'space'"),
    ],
)
def test_audit_call_mistakes(runner: CliRunner, tmp_path: Path, args: list[str], fragment: str) -> None:
    assert fragment in _one_line_error(runner.invoke(app, [*args, "--data-dir", str(tmp_path / "m")]))
    assert not (tmp_path / "m").exists()


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["recall", "q?"], "Missing option '--space'"),
        (["recall", "q?", "--space", "s", "-k", "abc"], "'-k'"),
        (["recall", "q?", "--space", "s", "-k", "0"], "'-k'"),
        (["bench", "locomo"], "Missing option '--data'"),
        (["bench", "nope"], "No such command 'nope'"),
        (["frobnicate"], "No such command 'frobnicate'"),
        # a port outside 0-65535 was an OverflowError traceback from bind(), after the memory opened
        (["serve", "--port", "99999"], "'--port'"),
        (["mcp", "--transport", "http", "--port", "70000"], "'--port'"),
        (["worker", "--metrics-port", "-1"], "'--metrics-port'"),
    ],
)
def test_usage_errors_are_one_line_with_exit_2(runner: CliRunner, args: list[str], fragment: str) -> None:
    result = runner.invoke(app, args)
    assert fragment in _one_line_error(result)
    assert result.exit_code == 2


def test_bad_setting_in_the_environment(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EYWA_DEFAULT_K", "many")
    path = tmp_path / "turns.jsonl"
    path.write_text('{"text": "hello"}\n', encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(path), "--space", "s"])
    assert "EYWA_DEFAULT_K" in _one_line_error(result)


def test_bench_missing_data_file(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(app, ["bench", "locomo", "--data", str(tmp_path / "none.json")])
    assert "none.json" in _one_line_error(result)


@pytest.mark.parametrize(
    ("args", "command"),
    [(["stats", "--space", "s"], "eywa stats"), (["schema", "apply"], "eywa schema apply")],
)
def test_server_settings_without_the_server_extra_name_the_extra(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch, args: list[str], command: str
) -> None:
    """``EYWA_NEO4J_URI`` set where the neo4j driver is not installed (the core alone)."""
    monkeypatch.setitem(sys.modules, "neo4j", None)  # import neo4j -> ModuleNotFoundError
    for name in [m for m in sys.modules if m == "eywa.stores.server" or m.startswith("eywa.stores.neo4j")]:
        monkeypatch.delitem(sys.modules, name)
    result = runner.invoke(app, args, env={"EYWA_NEO4J_URI": "bolt://127.0.0.1:1"})
    line = _one_line_error(result)
    assert line.startswith(f"error: {command} needs the server extra: pip install 'eywa[server]'")
    assert line.endswith("[configuration_error]")


def test_ingest_turn_over_a_limit_names_the_line_and_stores_nothing(runner: CliRunner, tmp_path: Path) -> None:
    """A turn the contract refuses (not only the model) is named by its line, across the
    chunks ingest writes in, before anything is stored: the file goes in whole or not at all."""
    path = tmp_path / "turns.jsonl"
    good = '{"text": "hello", "speaker": "ana"}\n'
    path.write_text(good * 3 + "\n" + '{"text": "' + "x" * 20_001 + '"}\n', encoding="utf-8")
    args = ["ingest", str(path), "--space", "s", "--data-dir", str(tmp_path / "m")]
    result = runner.invoke(app, args, env={"EYWA_MAX_TURNS_PER_BATCH": "2"})
    assert _one_line_error(result) == f"error: {path}: line 5: text: at most 20000 characters [turn_too_long]"
    assert not (tmp_path / "m").exists()  # refused before the memory was opened


def test_ingest_interrupted_says_what_was_kept_and_a_rerun_finishes(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C during an ingest (the second chunk of three): exit 130 with one line saying the
    stored turns are kept; the same command again stores the rest, and nothing twice."""
    from eywa.memory import Memory

    path = tmp_path / "turns.jsonl"
    path.write_text("".join(f'{{"text": "turn number {i}", "speaker": "ana"}}\n' for i in range(6)), encoding="utf-8")
    args = ["ingest", str(path), "--space", "s", "--data-dir", str(tmp_path / "m")]
    remember, calls = Memory.remember, []

    def interrupted(self: Memory, *a: object, **kw: object) -> object:
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return remember(self, *a, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(Memory, "remember", interrupted)
    stopped = runner.invoke(app, args, env={"EYWA_MAX_TURNS_PER_BATCH": "2"})
    assert stopped.exit_code == 130 and "Traceback" not in stopped.output
    assert "interrupted: the turns stored so far are kept" in stopped.stderr
    monkeypatch.setattr(Memory, "remember", remember)
    rerun = runner.invoke(app, args, env={"EYWA_MAX_TURNS_PER_BATCH": "2"})
    assert rerun.exit_code == 0, rerun.output
    assert re.search(r"│ s\s*│\s*6 │\s*6 │", rerun.stdout), rerun.stdout  # 6 sent, 6 stored


def test_ingest_an_integer_longer_than_python_reads_names_the_line(runner: CliRunner, tmp_path: Path) -> None:
    # Found by probing: json.loads raised a bare ValueError (Python's 4300-digit limit on
    # int conversion), which left the CLI as a traceback.
    path = tmp_path / "turns.jsonl"
    path.write_text('{"text": "hello"}\n{"text": "hi", "metadata": {"n": ' + "9" * 5000 + "}}\n", encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(path), "--space", "s", "--data-dir", str(tmp_path / "m")])
    line = _one_line_error(result)
    assert "line 2" in line and "digits" in line and line.endswith("[invalid_input]")
    assert not (tmp_path / "m").exists()


@pytest.mark.parametrize("out", ["", "DIR"])
def test_export_to_an_empty_name_or_a_directory_is_one_error_line(runner: CliRunner, tmp_path: Path, out: str) -> None:
    # Found by probing: --out "" was a ValueError from Path.with_name (a traceback); a
    # directory failed only after the export was written, naming the temporary file.
    data = tmp_path / "m"
    turns = tmp_path / "turns.jsonl"
    turns.write_text('{"text": "I work at Acme."}\n', encoding="utf-8")
    assert runner.invoke(app, ["ingest", str(turns), "--space", "s", "--data-dir", str(data)]).exit_code == 0
    target = str(tmp_path) if out == "DIR" else out
    line = _one_line_error(runner.invoke(app, ["export", "--space", "s", "--out", target, "--data-dir", str(data)]))
    assert "--out" in line and line.endswith("[invalid_input]")
    assert not list(tmp_path.glob("*.partial"))



def test_a_reader_that_closes_the_pipe_early_gets_no_error_line() -> None:
    # ``eywa export … | head``: the reader goes away while the command writes. Unix tools
    # stop quietly (Typer exits 1 without a word); the CLI's error boundary must not turn
    # the closed pipe into an "error: [Errno 32] Broken pipe" line.
    import errno

    import typer

    from eywa.runtime.commands import EywaGroup

    probe = typer.Typer(cls=EywaGroup)

    @probe.command()
    def write() -> None:
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")

    @probe.command()
    def other() -> None:  # two commands: ``write`` stays a sub-command under the group
        """Unused."""

    result = CliRunner().invoke(probe, ["write"])
    assert "error:" not in result.stderr
    assert result.exit_code == 1


@pytest.mark.parametrize(("name", "content"), [("turns.jsonl", "\n"), ("turns.json", "[]"), ("spaced.json", " [ ] ")])
def test_ingest_a_file_without_turns_is_refused_and_creates_nothing(
    runner: CliRunner, tmp_path: Path, name: str, content: str
) -> None:
    """A JSON list of no turns (``[]``) was ingested as nothing with exit 0 and an empty
    memory created, where an empty JSONL file is refused: a batch of zero turns is refused
    by the input contract on every surface (README, "The input contract")."""
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(path), "--space", "s", "--data-dir", str(tmp_path / "m")])
    line = _one_line_error(result)
    assert f"{name}: content: no turns found" in line and line.endswith("[invalid_input]"), line
    assert not (tmp_path / "m").exists()
