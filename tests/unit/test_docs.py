"""Every CLI command is documented in the README (sqlite-utils' test_docs idea)."""

from __future__ import annotations

from pathlib import Path

import typer

from eywa.cli.app import app

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def _commands(typer_app: typer.Typer, prefix: str = "eywa") -> list[str]:
    names = [f"{prefix} {c.name or c.callback.__name__}" for c in typer_app.registered_commands if c.callback]
    for group in typer_app.registered_groups:
        assert group.typer_instance is not None
        names += _commands(group.typer_instance, f"{prefix} {group.name}")
    return names


def test_every_cli_command_is_in_the_readme() -> None:
    commands = _commands(app)
    assert "eywa recall" in commands and "eywa bench locomo" in commands
    missing = [c for c in commands if f"`{c}" not in README]
    assert not missing, f"undocumented CLI commands: {missing}"
