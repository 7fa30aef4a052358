// The stage ledger's item look-ups (eywa/stores/neo4j/ledger.py: a re-sent batch's marks,
// completing or postponing a stage) all filter `p.item IN $items AND p.space = $space`.
// 0006 indexed (:Pending) by item alone, so a seek returned every space's marks of those
// ids and filtered them afterwards; this index starts from the space, like every other
// filtered read (issue #14), and replaces the one by item, which nothing else reads.
CREATE INDEX pending_space_item IF NOT EXISTS FOR (n:Pending) ON (n.space, n.item);
DROP INDEX pending_item IF EXISTS;
