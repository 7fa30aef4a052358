"""``eywa serve`` runs uvicorn without its per-request access log unless asked for it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

import services.api.app as api_app
from eywa.cli import app
from eywa.settings import EywaSettings


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
    assert calls == [{"app": built, "host": "127.0.0.1", "port": 8123, "access_log": logged}]
