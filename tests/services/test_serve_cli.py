"""``eywa serve`` runs uvicorn without its per-request access log unless asked for it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

import services.api.app as api_app
from eywa.cli import app
from eywa.settings import EywaSettings
from services.http_protocol import PROTOCOL


@pytest.mark.parametrize(("flags", "logged"), [([], False), (["--access-log"], True), (["--no-access-log"], False)])
def test_serve_passes_the_access_log_choice_to_uvicorn(
    flags: list[str], logged: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = object()
    calls: list[dict[str, Any]] = []

    def build_app(settings: EywaSettings) -> object:
        assert settings.data_dir == tmp_path
        return built

    monkeypatch.setattr(api_app, "build_app", build_app)
    monkeypatch.setattr(uvicorn, "run", lambda application, **kwargs: calls.append({"app": application, **kwargs}))
    result = CliRunner().invoke(app, ["serve", "--port", "8123", "--data-dir", str(tmp_path), *flags])
    assert result.exit_code == 0, result.output
    assert calls == [{"app": built, "host": "127.0.0.1", "port": 8123, "access_log": logged, "http": PROTOCOL}]


# ``eywa serve`` in a fresh interpreter where Celery cannot be imported (the ``service``
# extra alone, as ``pip install 'eywa[service]'`` leaves it): uvicorn.run only reports the app.
_WITHOUT_CELERY = """
import sys
sys.modules["celery"] = None  # import celery -> ImportError, as when the worker extra is missing
import uvicorn
uvicorn.run = lambda application, **kwargs: print("served", type(application).__name__)
from eywa.cli import app
app(sys.argv[1:])
"""


def _serve_without_celery(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("EYWA_")} | env
    return subprocess.run(
        [sys.executable, "-c", _WITHOUT_CELERY, "serve", "--data-dir", str(tmp_path / "mem")],
        capture_output=True, text=True, env=environ, timeout=120, check=False,
    )  # fmt: skip


def test_serve_needs_no_celery_with_the_inline_runner(tmp_path: Path) -> None:
    done = _serve_without_celery(tmp_path)
    assert done.returncode == 0, done.stderr
    assert "served FastAPI" in done.stdout


def test_serve_with_the_celery_runner_names_the_worker_extra(tmp_path: Path) -> None:
    done = _serve_without_celery(tmp_path, EYWA_JOB_RUNNER="celery", EYWA_REDIS_URL="redis://127.0.0.1:1/0")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "pip install 'eywa[worker]'" in done.stderr and "[configuration_error]" in done.stderr


@pytest.mark.parametrize("command", [["serve"], ["mcp", "--transport", "http"]], ids=["serve", "mcp-http"])
def test_a_taken_port_is_one_line_before_the_memory_opens(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by probing (s30): a second ``eywa serve`` on a taken port opened the memory and
    loaded the embedder, then ended in uvicorn's six log lines and exit 3; README, CLI:
    "User mistakes print one line on stderr and exit non-zero"."""
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: pytest.fail("uvicorn started"))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(app, [*command, "--port", str(port), "--data-dir", str(tmp_path / "mem")])
    assert result.exit_code == 1, result.output
    assert result.stderr.strip().splitlines() == [
        f"error: cannot listen on 127.0.0.1:{port}: Address already in use [configuration_error]"
    ]
    assert not (tmp_path / "mem").exists()  # refused before the memory was opened (or created)
