-- purpose: The turns of a space in event time, a page at a time: session, position, speaker and when it was said (the console's timeline).
-- param: space - the space to audit
-- param: speaker? - only this speaker's turns (exact name; empty: every speaker)
-- param: from? - ISO-8601 start of observed time, inclusive (empty: no bound)
-- param: to? - ISO-8601 end of observed time, exclusive (empty: no bound)
-- param: offset=0 - how many turns of the ordered list to skip (an integer)
-- param: limit=100 - at most this many turns (an integer)
-- returns: id text, session text, seq int, speaker text, observed_at datetime
SELECT id, session, seq, speaker, utc_iso(observed_at) AS observed_at
FROM evidence
WHERE space = :space
  AND (:speaker = '' OR speaker = :speaker)
  AND (:from = '' OR utc_iso(observed_at) >= utc_iso(:from))
  AND (:to = '' OR utc_iso(observed_at) < utc_iso(:to))
ORDER BY observed_at, session, seq, id
LIMIT CAST(:limit AS INTEGER) OFFSET CAST(:offset AS INTEGER);
