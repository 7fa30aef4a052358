"""``eywa keys create|list|revoke``: manage the API keys of ``eywa serve`` and ``eywa mcp``."""

from __future__ import annotations

from typing import Annotated

import typer

from eywa.cli._common import DataDirOption, EywaGroup, load_settings, out_console
from eywa.errors import ConfigurationError

app = typer.Typer(cls=EywaGroup, help="Create, list and revoke API keys.", no_args_is_help=True)


def _store(data_dir: DataDirOption) -> object:
    try:
        from services.api.app import key_store_path
        from services.keys import KeyStore
    except ImportError as exc:
        raise ConfigurationError(f"keys need the service extra: pip install 'eywa[service]' ({exc})") from exc
    return KeyStore(key_store_path(load_settings(data_dir)))


@app.command("create")
def create(
    space: Annotated[list[str], typer.Option("--space", help="A space the key may use (repeat); '*' for all.")],
    scope: Annotated[str, typer.Option("--scope", help="Comma-separated: read, write, admin.")] = "read,write",
    name: Annotated[str | None, typer.Option(help="A label for audit.")] = None,
    data_dir: DataDirOption = None,
) -> None:
    """Create a key and print it once (only its hash is stored)."""
    from services.keys import KeyStore, parse_scopes

    store = _store(data_dir)
    assert isinstance(store, KeyStore)
    try:
        record, secret = store.create(space, parse_scopes(scope), name)
    finally:
        store.close()
    out_console().print(secret, soft_wrap=True)
    typer.echo(f"id={record.id} spaces={','.join(record.spaces)} scopes={','.join(record.scopes)}", err=True)


@app.command("list")
def list_keys(data_dir: DataDirOption = None) -> None:
    """List keys (ids, spaces, scopes, revocation), never secrets."""
    from services.keys import KeyStore

    store = _store(data_dir)
    assert isinstance(store, KeyStore)
    try:
        for key in store.list():
            revoked = f" revoked={key.revoked_at.isoformat()}" if key.revoked_at else ""
            typer.echo(f"{key.id} spaces={','.join(key.spaces)} scopes={','.join(key.scopes)}{revoked}")
    finally:
        store.close()


@app.command("revoke")
def revoke(key_id: Annotated[str, typer.Argument(help="The key id (the part after eyw_).")], data_dir: DataDirOption = None) -> None:
    """Revoke a key; its requests get 401 from now on."""
    from services.keys import KeyStore

    store = _store(data_dir)
    assert isinstance(store, KeyStore)
    try:
        record = store.revoke(key_id)
    finally:
        store.close()
    typer.echo(f"revoked {record.id}")
