// The stage ledger (eywa/stores/ledger.py): one (:Pending) node per (space, item, stage) still
// owed, created in the transaction that stores the item and deleted when the stage is done.
// Reconcilers find them by (stage, due_at), never by scanning evidence; a re-sent batch finds
// its turns' marks by item.
CREATE CONSTRAINT pending_key IF NOT EXISTS FOR (n:Pending) REQUIRE (n.space, n.item, n.stage) IS UNIQUE;
CREATE INDEX pending_stage_due_at IF NOT EXISTS FOR (n:Pending) ON (n.stage, n.due_at);
CREATE INDEX pending_item IF NOT EXISTS FOR (n:Pending) ON (n.item);
// Level 1 jobs, whose status is derived from their turns' marks (they survive a broker restart).
CREATE CONSTRAINT job_id IF NOT EXISTS FOR (n:Job) REQUIRE n.id IS UNIQUE;
CREATE INDEX job_submitted_at IF NOT EXISTS FOR (n:Job) ON (n.submitted_at);
// Erased turn ids: Level 0 refuses them, pending work for them does nothing.
CREATE CONSTRAINT tombstone_key IF NOT EXISTS FOR (n:Tombstone) REQUIRE (n.space, n.id) IS UNIQUE;
// Store-wide values (the embedder the vectors were made with); database metadata, no space.
CREATE CONSTRAINT store_meta_key IF NOT EXISTS FOR (n:StoreMeta) REQUIRE n.key IS UNIQUE;
