// Merge edges by space (issue #14: every filtered read starts from the space inside an
// index). The dimension route reads a space's active SAME_AS edges on every recall
// (eywa/stores/neo4j/dimensions.py), and listing, removing or erasing them filters by the
// edge's space too; with no index on it, each of those scanned every space's SAME_AS edges.
CREATE INDEX same_as_space IF NOT EXISTS FOR ()-[r:SAME_AS]-() ON (r.space);
