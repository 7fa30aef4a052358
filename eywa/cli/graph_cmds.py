"""``eywa schema apply`` (Neo4j) and ``eywa audit`` (either backend)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from eywa.contract import Limits, check_params
from eywa.errors import InvalidInputError
from eywa.runtime import load_settings, open_graph_stores
from eywa.runtime.commands import DataDirOption, EywaGroup, out_console
from eywa.stores.audit import run_audit

if TYPE_CHECKING:
    from eywa.stores.audit import AuditSpec

schema_app = typer.Typer(cls=EywaGroup, help="The graph schema in Neo4j (graph_schema/).", no_args_is_help=True)


@schema_app.command("apply")
def schema_apply() -> None:
    """Apply pending graph_schema migrations to EYWA_NEO4J_URI (idempotent)."""
    from eywa.stores.neo4j.migrations import apply_migrations
    from eywa.stores.server import connect_neo4j

    settings = load_settings()
    driver = connect_neo4j(settings)
    try:
        applied = apply_migrations(driver, settings.neo4j_database)
    finally:
        driver.close()
    console = out_console(markup=False)
    if applied:
        console.print("applied: " + ", ".join(applied))
    else:
        console.print("schema is up to date")


def _parse_params(raw: list[str]) -> dict[str, str]:
    """``--param key=value`` options as a mapping; a key given twice is refused, since an
    audit takes one value per parameter and keeping the last one ran it on a value the
    caller may not have meant (``-p space=a -p space=b`` audited ``b`` without a word)."""
    params: dict[str, str] = {}
    for item in raw:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise InvalidInputError(f"--param must look like key=value, got {item!r}")
        if key.strip() in params:
            first = f"{key.strip()}={params[key.strip()]}"
            raise InvalidInputError(f"--param {key.strip()!r} is given twice ({first!r}, {item!r}); give each parameter once")
        params[key.strip()] = value
    return params


def _cell(value: object) -> Text:
    """A value as table text: times in ISO-8601, lists and objects as JSON, no markup."""
    if value is None:
        return Text("")
    if isinstance(value, datetime):
        return Text(value.isoformat())
    if isinstance(value, dict | list):
        return Text(json.dumps(value, ensure_ascii=False, default=str))
    return Text(str(value))


def _print_catalogue(specs: list[AuditSpec]) -> None:
    """The audits, their parameters (``name?`` and ``name=value`` may be left out) and columns."""
    caption = "param? = optional (left out: no filter); param=value: left out, that value"
    table = Table("audit", "params", "returns", "purpose", title="audits", caption=caption)
    for spec in specs:
        params = ", ".join(p.label for p in spec.params)
        table.add_row(spec.name, params, ", ".join(spec.column_names), spec.purpose)
    out_console(markup=False).print(table)


def audit(
    name: Annotated[str | None, typer.Argument(help="Audit name (see --list).", show_default=False)] = None,
    param: Annotated[list[str] | None, typer.Option("--param", "-p", help="Parameter as key=value.")] = None,
    list_audits: Annotated[bool, typer.Option("--list", help="List the audits and exit.")] = False,
    data_dir: DataDirOption = None,
) -> None:
    """Run a named read-only audit on the memory (embedded, or Neo4j with EYWA_NEO4J_URI)."""
    if list_audits == (name is not None):
        raise InvalidInputError("give an audit NAME, or --list to see them")
    params = _parse_params(param or [])
    settings = load_settings(data_dir)
    check_params(params, Limits.from_settings(settings))  # as Memory.audit: the stores are read directly
    stores = open_graph_stores(settings)  # an audit needs no vectors
    try:
        if name is None:
            _print_catalogue(stores.audit.audits())
            return
        result = run_audit(stores.audit, name, params)
    finally:
        stores.close()
    table = Table(*result.columns, title=name)
    for row in result.rows:
        table.add_row(*(_cell(cell) for cell in row))
    out_console(markup=False).print(table)
