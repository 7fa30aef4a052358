"""``eywa schema apply`` and ``eywa audit``: the Neo4j side of the CLI."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from eywa.runtime import load_settings
from eywa.runtime.commands import EywaGroup, out_console
from eywa.errors import InvalidInputError

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
    console = out_console()
    if applied:
        console.print("applied: " + ", ".join(applied))
    else:
        console.print("schema is up to date")


def audit(
    name: Annotated[str, typer.Argument(help="Audit query name (see graph_schema/audit/).")],
    param: Annotated[list[str] | None, typer.Option("--param", "-p", help="Parameter as key=value.")] = None,
) -> None:
    """Run a named Cypher audit query against EYWA_NEO4J_URI and print a table."""
    from eywa.audit import run_audit
    from eywa.stores.server import connect_neo4j

    params: dict[str, str] = {}
    for raw in param or []:
        key, sep, value = raw.partition("=")
        if not sep or not key:
            raise InvalidInputError(f"--param must look like key=value, got {raw!r}")
        params[key.strip()] = value
    settings = load_settings()
    driver = connect_neo4j(settings)
    try:
        columns, rows = run_audit(driver, settings.neo4j_database, name, params)
    finally:
        driver.close()
    table = Table(*columns, title=name)
    for row in rows:
        table.add_row(*(str(cell) for cell in row))
    out_console().print(table)
