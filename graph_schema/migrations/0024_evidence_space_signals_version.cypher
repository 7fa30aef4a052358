// A space's turns by the Level 0 version their signals were detected under (session 28):
// eywa reprocess lists and counts the turns below the current version
// (eywa/signals/version.py) from this index, so a store with none outdated answers the
// count from the index alone. Every turn has the property (Level 0 stores it, migration
// 0023 filled older turns).
CREATE INDEX evidence_space_signals_version IF NOT EXISTS FOR (n:Evidence) ON (n.space, n.signals_version);
