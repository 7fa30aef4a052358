"""The audit cookbook on Neo4j: the Cypher files of ``graph_schema/audit``.

Each query runs in one read transaction (``Neo4jGraph.read_exported``: a cookbook query may return nodes), so an audit can never change
the graph. The header convention and the value decoding are shared with the embedded twins
(see ``eywa.stores.audit``).

Example:
    >>> audits = Neo4jAuditQueries(graph)  # doctest: +SKIP
    >>> audits.run("rejected_by_reason", {"space": "home"}).rows  # doctest: +SKIP
    (('unsupported', 2, 'rejected', ['Rosalind owns a yacht.', ...]),)
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from eywa.errors import InvalidInputError, StoreError
from eywa.stores.audit import CYPHER, AuditResult, AuditSpec, decode_rows, load_audits
from eywa.stores.neo4j.graph import BACKEND, Neo4jGraph


def default_audit_dir() -> Traversable:
    """The ``graph_schema/audit`` folder of the checkout, else of the installed package.

    Raises:
        StoreError: neither a checkout nor an installed ``graph_schema`` package holds it.
    """
    checkout = Path(__file__).resolve().parents[3] / "graph_schema" / "audit"
    if checkout.is_dir():
        return checkout
    try:
        return resources.files("graph_schema") / "audit"
    except ModuleNotFoundError as exc:
        raise StoreError(BACKEND, "audit", "graph_schema/audit not found") from exc


def _native(value: object) -> object:
    """Neo4j temporal values as Python ones, lists element-wise; everything else as is."""
    if isinstance(value, list):
        return [_native(v) for v in value]
    to_native = getattr(value, "to_native", None)
    return to_native() if callable(to_native) else value


class Neo4jAuditQueries:
    """``AuditQueries`` over the Cypher cookbook, on a shared :class:`Neo4jGraph`.

    Args:
        graph: The driver and database the server stores share.
        directory: Where the ``.cypher`` files are (default :func:`default_audit_dir`).

    Raises:
        StoreError: an audit file is malformed.
    """

    def __init__(self, graph: Neo4jGraph, directory: Traversable | None = None) -> None:
        self._graph = graph
        self._queries = load_audits(directory if directory is not None else default_audit_dir(), CYPHER)

    def audits(self) -> list[AuditSpec]:
        """Every Cypher audit, by name."""
        return [query.spec for query in self._queries.values()]

    def run(self, name: str, params: Mapping[str, str]) -> AuditResult:
        """Run audit ``name`` in a read transaction.

        Raises:
            InvalidInputError: no audit has that name.
            ClosedError: the stores were closed.
            StoreError: Neo4j failed (chained from the driver's error), or the query
                returned other columns than it declares.
        """
        query = self._queries.get(name)
        if query is None:
            raise InvalidInputError(f"unknown audit {name!r}; known: {', '.join(self._queries)}")
        records = self._graph.read_exported(f"audit {name}", query.text, **params)  # text from the cookbook only
        columns = list(records[0]) if records else list(query.spec.column_names)
        rows = ([_native(value) for value in record.values()] for record in records)
        return decode_rows(query.spec, BACKEND, columns, rows)
