"""Pytest plugin: the Redis that tests marked ``redis`` (broker, locks) run against.

Register in ``tests/conftest.py``: ``pytest_plugins = [..., "tests.redis_server"]``.

Where the server comes from, in order:

1. ``EYWA_REDIS_URL``: a server someone else runs (read in ``pytest_configure``, before
   ``clean_environ`` strips ``EYWA_*``).
2. Otherwise ``ops/redis/redis-test-server`` starts a throwaway one for the session (Debian's
   ``redis-server``, installed by the script when missing and permitted), stopped at the end.
3. Neither possible: tests marked ``redis`` are skipped with the reason, except under
   ``CI=true``, where they fail.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "ops" / "redis" / "redis-test-server"
_CONFIGURED: str | None = None


def pytest_configure(config: pytest.Config) -> None:
    """Read ``EYWA_REDIS_URL`` before any test's environment is cleaned."""
    global _CONFIGURED
    _CONFIGURED = os.environ.get("EYWA_REDIS_URL") or None


def _unavailable(reason: str) -> NoReturn:
    if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
        pytest.fail(f"{reason} (CI=true: Redis tests must run, not skip)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """The URL of a running Redis for the whole session."""
    if _CONFIGURED:
        yield _CONFIGURED
        return
    run_dir = Path(tempfile.mkdtemp(prefix="eywa-redis-test-"))
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "start", "--run-dir", str(run_dir)],
        capture_output=True, text=True, timeout=600, check=False,
    )
    if done.returncode != 0:
        _unavailable(f"no Redis server: {done.stderr.strip() or done.stdout.strip()}")
    try:
        yield done.stdout.strip()
    finally:
        subprocess.run([sys.executable, str(SCRIPT), "stop", "--run-dir", str(run_dir)],
                       capture_output=True, timeout=60, check=False)
