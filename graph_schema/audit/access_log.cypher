// purpose: Who called the API or MCP on a space between two times: key, route or tool, status (never content), newest first.
// param: space - the space to audit
// param: from - ISO-8601 start, inclusive (e.g. 2024-01-01T00:00:00Z)
// param: to - ISO-8601 end, exclusive
// returns: at datetime, key_id text, surface text, route text, status int
MATCH (a:AccessEvent) WHERE a.space = $space
// The bounds move to UTC first: Neo4j orders equal instants with different offsets apart.
WITH a,
     datetime({datetime: datetime($from), timezone: 'Z'}) AS start,
     datetime({datetime: datetime($to), timezone: 'Z'}) AS stop
WHERE a.at >= start AND a.at < stop
RETURN a.at AS at, a.key_id AS key_id, a.surface AS surface, a.route AS route, a.status AS status
ORDER BY at DESC, coalesce(key_id, ''), route, status;
