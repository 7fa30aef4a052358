"""``eywa serve``: the HTTP API with uvicorn, a plugin of the ``eywa`` command.

Registered under ``[project.entry-points."eywa.commands"]``. This module imports only the
core's command kit, so ``eywa --help`` lists the command even where the ``service`` extra is
missing; running it then says which extra to install.
"""

from __future__ import annotations

from typing import Annotated

import typer

from eywa.runtime import load_settings
from eywa.runtime.commands import DataDirOption, missing_extra

__all__ = ["serve"]


def serve(
    host: Annotated[str, typer.Option(help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=0, max=65535)] = 8000,
    data_dir: DataDirOption = None,
    access_log: Annotated[
        bool,
        typer.Option(
            "--access-log/--no-access-log",
            help="Also log every request on stderr (uvicorn's access log). Off: the API records every /v1 call "
            "in its own access log (`eywa keys log`) and its metrics, and the line costs ~0.3 ms of CPU a request.",
        ),
    ] = False,
) -> None:
    """Serve the HTTP API (OpenAPI at /docs); keys come from `eywa keys create`."""
    settings = load_settings(data_dir)
    try:
        from services.api.app import serve as run_server
    except ImportError as exc:  # the optional extra is missing
        raise missing_extra("serve", "service", exc) from exc
    run_server(settings, host=host, port=port, access_log=access_log)
