// purpose: The turns of a space in event time, a page at a time: session, position, speaker and when it was said (the console's timeline).
// param: space - the space to audit
// param: speaker? - only this speaker's turns (exact name; empty: every speaker)
// param: from? - ISO-8601 start of observed time, inclusive (empty: no bound)
// param: to? - ISO-8601 end of observed time, exclusive (empty: no bound)
// param: offset=0 - how many turns of the ordered list to skip (an integer)
// param: limit=100 - at most this many turns (an integer)
// returns: id text, session text, seq int, speaker text, observed_at datetime
MATCH (e:Evidence) WHERE e.space = $space
  AND ($speaker = '' OR e.speaker = $speaker)
  AND ($from = '' OR e.observed_at >= datetime({datetime: datetime($from), timezone: 'Z'}))
  AND ($to = '' OR e.observed_at < datetime({datetime: datetime($to), timezone: 'Z'}))
RETURN e.id AS id, e.session AS session, e.seq AS seq, e.speaker AS speaker, e.observed_at AS observed_at
ORDER BY observed_at, session, seq, id
SKIP toInteger($offset) LIMIT toInteger($limit);
