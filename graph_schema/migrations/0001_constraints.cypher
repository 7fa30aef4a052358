// Uniqueness of every node id. Ids are global (they embed the space), so one constraint per
// label is enough, and each constraint also gives the range index that id look-ups use.
// Community edition: uniqueness only (existence and key constraints are Enterprise).
CREATE CONSTRAINT space_id IF NOT EXISTS FOR (n:Space) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT session_id IF NOT EXISTS FOR (n:Session) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT evidence_id IF NOT EXISTS FOR (n:Evidence) REQUIRE n.id IS UNIQUE;
// Signals are nodes; their id is derived from (evidence id, kind, start, end).
CREATE CONSTRAINT signal_id IF NOT EXISTS FOR (n:Signal) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (n:Entity) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT belief_id IF NOT EXISTS FOR (n:Belief) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT candidate_id IF NOT EXISTS FOR (n:Candidate) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT dimension_id IF NOT EXISTS FOR (n:Dimension) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT delta_id IF NOT EXISTS FOR (n:Delta) REQUIRE n.id IS UNIQUE;
