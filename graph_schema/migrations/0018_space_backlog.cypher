// One (:Backlog {space, embed, level1}) node per space: the turns not yet embedded and not
// yet through Level 1 (eywa/stores/neo4j/ledger.py keeps the counts in the statement that
// creates or deletes the :Pending marks, so in their transaction). Counting a space's marks
// on every recall's trace cost one index entry per mark; the counts are one node seek.
CREATE CONSTRAINT backlog_space IF NOT EXISTS FOR (n:Backlog) REQUIRE n.space IS UNIQUE;
