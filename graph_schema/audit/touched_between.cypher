// purpose: Everything recorded in a space between two times: turns, beliefs, candidates, dimensions and deltas, oldest first.
// param: space - the space to audit
// param: from - ISO-8601 start, inclusive (e.g. 2024-01-01T00:00:00Z)
// param: to - ISO-8601 end, exclusive
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
WITH n, summary
WHERE n.recorded_at >= datetime($from) AND n.recorded_at < datetime($to)
RETURN labels(n)[0] AS label, n.id AS id, n.recorded_at AS recorded_at, summary
ORDER BY recorded_at, label, id;
