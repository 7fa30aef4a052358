-- purpose: Who called the API or MCP on a space between two times: key, route or tool, status (never content), newest first.
-- param: space - the space to audit
-- param: from - ISO-8601 start, inclusive (e.g. 2024-01-01T00:00:00Z)
-- param: to - ISO-8601 end, exclusive
-- returns: at datetime, key_id text, surface text, route text, status int
SELECT utc_iso(at) AS at, key_id, surface, route, status
FROM access_log
WHERE space = :space AND utc_iso(at) >= utc_iso(:from) AND utc_iso(at) < utc_iso(:to)
ORDER BY at DESC, coalesce(key_id, ''), route, status;
