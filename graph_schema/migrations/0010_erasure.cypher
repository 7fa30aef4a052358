// Erasure records (eywa.stores.erasure): one Erasure node per forget/drop_space call, holding
// the author, time, selector, counts and the erased turn ids with the keyed hashes of their
// content (never content). Found by id (the proof, a resumed erasure) and by state (the
// reconciler finishes pending ones), so both have an index; ids are unique.
CREATE CONSTRAINT erasure_id IF NOT EXISTS FOR (n:Erasure) REQUIRE n.id IS UNIQUE;
CREATE INDEX erasure_state IF NOT EXISTS FOR (n:Erasure) ON (n.state, n.at);
