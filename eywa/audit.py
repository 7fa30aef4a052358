"""The audit cookbook: named, read-only Cypher queries in ``graph_schema/audit``.

Each file ``<name>.cypher`` holds one query. It starts with a ``// purpose: …`` line and
declares its parameters with ``// param: <name> - <description>`` lines; ``space`` is always
one of them and the query filters on ``$space``. Parameter values are strings and always
travel as query parameters (times are parsed in Cypher with ``datetime($from)``). The
queries run in a read transaction, so an audit can never change the graph.

Example:
    >>> [a.name for a in list_audits()]  # doctest: +SKIP
    ['derived_from_turn', 'dimension_history', 'merged_entities', …]
    >>> run_audit(driver, "neo4j", "rejected_by_reason", {"space": "home"})  # doctest: +SKIP
    (['reason', 'candidates', 'first_status', 'examples'], [['unsupported', 3, …]])
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from neo4j import Driver, ManagedTransaction
from neo4j.exceptions import DriverError, Neo4jError

from eywa.errors import InvalidInputError, StoreError

_PURPOSE = re.compile(r"^//\s*purpose:\s*(?P<text>.+)$")
_PARAM = re.compile(r"^//\s*param:\s*(?P<name>[A-Za-z_]\w*)\s*(?:-\s*(?P<text>.*))?$")
_USED = re.compile(r"\$([A-Za-z_]\w*)")
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class AuditParam:
    """One declared parameter of an audit query."""

    name: str
    description: str


@dataclass(frozen=True)
class AuditQuery:
    """A named audit query: what it answers, the parameters it takes, its Cypher text."""

    name: str
    purpose: str
    params: tuple[AuditParam, ...]
    cypher: str

    @property
    def param_names(self) -> tuple[str, ...]:
        """The declared parameter names, in file order."""
        return tuple(p.name for p in self.params)


def default_audit_dir() -> Traversable:
    """The ``graph_schema/audit`` folder of the checkout, else of the installed package.

    Raises:
        StoreError: neither a checkout nor an installed ``graph_schema`` package holds it.
    """
    checkout = Path(__file__).resolve().parents[1] / "graph_schema" / "audit"
    if checkout.is_dir():
        return checkout
    try:
        return resources.files("graph_schema") / "audit"
    except ModuleNotFoundError as exc:
        raise StoreError("neo4j", "audit", "graph_schema/audit not found") from exc


def parse_audit(file_name: str, text: str) -> AuditQuery:
    """Parse one audit file.

    Raises:
        StoreError: the name is not ``snake_case.cypher``, the purpose line is missing,
            ``space`` is not declared, or the query uses an undeclared parameter (or
            declares one it never uses).
    """
    name = file_name.removesuffix(".cypher")
    if not _NAME.match(name):
        raise StoreError("neo4j", "audit", f"{file_name}: expected snake_case.cypher")
    lines = text.strip().splitlines()
    purpose = _PURPOSE.match(lines[0].strip()) if lines else None
    if purpose is None:
        raise StoreError("neo4j", "audit", f"{file_name}: first line must be '// purpose: ...'")
    params = tuple(
        AuditParam(m["name"], (m["text"] or "").strip())
        for line in lines[1:]
        if (m := _PARAM.match(line.strip()))
    )
    body = "\n".join(line for line in lines if not line.lstrip().startswith("//")).strip()
    body = body.removesuffix(";").strip()
    declared, used = {p.name for p in params}, set(_USED.findall(body))
    if "space" not in declared:
        raise StoreError("neo4j", "audit", f"{file_name}: every audit must declare and filter on $space")
    if declared != used:
        raise StoreError(
            "neo4j", "audit",
            f"{file_name}: declared {sorted(declared)} but the query uses {sorted(used)}",
        )  # fmt: skip
    return AuditQuery(name=name, purpose=purpose["text"].strip(), params=params, cypher=body)


def list_audits(directory: Traversable | None = None) -> list[AuditQuery]:
    """Every audit query of ``directory`` (default :func:`default_audit_dir`), by name.

    Raises:
        StoreError: a file is malformed (see :func:`parse_audit`).
    """
    folder = directory if directory is not None else default_audit_dir()
    found = [
        parse_audit(entry.name, entry.read_text(encoding="utf-8"))
        for entry in folder.iterdir()
        if entry.name.endswith(".cypher")
    ]
    return sorted(found, key=lambda audit: audit.name)


def _plain(value: Any) -> object:
    """Neo4j temporal values as Python ones, lists element-wise; everything else as is."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if hasattr(value, "to_native"):
        return value.to_native()
    return value


def _read(tx: ManagedTransaction, cypher: str, params: dict[str, str]) -> tuple[list[str], list[list[object]]]:
    result = tx.run(cypher, params)  # text from the audit folder, never from input
    columns = list(result.keys())
    rows = [[_plain(value) for value in record.values()] for record in result]
    return columns, rows


def run_audit(
    driver: Driver,
    database: str,
    name: str,
    params: Mapping[str, str],
    directory: Traversable | None = None,
) -> tuple[list[str], list[list[object]]]:
    """Run the audit ``name`` with ``params`` in a read transaction; (columns, rows).

    Raises:
        InvalidInputError: no audit has that name, a declared parameter is missing, or an
            undeclared one was given.
        StoreError: an audit file is malformed, or Neo4j failed (chained from the driver's
            error).
    """
    audits = {audit.name: audit for audit in list_audits(directory)}
    audit = audits.get(name)
    if audit is None:
        raise InvalidInputError(f"unknown audit {name!r}; known: {', '.join(sorted(audits))}")
    given, declared = set(params), set(audit.param_names)
    if missing := declared - given:
        raise InvalidInputError(f"audit {name} needs --param for: {', '.join(sorted(missing))}")
    if extra := given - declared:
        raise InvalidInputError(
            f"audit {name} takes {', '.join(audit.param_names)}; unknown: {', '.join(sorted(extra))}"
        )
    values = {key: str(params[key]) for key in audit.param_names}
    try:
        with driver.session(database=database, notifications_min_severity="OFF") as session:
            return session.execute_read(_read, audit.cypher, values)
    except (Neo4jError, DriverError) as exc:
        raise StoreError("neo4j", f"audit {name}", str(exc)) from exc
