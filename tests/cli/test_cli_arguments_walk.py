"""The ``eywa`` commands walked with arguments hypothesis draws: blank, ``*``, markup,
control characters, numbers of every size, times out of range, long text. README, "The
input contract": every input is accepted or refused, never a traceback; a refusal is one
line on stderr, ``error: … [code]``, and exit code 1 (2 for click's usage errors).

Found by the walk (s33): a space name that is no space (blank, not printable) was first
answered with ``note: space '' holds no turns …; answering as an empty space`` and then
refused on the next line; the name is now refused alone. The walk of every command
(writes and erasures included, on a fresh copy per example) found nothing else; the
reading commands, cheap enough to walk on every run, stay here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from eywa.cli import app
from tests.cli.test_cli_end_to_end import SAMPLES

VALUES = st.one_of(
    st.sampled_from([
        "", " ", "-", "chat-a", "Omar", "*", "[bold]x[/bold]", "0", "-1", "1e999", "nan", "9" * 30, "1h", "5",
        "99999999999w", "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-05:00", "x" * 600, "\x00", "\x1b[31m",
        "\udcff", "a\nb", "ev_x", "any", "repair", "wild", "1.5",
    ]),
    st.text(max_size=10),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
)  # fmt: skip

# command: (positional arguments, options taking a value, flags)
READING: dict[str, tuple[int, list[str], list[str]]] = {
    "recall": (1, ["--space", "-k", "--budget", "--policy", "--as-of"], ["--json"]),
    "stats": (0, ["--space"], []),
    "audit": (1, ["--param"], ["--list"]),
    "corrections": (0, ["--space", "--target"], []),
    "export": (0, ["--space"], []),
    "beliefs list": (0, ["--space", "--status"], []),
    "candidates list": (0, ["--space", "--status"], []),
    "merges list": (0, ["--space"], ["--all"]),
    "merges propose": (0, ["--space"], []),
    "keys log": (0, ["--space", "--key", "--since", "--limit"], []),
}


@pytest.fixture(scope="module")
def memory_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("walk")
    data = root / "tiny-locomo.json"
    data.write_text(json.dumps(SAMPLES), encoding="utf-8")
    result = CliRunner().invoke(app, ["ingest", str(data), "--data-dir", str(root / "memory")])
    assert result.exit_code == 0, result.output
    return root / "memory"


@pytest.mark.parametrize("command", list(READING))
def test_any_argument_is_answered_or_refused_in_one_line(memory_dir: Path, tmp_path: Path, command: str) -> None:
    positional, options, flags = READING[command]
    runner = CliRunner()

    @given(
        arguments=st.lists(VALUES, min_size=positional, max_size=positional),
        chosen=st.dictionaries(st.sampled_from(options), VALUES, max_size=len(options)),
        flagged=st.lists(st.sampled_from(flags), max_size=1) if flags else st.just([]),
    )
    @settings(max_examples=12, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    def check(arguments: list[str], chosen: dict[str, str], flagged: list[str]) -> None:
        argv = [*command.split(), *arguments, *(part for pair in chosen.items() for part in pair), *flagged]
        argv += ["--data-dir", str(memory_dir)]
        if command == "export":
            argv += ["--out", str(tmp_path / "export.jsonl")]
        result = runner.invoke(app, argv)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError(f"{argv!r} raised from below") from result.exception
        assert result.exit_code in (0, 1, 2), (argv, result.exit_code, result.output)
        if result.exit_code == 1:
            lines = result.stderr.strip().splitlines()
            assert lines and lines[-1].startswith("error: "), (argv, result.stderr)
            if "space: " in lines[-1]:  # a name that is no space: refused alone, no "answering as empty"
                assert len(lines) == 1, (argv, result.stderr)

    check()


@pytest.mark.parametrize("space", ["", " ", "*", "a\x85b"])
def test_a_name_that_is_no_space_is_refused_without_a_note(memory_dir: Path, space: str) -> None:
    result = CliRunner().invoke(app, ["beliefs", "list", "--space", space, "--data-dir", str(memory_dir)])
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("error: space: ") and "note:" not in result.stderr, result.stderr
    assert result.stderr.rstrip().endswith("[invalid_input]")


@pytest.mark.parametrize(
    ("options", "python"),
    [
        (["-k", "0"], {"k": 0}),
        (["-k", "abc"], {"k": "abc"}),
        (["--budget", "0"], {"budget_tokens": 0}),
        (["--policy", "wild"], {"policy": "wild"}),
    ],
)
def test_a_value_click_refuses_ends_with_pythons_code(
    memory_dir: Path, tmp_path: Path, options: list[str], python: dict[str, object]
) -> None:
    """s33: a value refused by an option's type or bound (click's ``BadParameter``) ended
    without a code, where ``Memory.recall`` raises ``invalid_input`` for the same value."""
    from eywa import Memory
    from eywa.errors import EywaError
    from eywa.settings import EywaSettings
    from tests.contract.conftest import HashEmbedder

    result = CliRunner().invoke(app, ["recall", "q?", "--space", "chat-a", *options, "--data-dir", str(memory_dir)])
    assert result.exit_code == 2, result.output
    with Memory.open(tmp_path / "m", settings=EywaSettings(data_dir=tmp_path / "m"), embedder=HashEmbedder()) as memory:
        with pytest.raises(EywaError) as raised:
            memory.recall("chat-a", "q?", **python)  # type: ignore[arg-type]
    assert result.stderr.rstrip().endswith(f"[{raised.value.code}]"), (result.stderr, raised.value.code)


def test_a_refused_recall_in_an_unknown_space_is_one_error_line(memory_dir: Path) -> None:
    """s33: ``recall --space new -k 500`` printed "note: space 'new' holds no turns …;
    answering as an empty space" and then refused ``k``; the note now follows an answer only."""
    refused = CliRunner().invoke(app, ["recall", "q?", "--space", "new", "-k", "500", "--data-dir", str(memory_dir)])
    assert refused.exit_code == 1 and refused.stderr.startswith("error: ") and "note:" not in refused.stderr, refused.stderr
    answered = CliRunner().invoke(app, ["recall", "q?", "--space", "new", "--data-dir", str(memory_dir)])
    assert answered.exit_code == 0 and "note: space 'new' holds no turns" in answered.stderr, answered.output
