"""README, CLI: a bracketed ``[--flag VALUE]`` of the command table shows the option's
default (``[-k 10]``, ``[--drain 60]``, ``[--status active|superseded|…]``: the first choice)
wherever the command has one — test_readme_reference.py checked that each documented flag
exists, not its value (audit of s25; all agree). Values of options without a default
(``[--expires 30d]``, ``[--since 1h]``) are examples and are not compared.
"""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from eywa.cli import app
from tests.unit.test_readme_reference import COMMAND_LINES, _command_and_flags

_BRACKETED = re.compile(r"\[(--?[a-zA-Z][\w-]*) ([^\]\s|\\]+)(?:\\?\|[^\]]*)?\]")


def _placeholder(value: str) -> bool:
    """``S``, ``ID``, ``FILE``, ``ISO``: a name for what the caller gives; ``--port``: the next flag."""
    return value.isupper() or value.startswith("-")


def _documented() -> list[tuple[tuple[str, ...], str, str]]:
    found: set[tuple[tuple[str, ...], str, str]] = set()
    for line in COMMAND_LINES:
        command, _ = _command_and_flags(line)
        found |= {(tuple(command), flag, value) for flag, value in _BRACKETED.findall(line) if not _placeholder(value)}
    return sorted(found)


def _default(help_text: str, flag: str) -> str | None:
    block = re.search(re.escape(flag) + r"\b(.*?)(?=\n\s*│\s*-|\Z)", help_text, re.S)
    shown = re.search(r"\[default: ([^\]]+)\]", block.group(1)) if block else None
    return shown.group(1).strip() if shown else None


DOCUMENTED = _documented()


def test_the_bracketed_values_were_read() -> None:
    assert len(DOCUMENTED) >= 30 and (("recall",), "-k", "10") in DOCUMENTED


@pytest.mark.parametrize(("command", "flag", "value"), DOCUMENTED, ids=[f"{' '.join(c)} {f}" for c, f, _ in DOCUMENTED])
def test_a_documented_value_is_the_option_s_default(command: tuple[str, ...], flag: str, value: str) -> None:
    shown = CliRunner().invoke(app, [*command, "--help"], terminal_width=250, env={"COLUMNS": "250"})
    assert shown.exit_code == 0, shown.output
    default = _default(shown.output, flag)
    if default is None:  # no default: the README shows an example
        return
    written = str(int(value[:-1]) * 1000) if re.fullmatch(r"\d+k", value) else value  # 10k
    assert default in (written, f"{written}.0"), f"eywa {' '.join(command)} {flag}: README {value}, default {default}"
