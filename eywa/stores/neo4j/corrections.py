"""The Neo4j ``CorrectionLog``: one ``:Correction`` node per decision (migration 0011)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from neo4j import ManagedTransaction

from eywa.stores.corrections import CorrectionKind, CorrectionRecord
from eywa.stores.neo4j.graph import Neo4jGraph, run
from eywa.stores.neo4j.labels import Label
from eywa.stores.neo4j.records import decodes, required_datetime, rereads

__all__ = ["Neo4jCorrectionLog"]

_CO = Label.CORRECTION
_RECORD = f"MERGE (c:{_CO} {{id: $row.id}}) ON CREATE SET c = $row"
_LIST = f"""
MATCH (c:{_CO}) WHERE c.space = $space AND ($target IS NULL OR c.target_id = $target)
RETURN properties(c) AS c ORDER BY c.at, c.id
"""

_FORGET_REASONS = f"""
MATCH (c:{_CO}) WHERE c.space = $space AND c.reason IS NOT NULL AND (c.target_id IN $ids OR c.belief_id IN $ids OR c.id IN $records)
REMOVE c.reason
RETURN count(c) AS n
"""


class Neo4jCorrectionLog:
    """See ``eywa.stores.corrections.CorrectionLog``."""

    def __init__(self, graph: Neo4jGraph) -> None:
        self._graph = graph

    def record(self, correction: CorrectionRecord) -> None:
        """Append one record (an existing id is left as it is)."""
        row = {k: v for k, v in correction.model_dump().items() if v is not None}
        self._graph.write("record correction", run, _RECORD, row=row)

    def forget_reasons(self, space: str, item_ids: Sequence[str], correction_ids: Sequence[str] = ()) -> int:
        """Clear the reasons of the records about ``item_ids`` and of ``correction_ids``."""
        if not item_ids and not correction_ids:
            return 0
        return self._graph.write(
            "forget correction reasons", _count, _FORGET_REASONS, space=space, ids=list(item_ids), records=list(correction_ids)
        )

    @rereads
    def corrections(
        self, space: str, *, target_id: str | None = None, kinds: Sequence[CorrectionKind] | None = None
    ) -> list[CorrectionRecord]:
        """The records of ``space`` (of one target, of some kinds), oldest first."""
        rows = self._graph.read("list corrections", _LIST, space=space, target=target_id)
        found = [_record(row["c"]) for row in rows]
        return [c for c in found if kinds is None or c.kind in kinds]


def _count(tx: ManagedTransaction, query: str, /, **params: Any) -> int:
    return int(run(tx, query, **params)[0]["n"])


@decodes("Correction")
def _record(props: dict[str, Any]) -> CorrectionRecord:
    fields = {name: props.get(name) for name in CorrectionRecord.model_fields}  # Neo4j drops null properties
    return CorrectionRecord.model_validate({**fields, "at": required_datetime(props["at"])})
