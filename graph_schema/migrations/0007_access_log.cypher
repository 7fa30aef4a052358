// The access log (eywa.stores.access): one AccessEvent node per API or MCP call, holding the
// key id, route, space, time and status, never content. Listed by space or by key, newest
// first, and pruned by age, so each of those paths has an index.
CREATE INDEX access_event_space_at IF NOT EXISTS FOR (n:AccessEvent) ON (n.space, n.at);
CREATE INDEX access_event_key_at IF NOT EXISTS FOR (n:AccessEvent) ON (n.key_id, n.at);
CREATE INDEX access_event_at IF NOT EXISTS FOR (n:AccessEvent) ON (n.at);
