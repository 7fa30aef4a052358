"""``eywa serve``: run the HTTP API with uvicorn (needs the ``service`` extra)."""

from __future__ import annotations

from typing import Annotated

import typer

from eywa.cli._common import DataDirOption, load_settings
from eywa.errors import ConfigurationError


def serve(
    host: Annotated[str, typer.Option(help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    data_dir: DataDirOption = None,
) -> None:
    """Serve the HTTP API (OpenAPI at /docs); keys come from `eywa keys create`."""
    try:
        from services.api.app import serve as run_server
    except ImportError as exc:  # the optional extra is missing
        raise ConfigurationError(f"eywa serve needs the service extra: pip install 'eywa[service]' ({exc})") from exc
    run_server(load_settings(data_dir), host=host, port=port)
