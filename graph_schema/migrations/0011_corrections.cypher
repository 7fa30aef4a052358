// Correction records (eywa.stores.corrections): one Correction node per operator decision
// (retract or confirm a belief, accept or dismiss a candidate) with its author, time, reason
// and target id; never content. Listed per space and target, so (space, target_id) is
// indexed; ids are unique.
CREATE CONSTRAINT correction_id IF NOT EXISTS FOR (n:Correction) REQUIRE n.id IS UNIQUE;
CREATE INDEX correction_target IF NOT EXISTS FOR (n:Correction) ON (n.space, n.target_id);
