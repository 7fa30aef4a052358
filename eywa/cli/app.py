"""The ``eywa`` Typer app. Commands live in their own modules and are registered here.

To add a command: write it in ``eywa/cli/<topic>.py`` (a function, or a ``typer.Typer``
built with ``cls=EywaGroup`` for a group of sub-commands) and add one line below. Errors
need no handling in commands: ``EywaGroup`` is the boundary (see ``eywa.cli._common``).
"""

from __future__ import annotations

import typer

from eywa.cli import bench, keys
from eywa.cli._common import EywaGroup
from eywa.cli.demo import demo
from eywa.cli.graph_cmds import audit, schema_app
from eywa.cli.mcp_cmd import mcp
from eywa.cli.memory_cmds import ingest, recall, stats
from eywa.cli.serve import serve
from eywa.cli.worker_cmds import beat, worker

__all__ = ["app", "main"]

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
app.add_typer(bench.app, name="bench")
app.command("worker")(worker)
app.command("beat")(beat)
app.command("serve")(serve)
app.command("mcp")(mcp)
app.add_typer(keys.app, name="keys")
app.add_typer(schema_app, name="schema")
app.command("audit")(audit)


def main() -> None:
    """Console-script entry point (``eywa = "eywa.cli:main"``)."""
    app()
