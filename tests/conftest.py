"""Shared fixtures. Every test starts from an environment without EYWA_* variables (under
xdist, but for ``EYWA_EMBED_THREADS``: see ``SUITE_EMBED_THREADS``)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from tests.suite_threads import SUITE_EMBED_THREADS

pytest_plugins = ["tests.neo4j_server", "tests.redis_server"]

# Property tests check behaviour, not time: Hypothesis's default 200 ms deadline per example
# is a timed check, and a shared 2-core machine (load 15-25, two xdist workers beside Neo4j)
# can stall any example that long. Speed is the benchmarks' to measure. Tests that set their
# own settings keep them; this is the default.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")


@pytest.fixture(autouse=True)
def clean_environ(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Strip EYWA_* so no developer setting leaks into a test (server URIs are re-read by
    the fixtures that need them before this runs)."""
    for name in list(os.environ):
        if name.startswith("EYWA_"):
            monkeypatch.delenv(name, raising=False)
    if SUITE_EMBED_THREADS:
        monkeypatch.setenv("EYWA_EMBED_THREADS", str(SUITE_EMBED_THREADS))
    yield
