"""Neo4j implementation of the store interfaces (server mode).

Only the schema migration runner and the label enums exist so far; the stores follow.
"""

from __future__ import annotations

from eywa.stores.neo4j.labels import FulltextIndex, Label, RelType
from eywa.stores.neo4j.migrations import MigrationChecksumError, apply_migrations

__all__ = ["FulltextIndex", "Label", "MigrationChecksumError", "RelType", "apply_migrations"]
