// purpose: Everything recorded in a space between two times: turns, beliefs, candidates, dimensions and deltas, oldest first.
// param: space - the space to audit
// param: from - ISO-8601 start, inclusive (e.g. 2024-01-01T00:00:00Z)
// param: to - ISO-8601 end, exclusive
// returns: label text, id text, recorded_at datetime, summary text
CALL {
  MATCH (n:Evidence) WHERE n.space = $space RETURN n, n.text AS summary
  UNION ALL
  MATCH (n:Belief) WHERE n.space = $space RETURN n, n.statement AS summary
  UNION ALL
  MATCH (n:Candidate) WHERE n.space = $space RETURN n, n.statement AS summary
  UNION ALL
  MATCH (n:Dimension) WHERE n.space = $space RETURN n, n.entity + ' ' + n.attribute AS summary
  UNION ALL
  MATCH (n:Delta) WHERE n.space = $space
  RETURN n, n.entity + ' ' + n.attribute + ' <- ' + n.observed AS summary
}
// The bounds move to UTC first: Neo4j orders equal instants with different offsets apart.
WITH n, summary,
     datetime({datetime: datetime($from), timezone: 'Z'}) AS start,
     datetime({datetime: datetime($to), timezone: 'Z'}) AS stop
WHERE n.recorded_at >= start AND n.recorded_at < stop
RETURN labels(n)[0] AS label, n.id AS id, n.recorded_at AS recorded_at, summary
ORDER BY recorded_at, label, id;
