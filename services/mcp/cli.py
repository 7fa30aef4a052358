"""``eywa mcp``: the MCP server over stdio or streamable HTTP, a plugin of the ``eywa`` command.

Registered under ``[project.entry-points."eywa.commands"]``; imports only the core's
command kit, so the command is listed even without the ``service`` extra.
"""

from __future__ import annotations

from typing import Annotated, Literal

import typer

from eywa.runtime import load_settings
from eywa.runtime.commands import DataDirOption, missing_extra

__all__ = ["mcp"]


def mcp(
    transport: Annotated[
        Literal["stdio", "http"], typer.Option(help="stdio (local agent) or http (streamable HTTP, API keys).")
    ] = "stdio",
    host: Annotated[str, typer.Option(help="Interface to bind (http).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port (http).", min=0, max=65535)] = 8765,
    data_dir: DataDirOption = None,
) -> None:
    """Serve Eywa's memory tools to agents over MCP (stdio, or streamable HTTP with API keys).

    Tools: remember, recall, explain, beliefs, dimensions, forget, drop_space, correct_belief,
    correct_candidate, corrections, merges and merge.
    """
    settings = load_settings(data_dir)
    try:
        from services.mcp.server import run
    except ImportError as exc:  # the optional extra is missing
        raise missing_extra("mcp", "service", exc) from exc
    run(settings, transport, host, port)
