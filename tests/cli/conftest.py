"""CLI test fixtures (the clean environment comes from ``tests/conftest.py``)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner


@pytest.fixture
def runner() -> CliRunner:
    """A runner that keeps stderr apart from stdout, as a shell would."""
    return CliRunner()
