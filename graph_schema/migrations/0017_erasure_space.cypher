// Erasure records by space (issue #14: every filtered read starts from the space inside an
// index). The grouped counts of a page of spaces (eywa/stores/neo4j/spaces.py) count each
// listed space's records; 0010 indexed them by id and by (state, at) only, so that part
// scanned every space's records.
CREATE INDEX erasure_space_at IF NOT EXISTS FOR (n:Erasure) ON (n.space, n.at);
