// signals_version 0 on every :Evidence stored before Level 0 had a version (session 28): the
// version (eywa/signals/version.py) its signals were detected under is unknown, so older than
// any recorded one. Level 0 stores it on every new turn; eywa reprocess finds the turns under
// an older one through the (space, signals_version) index of 0024, which holds only turns
// that have the property: without this, an old turn would never be found outdated. One data
// transaction with its bookkeeping.
MATCH (e:Evidence) WHERE e.signals_version IS NULL
SET e.signals_version = 0;
