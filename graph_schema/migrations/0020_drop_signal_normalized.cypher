// Drop the (space, kind, normalized) range index of 0002. No query ever sought signals by
// their normalized value, and a range index refuses a property value over its key size
// (about 8 kB): a turn within EYWA_MAX_CHARS_PER_TURN whose URL, email address or number
// fills it normalizes to such a value, and Neo4j failed the whole batch ("Property value is
// too large to index"), a turn the embedded store keeps. Signals are still sought by
// (space, kind, window_start) (0016) and reached from their turn.
DROP INDEX signal_space_kind_normalized IF EXISTS;
