"""The ``eywa`` Typer app: the core's commands, and every command other packages plug in.

The core's commands (``ingest``, ``recall``, ``stats``, ``demo``, ``keys``, ``schema``,
``audit``) are registered here. The benchmarks, the HTTP API, the MCP server and the workers
are entry points of their own, which the core must not import; each registers its commands
in ``pyproject.toml`` under ``[project.entry-points."eywa.commands"]`` (a function becomes a
command, a ``typer.Typer`` a group of sub-commands), and ``add_plugins`` adds whatever is
installed. A plugin whose optional dependencies are missing still appears in ``--help`` and
says which extra to install when run.

Errors need no handling in commands: ``EywaGroup`` is the boundary
(``eywa.runtime.commands``).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points
from typing import Any

import typer

from eywa.cli import keys
from eywa.cli.correct_cmds import beliefs_app, candidates_app, corrections
from eywa.cli.demo import demo
from eywa.cli.erase_cmds import drop_space, forget
from eywa.cli.graph_cmds import audit, schema_app
from eywa.cli.memory_cmds import ingest, recall, stats
from eywa.cli.merge_cmds import merges_app
from eywa.cli.model_cmds import models_app
from eywa.cli.port_cmds import backup, export_space, import_space
from eywa.cli.upkeep_cmds import index_vectors, reconcile, repair_vectors, reprocess
from eywa.errors import ConfigurationError
from eywa.runtime.commands import EywaGroup

__all__ = ["PLUGIN_GROUP", "add_plugins", "app", "main"]

PLUGIN_GROUP = "eywa.commands"

app = typer.Typer(
    cls=EywaGroup,
    name="eywa",
    help="Eywa: provenance-first memory for AI agents.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,  # locals may hold secrets (API keys in settings)
)

app.command("ingest")(ingest)
app.command("recall")(recall)
app.command("stats")(stats)
app.command("demo")(demo)
app.add_typer(keys.app, name="keys")
app.add_typer(schema_app, name="schema")
app.command("audit")(audit)
app.command("reprocess")(reprocess)
app.command("reconcile")(reconcile)
app.command("repair-vectors")(repair_vectors)
app.command("index-vectors")(index_vectors)
app.command("forget")(forget)
app.command("drop-space")(drop_space)
app.add_typer(beliefs_app, name="beliefs")
app.add_typer(candidates_app, name="candidates")
app.command("corrections")(corrections)
app.add_typer(merges_app, name="merges")
app.add_typer(models_app, name="models")
app.command("export")(export_space)
app.command("import")(import_space)
app.command("backup")(backup)


def _unavailable(entry: EntryPoint, exc: ImportError) -> Callable[..., None]:
    """A stand-in command for a plugin that cannot be imported (an extra is missing)."""
    extras = ", ".join(entry.extras) or "service or worker"

    def command(ctx: typer.Context) -> None:
        raise ConfigurationError(f"eywa {entry.name} needs the {extras} extra: pip install 'eywa[{extras}]' ({exc})")

    command.__doc__ = f"(unavailable: install the {extras} extra)"
    return command


def add_plugins(target: typer.Typer, group: str = PLUGIN_GROUP) -> list[str]:
    """Add the commands installed under the entry-point ``group``; returns their names.

    Raises:
        TypeError: an entry point names something that is neither a function nor a Typer.
    """
    added: list[str] = []
    for entry in sorted(entry_points(group=group), key=lambda e: e.name):
        try:
            plugin: Any = entry.load()
        except ImportError as exc:
            loose = {"ignore_unknown_options": True, "allow_extra_args": True}
            target.command(entry.name, context_settings=loose, add_help_option=False)(_unavailable(entry, exc))
        else:
            if isinstance(plugin, typer.Typer):
                target.add_typer(plugin, name=entry.name)
            elif callable(plugin):
                target.command(entry.name)(plugin)
            else:
                raise TypeError(f"entry point {entry.name} = {entry.value} is not a command or a Typer app")
        added.append(entry.name)
    return added


add_plugins(app)


def main() -> None:
    """Console-script entry point (``eywa = "eywa.cli:main"``)."""
    app()
