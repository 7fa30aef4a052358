"""``eywa keys create|list|revoke``: manage the API keys of ``eywa serve`` and ``eywa mcp``.

Keys live in the store ``eywa.runtime.open_key_store`` opens (``EYWA_API_KEYS_PATH``, else
``<data_dir>/keys.sqlite``), the same one the API and the MCP server read.
"""

from __future__ import annotations

from typing import Annotated

import typer

from eywa.runtime import load_settings, open_key_store
from eywa.runtime.commands import DataDirOption, EywaGroup, out_console
from eywa.stores.keys import parse_scopes

__all__ = ["app"]

app = typer.Typer(cls=EywaGroup, help="Create, list and revoke API keys.", no_args_is_help=True)


@app.command("create")
def create(
    space: Annotated[list[str], typer.Option("--space", help="A space the key may use (repeat); '*' for all.")],
    scope: Annotated[str, typer.Option("--scope", help="Comma-separated: read, write, admin.")] = "read,write",
    name: Annotated[str | None, typer.Option(help="A label for audit.")] = None,
    data_dir: DataDirOption = None,
) -> None:
    """Create a key and print it once (only its hash is stored)."""
    scopes = parse_scopes(scope)
    store = open_key_store(load_settings(data_dir))
    try:
        record, secret = store.create(space, scopes, name)
    finally:
        store.close()
    out_console().print(secret, soft_wrap=True)
    typer.echo(f"id={record.id} spaces={','.join(record.spaces)} scopes={','.join(record.scopes)}", err=True)


@app.command("list")
def list_keys(data_dir: DataDirOption = None) -> None:
    """List keys (ids, spaces, scopes, revocation), never secrets."""
    store = open_key_store(load_settings(data_dir))
    try:
        for key in store.list():
            revoked = f" revoked={key.revoked_at.isoformat()}" if key.revoked_at else ""
            typer.echo(f"{key.id} spaces={','.join(key.spaces)} scopes={','.join(key.scopes)}{revoked}")
    finally:
        store.close()


@app.command("revoke")
def revoke(key_id: Annotated[str, typer.Argument(help="The key id (the part after eyw_).")], data_dir: DataDirOption = None) -> None:
    """Revoke a key; its requests get 401 from now on."""
    store = open_key_store(load_settings(data_dir))
    try:
        record = store.revoke(key_id)
    finally:
        store.close()
    typer.echo(f"revoked {record.id}")
