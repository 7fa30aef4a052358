"""The access log aggregate: who called what, on which space, when, with which outcome.

The HTTP API and the MCP server append one :class:`AccessEvent` per call (buffered, in
batches), never a body, a query or a turn: only the key id, the route or tool, the space,
the time and the HTTP status (an MCP call records the status its error code has over HTTP,
200 when it succeeded). The log lives in the graph store of the backend, beside what it
describes, so the named audit ``access_log`` reads it in Cypher on Neo4j and in SQL on the
embedded store, and ``eywa keys log`` lists it. It is bounded: the services prune events
older than ``EYWA_ACCESS_LOG_RETENTION_DAYS``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Literal, Protocol

from pydantic import Field

from eywa.models import Frozen

__all__ = ["AccessEvent", "AccessLog", "Surface"]

Surface = Literal["http", "mcp"]


class AccessEvent(Frozen):
    """One call as the access log keeps it (never its content)."""

    at: datetime
    key_id: str | None = Field(description="The calling key's id; None when no valid key was given.")
    surface: Surface
    route: str = Field(description='"POST /v1/spaces/{space}/recall" (the route template) or "mcp recall".')
    space: str | None = Field(description="The space the call named, when it named one.")
    status: int = Field(ge=100, le=599)


class AccessLog(Protocol):
    """Append, list and prune access events."""

    def record(self, events: Sequence[AccessEvent]) -> None:
        """Append ``events`` in one transaction.

        Raises:
            StoreError: the store cannot be written.
        """
        ...

    def events(
        self,
        *,
        space: str | None = None,
        key_id: str | None = None,
        since: datetime | None = None,
        limit: int = 100,
    ) -> list[AccessEvent]:
        """The newest events first, optionally of one space or key, from ``since`` on.

        Raises:
            StoreError: the store cannot be read.
        """
        ...

    def prune(self, before: datetime) -> int:
        """Delete the events older than ``before``; returns how many were deleted.

        Raises:
            StoreError: the store cannot be written.
        """
        ...
