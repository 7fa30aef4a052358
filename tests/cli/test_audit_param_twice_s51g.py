"""``eywa audit`` refuses a parameter given twice instead of keeping the last value.

``eywa audit timeline -p space=home -p space=work`` audited ``work`` without a word: the
options were folded into a mapping, the first value lost. The caller is told which
parameter came twice, with both values, and nothing is opened.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from eywa.cli import app


@pytest.mark.parametrize(
    "params",
    [["-p", "space=home", "-p", "space=work"], ["-p", "space=home", "--param", "space =home"],
     ["-p", "space=home", "-p", "limit=5", "-p", "limit=50"]],
    ids=["two values", "the same value, spaced", "a later parameter"],
)  # fmt: skip
def test_a_parameter_given_twice_is_refused(runner: CliRunner, tmp_path: Path, params: list[str]) -> None:
    data = tmp_path / "m"
    refused = runner.invoke(app, ["audit", "timeline", *params, "--data-dir", str(data)])
    assert refused.exit_code == 1, refused.output
    assert "is given twice" in refused.stderr and "give each parameter once" in refused.stderr, refused.stderr
    assert refused.stderr.strip().endswith("[invalid_input]") and "Traceback" not in refused.output
    assert not data.exists()  # refused before the memory is opened
