"""The Neo4j ``AccessLog``: one ``:AccessEvent`` node per call (indexed by migration 0007)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from eywa.models import as_utc
from eywa.stores.access import AccessEvent
from eywa.stores.neo4j.graph import Neo4jGraph, run
from eywa.stores.neo4j.labels import Label
from eywa.stores.neo4j.records import decodes, required_datetime, rereads

__all__ = ["Neo4jAccessLog"]

_EV = Label.ACCESS_EVENT
_RECORD = f"""
UNWIND $rows AS row
CREATE (a:{_EV}) SET a = row
"""
_EVENTS = f"""
MATCH (a:{_EV})
WHERE ($space IS NULL OR a.space = $space) AND ($key_id IS NULL OR a.key_id = $key_id)
  AND ($since IS NULL OR a.at >= $since)
RETURN properties(a) AS a ORDER BY a.at DESC LIMIT $limit
"""
_PRUNE = f"""
MATCH (a:{_EV}) WHERE a.at < $before
WITH a LIMIT 10000 DELETE a RETURN count(*) AS n
"""


class Neo4jAccessLog:
    """See ``eywa.stores.access.AccessLog``."""

    def __init__(self, graph: Neo4jGraph) -> None:
        self._graph = graph

    def record(self, events: Sequence[AccessEvent]) -> None:
        """Append ``events`` in one transaction."""
        if events:
            self._graph.write("record access", run, _RECORD, rows=[{**e.model_dump(), "at": as_utc(e.at)} for e in events])

    @rereads
    def events(
        self,
        *,
        space: str | None = None,
        key_id: str | None = None,
        since: datetime | None = None,
        limit: int = 100,
    ) -> list[AccessEvent]:
        """The newest events first, optionally of one space or key, from ``since`` on.

        Times are bound as UTC instants: Neo4j carries offsets of ±18:00 at most, so a
        ``since`` at +21:00 would break the connection rather than mean the same instant."""
        since = as_utc(since) if since is not None else None
        rows = self._graph.read("access events", _EVENTS, space=space, key_id=key_id, since=since, limit=max(0, limit))
        return [_event(row["a"]) for row in rows]

    def prune(self, before: datetime) -> int:
        """Delete the events older than ``before`` (in batches of 10,000)."""
        total = 0
        while True:
            deleted = int(self._graph.write("prune access", run, _PRUNE, before=as_utc(before))[0]["n"])
            total += deleted
            if deleted < 10_000:
                return total


@decodes("AccessEvent")
def _event(props: dict[str, Any]) -> AccessEvent:
    return AccessEvent(
        at=required_datetime(props["at"]), key_id=props.get("key_id"), surface=props["surface"],
        route=props["route"], space=props.get("space"), status=props["status"],
    )  # fmt: skip
