"""``eywa keys create|list|rotate|revoke|log``: the API keys of ``eywa serve`` and ``eywa mcp``.

Keys live in the store ``eywa.runtime.open_key_store`` opens (``EYWA_API_KEYS_PATH``, else
``<data_dir>/keys.sqlite``), the same one the API and the MCP server read. ``log`` reads the
access log from the graph stores of the memory (no vectors, no directory lock), so it works
beside a running server; events reach it within a second of the call.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Annotated

import typer

from eywa.contract import DURATION, Limits, check_label, check_since, parse_duration
from eywa.errors import InvalidInputError, NotFoundError
from eywa.ids import check_space
from eywa.models import utc_now
from eywa.runtime import load_settings, open_graph_stores, open_key_store
from eywa.runtime.backends import backend_of, key_file_path
from eywa.runtime.commands import DataDirOption, EywaGroup, out_console
from eywa.settings import EywaSettings
from eywa.stores.keys import ALL_SPACES, ApiKey, parse_scopes
from eywa.values import parse_time

__all__ = ["app"]

app = typer.Typer(
    cls=EywaGroup, help="Create, list, rotate and revoke API keys; read the access log.", no_args_is_help=True
)


def _from_now(delta: timedelta, option: str) -> datetime:
    """Now plus ``delta``, within the supported range of times.

    Raises:
        InvalidInputError: the result lies past year 9999.
    """
    try:
        return parse_time(utc_now() + delta)
    except (OverflowError, ValueError):
        raise InvalidInputError.at(option, f"{delta.days} days after now is outside the supported range of times") from None


def _moment(text: str, option: str) -> datetime:
    """A duration from now (``30d``) or an ISO-8601 time; a bare number is refused, as the
    access log's ``--since`` refuses it (``eywa.contract.check_since``)."""
    if DURATION.match(text):
        return _from_now(parse_duration(text, option), option)
    try:
        return parse_time(text)
    except ValueError as exc:
        if text.strip().lstrip("+-").replace(".", "", 1).isdigit():
            raise InvalidInputError.at(
                option, f"{text.strip()[:32]!r} is a bare number: give a duration with its unit (5h, 5d) or an ISO-8601 time"
            ) from None
        raise InvalidInputError.at(option, f"a duration (30d) or an ISO-8601 time: {exc}") from None


def _describe(key: ApiKey) -> str:
    parts = [key.id, f"spaces={','.join(key.spaces)}", f"scopes={','.join(key.scopes)}"]
    if key.expires_at:
        parts.append(f"expires={key.expires_at.isoformat()}")
    if key.rotated_at:
        parts.append(f"rotated={key.rotated_at.isoformat()}")
    if key.revoked_at:
        parts.append(f"revoked={key.revoked_at.isoformat()}")
    return " ".join(parts)


@app.command("create")
def create(
    space: Annotated[list[str], typer.Option("--space", help="A space the key may use (repeat); '*' for all.")],
    scope: Annotated[str, typer.Option("--scope", help="Comma-separated: read, write, admin.")] = "read,write",
    name: Annotated[str | None, typer.Option(help="A label for audit.")] = None,
    expires: Annotated[
        str | None, typer.Option("--expires", help="Expiry: a duration from now (30d, 12h) or an ISO-8601 time.")
    ] = None,
    data_dir: DataDirOption = None,
) -> None:
    """Create a key and print it once (only its hash is stored)."""
    scopes = parse_scopes(scope)
    expires_at = _moment(expires, "--expires") if expires is not None else None
    store = open_key_store(load_settings(data_dir))
    try:
        record, secret = store.create(space, scopes, name, expires_at)
    finally:
        store.close()
    out_console(markup=False).print(secret, soft_wrap=True)
    typer.echo(f"id={_describe(record)}", err=True)


def _missing_key_file(settings: EywaSettings) -> Path | None:
    """The embedded key file's path when it does not exist (a mistyped ``--data-dir``): the
    commands that only read or change keys say so rather than create it there."""
    if backend_of(settings) != "embedded":
        return None
    path = key_file_path(settings)
    return None if path.exists() else path


@app.command("list")
def list_keys(data_dir: DataDirOption = None) -> None:
    """List keys (ids, spaces, scopes, expiry, rotation, revocation), never secrets."""
    settings = load_settings(data_dir)
    if (path := _missing_key_file(settings)) is not None:
        typer.echo(f"no keys: there is no key file at {path} (eywa keys create makes one)", err=True)
        return
    store = open_key_store(settings)
    try:
        keys = store.list()
    finally:
        store.close()
    for key in keys:
        typer.echo(_describe(key))
    if not keys:
        typer.echo("no keys (eywa keys create makes one)", err=True)


@app.command("rotate")
def rotate(
    key_id: Annotated[str, typer.Argument(help="The key id (the part after eyw_).")],
    grace: Annotated[
        str, typer.Option("--grace", help="How long the current secret keeps working (e.g. 1h, 0s; at most 30d).")
    ] = "1h",
    data_dir: DataDirOption = None,
) -> None:
    """Give a key a new secret, printed once; the current secret works until the grace ends."""
    period = parse_duration(grace, "--grace")
    settings = load_settings(data_dir)
    key_id = check_label(key_id, "KEY_ID", Limits.from_settings(settings))  # a lone surrogate: no store can read it
    if _missing_key_file(settings) is not None:
        raise NotFoundError("api key", ALL_SPACES, key_id)
    store = open_key_store(settings)
    try:
        record, secret = store.rotate(key_id, period)
    finally:
        store.close()
    out_console(markup=False).print(secret, soft_wrap=True)
    until = record.grace_until.isoformat() if record.grace_until else "now"
    typer.echo(f"rotated {record.id}; the previous secret works until {until}", err=True)


@app.command("revoke")
def revoke(key_id: Annotated[str, typer.Argument(help="The key id (the part after eyw_).")], data_dir: DataDirOption = None) -> None:
    """Revoke a key; its requests get 401 from now on."""
    settings = load_settings(data_dir)
    key_id = check_label(key_id, "KEY_ID", Limits.from_settings(settings))
    if _missing_key_file(settings) is not None:
        raise NotFoundError("api key", ALL_SPACES, key_id)
    store = open_key_store(settings)
    try:
        record = store.revoke(key_id)
    finally:
        store.close()
    typer.echo(f"revoked {record.id}")


_MAX_EVENTS = 2**63 - 1
"""The largest LIMIT SQLite and Neo4j take (a signed 64-bit integer)."""


@app.command("log")
def log(
    space: Annotated[str | None, typer.Option("--space", help="Only calls on this space.")] = None,
    key: Annotated[str | None, typer.Option("--key", help="Only calls with this key id.")] = None,
    since: Annotated[
        str | None, typer.Option("--since", help="Only calls since: a duration back (1h, 7d) or an ISO-8601 time.")
    ] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, help="At most this many events.")] = 50,
    data_dir: DataDirOption = None,
) -> None:
    """The access log of the API and MCP, newest first: time, key, surface, route, space,
    status (never content)."""
    start = check_since(since, "--since", utc_now())  # read as the API reads it: ISO-8601 or a duration back
    settings = load_settings(data_dir)
    space = None if space is None else check_space(space)  # as a Memory call would: the log is read directly
    key = None if key is None else check_label(key, "--key", Limits.from_settings(settings))
    stores = open_graph_stores(settings)
    try:
        # Any count past the log's size asks for all of it; one past 64 bits was an OverflowError from SQLite.
        events = stores.access.events(space=space, key_id=key, since=start, limit=min(limit, _MAX_EVENTS))
    finally:
        stores.close()
    for event in events:
        typer.echo(
            f"{event.at.isoformat()} key={event.key_id or '-'} {event.surface} {event.route} "
            f"space={event.space or '-'} status={event.status}"
        )
