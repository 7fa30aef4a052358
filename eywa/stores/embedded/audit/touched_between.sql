-- purpose: Everything recorded in a space between two times: turns, beliefs, candidates, dimensions and deltas, oldest first.
-- param: space - the space to audit
-- param: from - ISO-8601 start, inclusive (e.g. 2024-01-01T00:00:00Z)
-- param: to - ISO-8601 end, exclusive
-- returns: label text, id text, recorded_at datetime, summary text
SELECT label, id, recorded_at, summary
FROM (
  SELECT 'Evidence' AS label, id, utc_iso(recorded_at) AS recorded_at, text AS summary
  FROM evidence WHERE space = :space
  UNION ALL
  SELECT 'Belief', id, utc_iso(recorded_at), statement
  FROM beliefs WHERE space = :space
  UNION ALL
  SELECT 'Candidate', id, utc_iso(recorded_at), json_extract(fact, '$.statement')
  FROM candidates WHERE space = :space
  UNION ALL
  -- dimension rows are keyed by (space, entity_key, attribute); Neo4j names them by this id
  SELECT 'Dimension', stable_id('dim', space, entity_key, attribute), utc_iso(recorded_at),
         entity || ' ' || attribute
  FROM nous_dimensions WHERE space = :space
  UNION ALL
  SELECT 'Delta', id, utc_iso(recorded_at), entity || ' ' || attribute || ' <- ' || observed
  FROM nous_deltas WHERE space = :space
)
WHERE recorded_at >= utc_iso(:from) AND recorded_at < utc_iso(:to)
ORDER BY recorded_at, label, id;
