"""Neo4j implementation of the store interfaces (server mode).

One :class:`Neo4jGraph` (driver + database) is shared by the evidence, keyword, belief and
dimension stores and the audit queries; ``eywa.stores.server.open_server`` builds them. The
graph model is drawn in ``graph_schema/README.md``.
"""

from __future__ import annotations

from eywa.stores.neo4j.audit_queries import Neo4jAuditQueries
from eywa.stores.neo4j.beliefs import Neo4jBeliefStore
from eywa.stores.neo4j.dimensions import Neo4jDimensionStore
from eywa.stores.neo4j.evidence import Neo4jEvidenceStore
from eywa.stores.neo4j.graph import Neo4jGraph
from eywa.stores.neo4j.keyword import Neo4jKeywordIndex
from eywa.stores.neo4j.labels import FulltextIndex, Label, RelType
from eywa.stores.neo4j.migrations import MigrationChecksumError, apply_migrations

__all__ = [
    "FulltextIndex",
    "Label",
    "MigrationChecksumError",
    "Neo4jAuditQueries",
    "Neo4jBeliefStore",
    "Neo4jDimensionStore",
    "Neo4jEvidenceStore",
    "Neo4jGraph",
    "Neo4jKeywordIndex",
    "RelType",
    "apply_migrations",
]
