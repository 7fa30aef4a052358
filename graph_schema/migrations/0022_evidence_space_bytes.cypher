// A space's turns with their sizes (session 26): the quota check inside Level 0's write
// transaction and EvidenceStore.usage count a space's turns and sum their bytes from this
// index alone (the values come from the index: no turn is read), 0.14 µs a turn where the
// (space, observed_at) index and a read of each turn's bytes took 0.5-1 µs (43k turns).
// Every turn has bytes (Level 0 stores it, migration 0021 filled older turns).
CREATE INDEX evidence_space_bytes IF NOT EXISTS FOR (n:Evidence) ON (n.space, n.bytes);
