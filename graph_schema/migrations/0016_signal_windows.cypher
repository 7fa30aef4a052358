// Date and time signals by space, kind and window start (issue #14: every filtered read
// starts from the space inside an index). The temporal route's read of the turns dated in a
// window (EvidenceStore.with_dates_between) and the listing of turns with a date signal
// filtered :Signal nodes by space, kind and window, and no index led with all three: both
// scanned every space's signals or turns.
CREATE INDEX signal_space_kind_window_start IF NOT EXISTS FOR (n:Signal) ON (n.space, n.kind, n.window_start);
