// purpose: Identity merges (SAME_AS edges) of a space between entity keys (case-folded names), active and undone, with their scores and times.
// param: space - the space to audit
// returns: source text, target text, score float, at datetime, removed_at datetime, active bool
MATCH (s:Entity)-[r:SAME_AS]->(t:Entity)
WHERE s.space = $space AND r.space = $space AND t.space = $space
RETURN r.source AS source, r.target AS target, r.score AS score, r.at AS at,
       r.removed_at AS removed_at, r.removed_at IS NULL AS active
ORDER BY at, source, target;
