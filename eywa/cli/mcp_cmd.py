"""``eywa mcp``: run the MCP server (stdio for local agents, streamable HTTP with keys)."""

from __future__ import annotations

from typing import Annotated, Literal

import typer

from eywa.cli._common import DataDirOption, load_settings
from eywa.errors import ConfigurationError


def mcp(
    transport: Annotated[str, typer.Option(help="stdio (local agent) or http (streamable HTTP, API keys).")] = "stdio",
    host: Annotated[str, typer.Option(help="Interface to bind (http).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port (http).")] = 8765,
    data_dir: DataDirOption = None,
) -> None:
    """Serve Eywa's tools (remember, recall, explain, beliefs, dimensions) over MCP."""
    if transport not in ("stdio", "http"):
        raise typer.BadParameter("must be stdio or http", param_hint="--transport")
    try:
        from services.mcp_server import run
    except ImportError as exc:
        raise ConfigurationError(f"eywa mcp needs the service extra: pip install 'eywa[service]' ({exc})") from exc
    chosen: Literal["stdio", "http"] = "stdio" if transport == "stdio" else "http"
    run(load_settings(data_dir), chosen, host, port)
